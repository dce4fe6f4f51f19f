package dev.lanes.fleet.internal;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.fleet.OwnershipChange;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a tenant up cleanly: a planned move to another node, or a release when no node is left
 * to take it. The slot turns {@code MOVING} (requests for the tenant wait, see {@link
 * FleetRuntime#database}), the database closes (its accepted writes commit first), the replica
 * catches up with everything committed ({@link Replicator#awaitCaughtUp}), and one etcd
 * transaction passes the owner key to the new node (or deletes it) and records this epoch as the
 * clean, latest replica; the tenant's replication then stops. The new owner
 * hears of it through its watch, restores this epoch and serves.
 *
 * <p>A move that cannot finish (the replica does not catch up, the target's lease is gone)
 * reopens the database and serves on (still replicated); a move that finds the key no longer
 * this epoch's ends the slot: the tenant was not this node's any more.
 *
 * <p>Thread-safety: one move per slot at a time, through the slot's state.
 */
final class TenantMover {
    private static final Logger log = LoggerFactory.getLogger(TenantMover.class);
    private static final Duration CATCH_UP = Duration.ofSeconds(10);

    private final FleetSettings settings;
    private final Ownership ownership;
    private final Replicator replicator;
    private final TenantFiles files;
    private final Map<String, TenantSlot> slots;
    private final FleetEvents events;

    TenantMover(FleetSettings settings, Ownership ownership, Replicator replicator,
            TenantFiles files, Map<String, TenantSlot> slots, FleetEvents events) {
        this.settings = settings;
        this.ownership = ownership;
        this.replicator = replicator;
        this.files = files;
        this.slots = slots;
        this.events = events;
    }

    /**
     * Moves the slot's tenant to {@code to}, or releases it when {@code to} is null.
     *
     * @return whether the tenant left this node cleanly
     */
    boolean move(TenantSlot slot, NodeRecord to) throws InterruptedException {
        if (!slot.beginMove()) {
            return false;
        }
        String tenant = slot.tenant;
        long token = slot.token();
        long started = System.nanoTime();
        slot.db().close(); // accepted writes commit; later ones on this handle are refused
        long closed = System.nanoTime();
        if (!replicator.awaitCaughtUp(tenant, slot.fence().lastChange(), CATCH_UP)) {
            log.warn("fleet {}: tenant {}'s replica did not catch up within {}; it stays here",
                    ownership.nodeId(), tenant, CATCH_UP);
            reopen(slot);
            return false;
        }
        long caughtUp = System.nanoTime();
        ReplicaRecord clean = new ReplicaRecord(token, true, ownership.nodeId());
        files.markReleased(tenant, token);
        boolean done;
        try {
            done = to == null ? ownership.release(tenant, token, clean)
                    : ownership.handOver(tenant, token, to, clean);
        } catch (RuntimeException e) {
            // etcd did not answer: whether the key moved is unknown, so the copy may not be
            // served again without asking; the slot ends, and the key decides who has it
            files.clearReleased(tenant);
            finish(slot, false);
            throw e;
        }
        if (!done) {
            files.clearReleased(tenant);
            if (ownership.ownerOf(tenant).map(o -> o.token() == token).orElse(false)) {
                reopen(slot); // the target's lease is gone: keep serving, still replicated
                return false;
            }
            finish(slot, false); // the key is not this epoch's any more
            return false;
        }
        long passed = System.nanoTime();
        finish(slot, true);
        log.info("fleet {}: tenant {} epoch {} {} (close {} ms, replica caught up {} ms, etcd {}"
                + " ms)", ownership.nodeId(), tenant, token,
                to == null ? "released" : "handed to " + to.id(), (closed - started) / 1_000_000,
                (caughtUp - closed) / 1_000_000, (passed - caughtUp) / 1_000_000);
        return true;
    }

    /**
     * Reopens a serving tenant whose writer refuses writes after a commit that ended past the
     * lease's deadline (the epoch still holds: etcd still has this epoch's key). Requests wait
     * meanwhile, as for a move.
     */
    void reopenAfterLapse(TenantSlot slot) {
        if (!slot.beginMove()) {
            return;
        }
        slot.db().shutdownNow();
        FleetRuntime.awaitTerminated(slot.db());
        reopen(slot);
        log.info("fleet {}: tenant {} epoch {} reopened after a commit past the lease's deadline",
                ownership.nodeId(), slot.tenant, slot.token());
    }

    private void finish(TenantSlot slot, boolean clean) {
        slot.fence().close();
        replicator.stop(slot.tenant);
        slots.remove(slot.tenant, slot);
        events.ownershipChanged(slot.tenant,
                clean ? OwnershipChange.RELEASED : OwnershipChange.LOST);
        slot.end(clean, null);
    }

    private void reopen(TenantSlot slot) {
        try {
            Database db = settings.lanes().open(files.database(slot.tenant),
                    settings.options().toBuilder().checkpointMode(CheckpointMode.EXTERNAL)
                            .commitFence(slot.fence()).build());
            if (!slot.resume(db)) {
                // lost while it was moving: the epoch is over, never serve it again
                db.shutdownNow();
                FleetRuntime.awaitTerminated(db);
                finish(slot, false);
            }
        } catch (RuntimeException e) {
            log.error("fleet {}: reopening tenant {} after a failed move failed; giving it up",
                    ownership.nodeId(), slot.tenant, e);
            finish(slot, false);
            try {
                ownership.release(slot.tenant, slot.token(), null);
            } catch (RuntimeException ignored) {
                // the key lapses with this node's lease
            }
        }
    }
}
