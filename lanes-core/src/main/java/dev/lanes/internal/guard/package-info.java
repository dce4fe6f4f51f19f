/**
 * The one connection guard a body receives, with a write policy on the writer and a read policy on
 * readers, and the refusals of the JDBC calls it does not let run, one message per rule.
 *
 * <p>Depends on sql.text (the statement policies), sqlite (the connection's attachment limit) and
 * util.
 */
package dev.lanes.internal.guard;
