/**
 * What a replicated SQLite engine must offer for Lanes to run a {@link dev.lanes.Database} on it
 * ({@link dev.lanes.Lanes#openCluster}): a {@link dev.lanes.spi.ClusterEngine} that opens a
 * {@link dev.lanes.spi.ClusterSession} with the current leader, and failures classified by
 * {@link dev.lanes.spi.ClusterException.Kind} — whether a request certainly did not run, may have
 * run, was refused busy, or violated a constraint. Lanes builds its writer lane, group commit and
 * outcome resolution on these alone; module {@code lanes-dqlite} implements them for dqlite.
 *
 * <p>An implementation must never re-send a request on its own: a request that may have run is
 * reported as {@link dev.lanes.spi.ClusterException.Kind#MAY_HAVE_RUN}, and Lanes resolves it.
 */
package dev.lanes.spi;
