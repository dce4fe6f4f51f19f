/**
 * The readers of one database: read-only connections, admission to them in arrival order with
 * deadlines and cancellation, the running of a read on the right thread, and snapshots held across
 * calls.
 *
 * <p>Depends on file, guard, scheduler, sql, sqlite, telemetry and util.
 */
package dev.lanes.internal.reader;
