package dev.lanes.fleet.internal;

import dev.lanes.LanesException;
import dev.lanes.fleet.ReplicationUnconfirmedException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a {@code REPLICATED} write waits for ({@link ReplicatedDatabase}): the tenant's epoch
 * recorded as its replica, then the replica holding every commit made before the call, while
 * this node surely owns the tenant.
 *
 * <p>Thread-safety: stateless; the waits are on the slot's futures and the {@link Replicator}.
 */
final class ReplicationConfirmation {
    private final Replicator replicator;
    private final String nodeId;

    ReplicationConfirmation(Replicator replicator, String nodeId) {
        this.replicator = replicator;
        this.nodeId = nodeId;
    }

    /**
     * Waits until everything the tenant committed before the call is in object storage, while
     * this node surely owns it; a tenant handed over or released cleanly since counts as
     * replicated (its final replication came first).
     *
     * @throws LanesException with outcome UNKNOWN when that could not be confirmed
     */
    void await(TenantSlot slot, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        try {
            if (slot.gone.isDone()) {
                confirmGone(slot);
                return;
            }
            slot.recorded.get(bound.toNanos(), TimeUnit.NANOSECONDS);
            long left = Math.max(0, deadline - System.nanoTime());
            boolean caughtUp = replicator.awaitCaughtUp(slot.tenant,
                    slot.fence().lastChange(), Duration.ofNanos(left));
            if (caughtUp && slot.fence().held() && slot.state() != TenantSlot.State.GONE) {
                return;
            }
            if (slot.gone.isDone()) {
                confirmGone(slot);
                return;
            }
        } catch (ExecutionException | TimeoutException e) {
            if (slot.gone.isDone()) {
                confirmGone(slot);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw unconfirmed(slot);
    }

    private ReplicationUnconfirmedException unconfirmed(TenantSlot slot) {
        return new ReplicationUnconfirmedException(slot.tenant, "tenant " + slot.tenant
                + ": the write committed on node " + nodeId + ", but its replication was not"
                + " confirmed while this node surely owned the tenant; the next owner may or may"
                + " not serve it");
    }

    private void confirmGone(TenantSlot slot) {
        if (!slot.gone.join()) {
            throw unconfirmed(slot);
        }
    }
}
