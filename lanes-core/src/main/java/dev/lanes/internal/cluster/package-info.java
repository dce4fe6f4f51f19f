/**
 * A database on a replicated cluster ({@code Lanes.openCluster}): the same writer lane and group
 * commit on a {@link dev.lanes.spi.ClusterEngine}'s sessions, the group ledger that resolves an
 * uncertain commit by re-inserting its group id as a write, and reads on sessions of their own.
 *
 * <p>Depends on engine (the runtime it attaches to), writer, file, guard, notify, scheduler, sql,
 * sqlite, telemetry and util; only the public API depends on it.
 */
package dev.lanes.internal.cluster;
