package dev.lanes.fleet.internal;

import dev.lanes.LanesException;
import dev.lanes.fleet.ReplicationUnconfirmedException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * What a {@code REPLICATED} write waits for ({@link TenantFence#awaitAcknowledgement}): the
 * replica holding every commit made before the call and the tenant's epoch recorded as its
 * replica, while this node surely owns the tenant; or the tenant gone from this node cleanly.
 *
 * <p>Thread-safety: stateless; the waits are on the slot's futures and the {@link Replicator}.
 */
final class ReplicationConfirmation {
    /** How long one look waits for a move to end before looking at the slot again. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How long to wait before looking again after a look that ended at once. */
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Replicator replicator;
    private final String nodeId;

    ReplicationConfirmation(Replicator replicator, String nodeId) {
        this.replicator = replicator;
        this.nodeId = nodeId;
    }

    /**
     * Waits until everything the tenant committed before the call is in object storage, while
     * this node surely owns it; a tenant handed over or released cleanly since counts as
     * replicated (a move stops its replication only once the replica holds every commit, before
     * the key passes), and a move under way is waited for.
     *
     * @throws LanesException with outcome UNKNOWN when that could not be confirmed
     */
    void await(TenantSlot slot, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        long lastChange = slot.fence().lastChange();
        try {
            while (true) {
                Boolean confirmed = look(slot, lastChange, deadline);
                if (confirmed != null) {
                    if (confirmed) {
                        return;
                    }
                    break;
                }
                if (left(deadline) == 0) {
                    break;
                }
                LockSupport.parkNanos(Math.min(left(deadline), PAUSE_NANOS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw unconfirmed(slot);
    }

    /**
     * One look at the slot and its replica: true when the writes are confirmed, false when they
     * cannot be any more (the tenant was lost), null to look again (while time is left).
     */
    private Boolean look(TenantSlot slot, long lastChange, long deadline)
            throws InterruptedException {
        try {
            if (slot.gone.isDone() || slot.state() == TenantSlot.State.MOVING) {
                return slot.gone.get(Math.min(left(deadline), SLICE_NANOS),
                        TimeUnit.NANOSECONDS);
            }
            // the replica's wait first: it counts Litestream's syncs from its start, so it must
            // not start only once the epoch is recorded, which a new epoch's first writes wait for
            if (!replicator.awaitCaughtUp(slot.tenant, lastChange,
                    Duration.ofNanos(left(deadline)))) {
                return null; // a move began, or the replicator is restarting
            }
            slot.recorded.get(left(deadline), TimeUnit.NANOSECONDS);
            return slot.fence().held() && slot.state() != TenantSlot.State.GONE ? true : null;
        } catch (TimeoutException e) {
            return null; // the move, or the recording, is not over yet
        } catch (ExecutionException e) {
            // the epoch ended (whether cleanly, the slot's end says), or its recording failed
            return slot.state() == TenantSlot.State.SERVING ? Boolean.FALSE : null;
        }
    }

    private static long left(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    private ReplicationUnconfirmedException unconfirmed(TenantSlot slot) {
        return new ReplicationUnconfirmedException(slot.tenant, "tenant " + slot.tenant
                + ": the write committed on node " + nodeId + ", but its replication was not"
                + " confirmed while this node surely owned the tenant; the next owner may or may"
                + " not serve it");
    }
}
