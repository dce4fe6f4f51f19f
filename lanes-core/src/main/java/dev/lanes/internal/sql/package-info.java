/**
 * The one way a statement given as text and arguments runs and its rows are read; and {@link
 * dev.lanes.internal.sql.ReadTransaction}, what a JDBC read-only transaction runs on. What a text
 * is, and where it may run, is {@link dev.lanes.internal.sql.text}'s.
 *
 * <p>Depends on sql.text, sqlite, types and util.
 */
package dev.lanes.internal.sql;
