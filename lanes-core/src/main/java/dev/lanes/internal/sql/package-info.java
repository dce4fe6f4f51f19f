/**
 * SQL as text: the one lexer, statement splitting and classification, and the one way a statement
 * given as text and arguments runs and its rows are read.
 *
 * <p>Depends on sqlite, types and util.
 */
package dev.lanes.internal.sql;
