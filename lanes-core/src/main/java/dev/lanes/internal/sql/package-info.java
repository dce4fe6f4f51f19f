/**
 * SQL as text: the one lexer, statement splitting and classification, and the one way a statement
 * given as text and arguments runs and its rows are read; and {@link
 * dev.lanes.internal.sql.ReadTransaction}, what a JDBC read-only transaction runs on.
 *
 * <p>Depends on sqlite, types and util.
 */
package dev.lanes.internal.sql;
