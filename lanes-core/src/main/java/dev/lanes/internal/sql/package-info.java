/**
 * The one way a statement given as text and arguments runs and its rows are read; and the
 * transactions a statement layer (JDBC) drives: {@link dev.lanes.internal.sql.ReadTransaction}
 * for a read-only one, {@link dev.lanes.internal.sql.WriteTransaction} (with what a statement
 * {@link dev.lanes.internal.sql.Returns}) for a read-write one. What a text
 * is, and where it may run, is {@link dev.lanes.internal.sql.text}'s.
 *
 * <p>Depends on sql.text, sqlite, types and util.
 */
package dev.lanes.internal.sql;
