package dev.lanes.fleet.internal;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Ships each owned tenant's database to object storage and brings it back: {@link
 * LitestreamReplicator} runs Litestream for it. Each ownership epoch replicates to a place of its
 * own, so a deposed owner that still ships never writes where the new owner does.
 *
 * <p>Implementations are thread-safe.
 */
public interface Replicator extends AutoCloseable {
    /**
     * Says that {@code tenant} is about to be acquired on this node, its {@link #start} to follow
     * unless the acquisition fails: a replicator that must restart to take a tenant may wait a
     * bounded while for the others expected, so that the tenants acquired together (a failover's)
     * share one restart.
     *
     * @return to run once the acquisition ended, started or not
     */
    default Runnable expect(String tenant) {
        return () -> { };
    }

    /** Starts replicating {@code db} as the tenant's epoch {@code epoch}. */
    void start(String tenant, Path db, long epoch);

    /**
     * Waits until everything committed to the tenant's database up to {@code lastChange} is in
     * the store (its first snapshot included).
     *
     * @param lastChange when ({@link System#nanoTime()}) the database last changed: its last
     *     commit, or when its file was put in place
     * @return false if that was not seen within {@code bound}
     */
    boolean awaitCaughtUp(String tenant, long lastChange, Duration bound)
            throws InterruptedException;

    /** Stops replicating the tenant; what was not shipped yet stays only local. */
    void stop(String tenant);

    /**
     * Restores the tenant's epoch {@code epoch} into {@code target} (which must not exist).
     *
     * @return false if the store holds no replica of that epoch
     */
    boolean restore(String tenant, long epoch, Path target);

    /**
     * Says that the tenant's epoch {@code epoch} is recorded as its replica: older epochs' replicas
     * are never restored from again, and may go.
     */
    default void recorded(String tenant, long epoch) {
    }

    /**
     * Bytes of WAL the store does not hold yet, over the replicated tenants (a tenant whose
     * replicator is starting counts nothing until it reports).
     */
    long lagBytes();

    /** Stops every replicator process (each ships what it has first). */
    @Override
    void close();
}
