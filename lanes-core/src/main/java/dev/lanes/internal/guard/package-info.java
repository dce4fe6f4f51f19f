/**
 * The one connection guard a body receives, with a write policy on the writer and a read policy on
 * readers, and the refusals of what may not run, one message per rule.
 *
 * <p>Depends on sql and util.
 */
package dev.lanes.internal.guard;
