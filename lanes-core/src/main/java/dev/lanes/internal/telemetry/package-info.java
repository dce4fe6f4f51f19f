/**
 * Reporting to the metrics listener without letting it fail a request, read telemetry, and the
 * counting wrapper of profiled commands.
 *
 * <p>Depends on sql and util.
 */
package dev.lanes.internal.telemetry;
