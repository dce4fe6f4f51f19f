/**
 * The one connection guard a body receives, with a write policy on the writer and a read policy on
 * readers: the guarded connection, statements, result sets and metadata (plain subclasses of
 * {@code guard.delegating}'s, each overriding only what the guard decides), and the refusals of
 * the JDBC calls it does not let run, one message per rule.
 *
 * <p>Depends on guard.delegating (the JDBC delegation and date readings), sql.text (the statement
 * policies), sqlite (the connection's attachment limit), types (the value convention) and util.
 */
package dev.lanes.internal.guard;
