package dev.lanes.fleet.internal;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.Row;
import dev.lanes.fleet.Durability;
import dev.lanes.fleet.OwnershipChange;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a tenant for this node: claims its owner key (or receives it from a hand-over), makes
 * the local copy current (kept when released cleanly at the epoch etcd records, else restored
 * from that epoch's replica, else a new empty database), opens it behind the epoch's fence,
 * starts replicating it to the new epoch's prefix, and records that epoch in etcd once the
 * replica holds it. A failure gives the owner key back (unless another node already has it).
 *
 * <p>Thread-safety: one call per tenant at a time ({@link FleetRuntime} guarantees it through
 * the slot map); {@link FleetEvents} is thread-safe.
 */
final class TenantAcquirer {
    private static final Logger log = LoggerFactory.getLogger(TenantAcquirer.class);
    private static final Duration RECORD_BOUND = Duration.ofSeconds(60);

    /**
     * The epoch being acquired was lost meanwhile (this node's lease lapsed): nothing was served,
     * and the tenant may be claimed again under the node's next lease.
     */
    static final class LostWhileAcquiring extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        LostWhileAcquiring(String message) {
            super(message);
        }
    }

    private final FleetSettings settings;
    private final Ownership ownership;
    private final Replicator replicator;
    private final TenantFiles files;
    private final Map<String, TenantSlot> slots;
    private final FleetEvents events;
    private final java.util.function.Consumer<TenantSlot> lapsed;
    private final ReplicationConfirmation confirmation;

    TenantAcquirer(FleetSettings settings, Ownership ownership, Replicator replicator,
            TenantFiles files, Map<String, TenantSlot> slots, FleetEvents events,
            java.util.function.Consumer<TenantSlot> lapsed) {
        this.settings = settings;
        this.ownership = ownership;
        this.replicator = replicator;
        this.files = files;
        this.slots = slots;
        this.events = events;
        this.lapsed = lapsed;
        this.confirmation = new ReplicationConfirmation(replicator, ownership.nodeId());
    }

    /**
     * What a write of {@code slot}'s tenant waits for before it is acknowledged: its replication
     * at {@code REPLICATED}, bounded by the fleet's {@code replicatedTimeout}; null at {@code
     * LOCAL}.
     */
    private Runnable acknowledgement(TenantSlot slot) {
        if (settings.durability() != Durability.REPLICATED) {
            return null;
        }
        Duration bound = settings.replicatedTimeout();
        return () -> confirmation.await(slot, bound);
    }

    /**
     * Acquires {@code slot}'s tenant (the slot is already in the map, ACQUIRING).
     *
     * @param handedToken the token of a key handed to this node, or 0 to claim an absent key
     * @param handedLease the lease the handed key is attached to
     * @param seen when ({@link System#nanoTime()}) this node learned it should take the tenant:
     *     the watch event or the request; the wait for a worker is logged from it
     * @return the owner when another node won the claim, else null (the slot then serves)
     */
    OwnerRecord acquire(TenantSlot slot, long handedToken, long handedLease, long seen) {
        String tenant = slot.tenant;
        long started = System.nanoTime();
        Epoch epoch = take(tenant, handedToken, handedLease);
        if (epoch.winner() != null) {
            return epoch.winner();
        }
        long token = epoch.token();
        ReplicaRecord replica = epoch.replica();
        LeaseHandle lease = epoch.lease();
        Database db = null;
        long claimed = System.nanoTime();
        try {
            Path file = prepare(tenant, replica);
            long prepared = System.nanoTime();
            TenantFence fence = new TenantFence(tenant, ownership.nodeId(), token,
                    lease.clock(), events, () -> lapsed.accept(slot), acknowledgement(slot));
            db = settings.lanes().open(file, settings.options().toBuilder()
                    .checkpointMode(CheckpointMode.EXTERNAL).commitFence(fence).build());
            checkNotStale(db, tenant, token);
            files.clearReleased(tenant);
            replicator.start(tenant, file, token);
            if (!slot.serve(db, fence)) {
                // lost while it was being acquired (the lease went): never serve it
                fence.close();
                throw new LostWhileAcquiring("tenant " + tenant + " epoch " + token
                        + " was lost while it was being acquired");
            }
            events.ownershipChanged(tenant, OwnershipChange.ACQUIRED);
            log.info("fleet {}: serving tenant {} at epoch {} ({}; queued {} ms, claim {} ms,"
                    + " files {} ms, open {} ms)", ownership.nodeId(), tenant, token,
                    replica == null ? "new" : "from epoch " + replica.epoch(),
                    Math.max(0, started - seen) / 1_000_000, (claimed - started) / 1_000_000,
                    (prepared - claimed) / 1_000_000, (System.nanoTime() - prepared) / 1_000_000);
            return null;
        } catch (RuntimeException | Error e) {
            if (db != null) {
                db.shutdownNow();
                FleetRuntime.awaitTerminated(db); // the next acquisition may replace its files
            }
            replicator.stop(tenant);
            try {
                ownership.release(tenant, token, null);
            } catch (RuntimeException giveBack) {
                e.addSuppressed(giveBack); // the key then lapses with this node's lease
            }
            throw e;
        }
    }

    /**
     * What claiming the tenant's key, or taking the key handed to this node, gave: the epoch's
     * token, the replica to restore from (null for a new tenant) and the lease the key is on; or
     * the owner when another node won the claim.
     */
    private record Epoch(long token, ReplicaRecord replica, LeaseHandle lease, OwnerRecord winner) {}

    private Epoch take(String tenant, long handedToken, long handedLease) {
        if (handedToken == 0) {
            Ownership.Claim claim = ownership.claim(tenant);
            return claim.won()
                    ? new Epoch(claim.owner().token(), claim.replica(), claim.lease(), null)
                    : new Epoch(0, null, null, claim.owner());
        }
        LeaseHandle lease = ownership.handle();
        if (lease.id() != handedLease) {
            throw new IllegalStateException("tenant " + tenant + " was handed to lease "
                    + handedLease + ", which this node no longer holds");
        }
        return new Epoch(handedToken, ownership.replicaOf(tenant).orElse(null), lease, null);
    }

    /**
     * Waits for the epoch's replica to hold the tenant, then records the epoch in etcd, so that
     * the next owner restores from it. Until then the previous epoch's replica is the one named.
     */
    void recordEpoch(TenantSlot slot) {
        String tenant = slot.tenant;
        long token = slot.token();
        long started = System.nanoTime();
        try {
            if (!replicator.awaitCaughtUp(tenant, slot.fence().lastChange(), RECORD_BOUND)) {
                throw new IllegalStateException("the replica of tenant " + tenant + " epoch "
                        + token + " did not catch up within " + RECORD_BOUND);
            }
            if (!ownership.recordReplica(tenant, token,
                    new ReplicaRecord(token, false, ownership.nodeId()))) {
                throw new IllegalStateException("tenant " + tenant + " epoch " + token
                        + " is no longer this node's");
            }
            slot.recorded.complete(null);
            replicator.recorded(tenant, token);
            log.info("fleet {}: tenant {} epoch {} recorded as the replica {} ms after serving",
                    ownership.nodeId(), tenant, token, (System.nanoTime() - started) / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            slot.recorded.completeExceptionally(e);
        } catch (RuntimeException e) {
            log.warn("fleet {}: recording tenant {} epoch {} failed: {}", ownership.nodeId(),
                    tenant, token, e.toString());
            slot.recorded.completeExceptionally(e);
        }
    }

    private Path prepare(String tenant, ReplicaRecord replica) {
        Path file = files.database(tenant);
        if (replica == null) {
            files.delete(tenant); // never placed, or its first owner died before replicating
            return file;
        }
        if (files.current(tenant, replica)) {
            return file;
        }
        Path target = files.restoreTarget(tenant);
        long started = System.nanoTime();
        if (!replicator.restore(tenant, replica.epoch(), target)) {
            throw new IllegalStateException("tenant " + tenant + ": etcd names epoch "
                    + replica.epoch() + " as its replica, but the object store holds none");
        }
        files.install(tenant, target);
        events.restored(tenant, System.nanoTime() - started);
        return file;
    }

    /** A copy that carries a larger token than ours was written by a newer owner: refuse it. */
    private static void checkNotStale(Database db, String tenant, long token) {
        List<Row> table = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
                TenantFence.TABLE);
        if (table.isEmpty()) {
            return;
        }
        List<Row> rows = db.query("SELECT token FROM " + TenantFence.TABLE + " WHERE id = 1");
        if (!rows.isEmpty() && rows.get(0).getLong("token") > token) {
            throw new IllegalStateException("tenant " + tenant + ": the copy carries token "
                    + rows.get(0).getLong("token") + ", newer than this epoch's " + token);
        }
    }
}
