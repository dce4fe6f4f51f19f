/**
 * The one connection guard a body receives, with a write policy on the writer and a read policy on
 * readers, and the refusals of what may not run, one message per rule.
 *
 * <p>Depends on sql, sqlite (the connection's attachment limit) and util.
 */
package dev.lanes.internal.guard;
