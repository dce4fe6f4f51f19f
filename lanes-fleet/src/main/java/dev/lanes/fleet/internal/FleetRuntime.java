package dev.lanes.fleet.internal;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.WriteOutcome;
import dev.lanes.fleet.FleetStatus;
import dev.lanes.fleet.Member;
import dev.lanes.fleet.NotOwnerException;
import dev.lanes.fleet.OwnershipChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of a fleet: the tenants it serves (a {@link TenantSlot} each), what it learns from
 * the ownership map, and the requests it routes. A tenant is a local {@link Database} plus the
 * services behind small interfaces: {@link Ownership} (who may write it, the fencing token),
 * {@link Replicator} (its copy in object storage).
 *
 * <ul>
 *   <li>{@link #database}: the local database when this node serves the tenant; waits while it
 *       is being acquired or moved away; claims it when nobody owns it and placement gives it to
 *       this node; else {@link NotOwnerException} naming the node to ask.
 *   <li>Failover: when an owner key is deleted (its node's lease expired), the node that
 *       placement now picks acquires the tenant at once, on the worker pool, in parallel with the
 *       others.
 *   <li>Hand-over: a key written for this node and its current lease is acquired at once.
 *   <li>A key that vanishes under a served tenant, or a lost lease, ends the tenant here: its
 *       fence refuses every later commit, and a commit in flight ends unknown.
 *   <li>Rebalance: when a node joins, tenants placement gives it are moved there, a few at a
 *       time.
 * </ul>
 *
 * <p>Thread-safety: the slot map is concurrent and a slot's state changes by compare-and-set;
 * the ownership listener runs on the watch thread and only hands work to the pool.
 */
public final class FleetRuntime implements Ownership.Listener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FleetRuntime.class);
    private static final int PARALLEL_MOVES = 4;
    /** How many times a leaving node tries to hand a tenant over before it gives it up. */
    private static final int CLOSE_ROUNDS = 3;
    /** How long after a change of its owner key a tenant's owner is read from etcd itself. */
    private static final long RECENT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final FleetSettings settings;
    private final Ownership ownership;
    private final Replicator replicator;
    private final Map<String, TenantSlot> slots = new ConcurrentHashMap<>();
    private final ExecutorService workers;
    private final TenantAcquirer acquirer;
    private final TenantMover mover;
    private final Semaphore moves = new Semaphore(PARALLEL_MOVES);
    private final FleetEvents events;
    private final Set<String> knownNodes = ConcurrentHashMap.newKeySet();
    /**
     * Every node's address as last registered: a leaving node deletes its registration before it
     * hands its tenants over, and serves them meanwhile, so requests are still sent there.
     */
    private final Map<String, String> addresses = new ConcurrentHashMap<>();
    /** When each tenant's owner key last changed, kept a little past {@link #RECENT_NANOS}. */
    private final Map<String, Long> recent = new ConcurrentHashMap<>();
    private volatile boolean closing;

    public FleetRuntime(FleetSettings settings, Ownership ownership, Replicator replicator,
            FleetEvents events) {
        this.settings = settings;
        this.events = events;
        this.ownership = ownership;
        this.replicator = replicator;
        TenantFiles files = new TenantFiles(settings.dataDirectory());
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(settings.workers(), r -> {
            Thread t = new Thread(r, "fleet-worker-" + settings.nodeId() + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.acquirer = new TenantAcquirer(settings, ownership, replicator, files, slots,
                events, slot -> workers.execute(() -> revalidate(slot)));
        this.mover = new TenantMover(settings, ownership, replicator, files, slots, events);
    }

    /** Joins the fleet: registers, loads and watches the ownership map. */
    public void start() {
        ownership.start(this);
    }

    public String nodeId() {
        return ownership.nodeId();
    }

    /** The local database of {@code tenant}; see the class comment. */
    public Database database(String tenant) {
        return slotFor(tenant).db();
    }

    /** The serving slot of {@code tenant}, acquiring it if this node should. */
    TenantSlot slotFor(String tenant) {
        if (!TenantFiles.validName(tenant)) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, "not a tenant name: '"
                    + tenant + "' (letters, digits, '.', '_' and '-', at most 128, no leading dot)",
                    null);
        }
        long deadline = System.nanoTime() + settings.acquireTimeout().toNanos();
        while (true) {
            TenantSlot slot = slots.get(tenant);
            if (slot == null) {
                claimIfPlacedHere(tenant, deadline);
            } else if (serving(slot, deadline, tenant)) {
                return slot;
            }
        }
    }

    /**
     * True when {@code slot} serves; otherwise waits until its acquisition, move or end is over
     * (or the deadline passes), and the caller looks again.
     */
    private boolean serving(TenantSlot slot, long deadline, String tenant) {
        switch (slot.state()) {
            case SERVING:
                if (slot.db().state() == dev.lanes.DatabaseState.DEAD) {
                    lost(slot, "its database is dead (" + slot.db().whenTerminated()
                            .getNow(null) + ")");
                    return false;
                }
                return true;
            case ACQUIRING:
                try {
                    await(slot.ready, deadline, tenant);
                } catch (LanesException e) {
                    claimAgainOrThrow(e, deadline);
                }
                return false;
            case MOVING:
                long hold = System.nanoTime() + settings.moveHold().toNanos();
                await(slot.gone, Math.min(deadline, hold), tenant);
                return false;
            default:
                // ended; a lost acquisition may still be cleaning up its files
                await(slot.settled, deadline, tenant);
                slots.remove(tenant, slot);
                return false;
        }
    }

    /**
     * Acquires {@code tenant}, which no slot of this node holds, when etcd names this node its
     * owner or it has none and placement gives it here, and waits for it; otherwise throws
     * {@link dev.lanes.fleet.NotOwnerException}. The caller then looks at the slots again.
     */
    private void claimIfPlacedHere(String tenant, long deadline) {
        Optional<OwnerRecord> owner = ownership.ownerOf(tenant);
        if (owner.isPresent() && (mine(owner.get()) || recentlyChanged(tenant))) {
            // the watch may lag a hand-over or a move: ask etcd itself
            owner = readOwner(tenant);
            if (owner.isPresent() && mine(owner.get())) {
                TenantSlot handed = acquire(tenant, owner.get().token(),
                        owner.get().lease(), System.nanoTime());
                if (handed != null) {
                    await(handed.ready, deadline, tenant);
                }
                return;
            }
        }
        if (owner.isPresent()) {
            throw notOwner(tenant, owner.get().node(), "tenant " + tenant
                    + " is owned by node " + owner.get().node());
        }
        String placed = place(tenant);
        if (closing) {
            throw notOwner(tenant, placed.equals(nodeId()) ? null : placed, "tenant " + tenant
                    + " has no owner, and node " + nodeId() + " is leaving the fleet");
        }
        if (!placed.equals(nodeId())) {
            throw notOwner(tenant, placed, "tenant " + tenant + " has no owner; placement"
                    + " gives it to node " + placed);
        }
        try {
            TenantSlot mineNow = acquire(tenant, 0, 0, System.nanoTime());
            if (mineNow != null) {
                await(mineNow.ready, deadline, tenant);
            }
        } catch (LanesException e) {
            claimAgainOrThrow(e, deadline);
        }
    }

    /**
     * Returns (the caller claims the tenant again) when {@code e} says the epoch was lost while
     * it was being acquired, because this node's lease lapsed, and time is left; else throws it.
     */
    private static void claimAgainOrThrow(LanesException e, long deadline) {
        if (!(e.getCause() instanceof TenantAcquirer.LostWhileAcquiring)
                || System.nanoTime() - deadline >= 0) {
            throw e;
        }
    }

    /**
     * Starts acquiring {@code tenant} on the calling thread unless a slot exists.
     *
     * @param seen when this node learned it should take the tenant (nanoTime)
     * @return the slot being acquired or served, or null when another node won the claim
     */
    private TenantSlot acquire(String tenant, long handedToken, long handedLease, long seen) {
        Runnable ended = replicator.expect(tenant);
        try {
            return acquireExpected(tenant, handedToken, handedLease, seen);
        } finally {
            ended.run();
        }
    }

    private TenantSlot acquireExpected(String tenant, long handedToken, long handedLease,
            long seen) {
        TenantSlot slot = new TenantSlot(tenant);
        TenantSlot existing;
        while ((existing = slots.putIfAbsent(tenant, slot)) != null) {
            if (existing.state() != TenantSlot.State.GONE) {
                return existing;
            }
            // a lost acquisition still cleaning up: its files are not free yet
            await(existing.settled, System.nanoTime() + settings.acquireTimeout().toNanos(),
                    tenant);
            slots.remove(tenant, existing);
        }
        try {
            OwnerRecord other = acquirer.acquire(slot, handedToken, handedLease, seen);
            if (other != null) {
                slots.remove(tenant, slot);
                slot.end(false, notOwner(tenant, other.node(), "tenant " + tenant
                        + " was claimed by node " + other.node()));
                slot.settled.complete(null);
                return null;
            }
            slot.settled.complete(null);
        } catch (RuntimeException | Error e) {
            Throwable failure = e instanceof LanesException ? e : new OverloadedException(
                    "tenant " + tenant + " could not be acquired on node " + nodeId() + ": " + e, e);
            slots.remove(tenant, slot);
            slot.end(false, failure);
            slot.settled.complete(null);
            log.warn("fleet {}: acquiring tenant {} failed: {}", nodeId(), tenant, e.toString());
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
        workers.execute(() -> acquirer.recordEpoch(slot));
        return slot;
    }

    private Optional<OwnerRecord> readOwner(String tenant) {
        try {
            return ownership.readOwner(tenant);
        } catch (RuntimeException e) {
            throw new OverloadedException("etcd did not say who owns tenant " + tenant + ": " + e,
                    e);
        }
    }

    /** Whether the tenant's owner key changed within the last {@link #RECENT_NANOS}. */
    private boolean recentlyChanged(String tenant) {
        Long at = recent.get(tenant);
        return at != null && System.nanoTime() - at < RECENT_NANOS;
    }

    private void noteChange(String tenant) {
        long now = System.nanoTime();
        recent.put(tenant, now);
        if (recent.size() > 4096) {
            recent.values().removeIf(t -> now - t > RECENT_NANOS);
        }
    }

    /**
     * Acquires {@code tenant} on the worker pool; the replicator expects it from now on, so a
     * burst of them waiting for workers shares its restarts.
     */
    private void acquireInBackground(String tenant, long handedToken, long handedLease) {
        long seen = System.nanoTime();
        Runnable ended = replicator.expect(tenant);
        try {
            workers.execute(() -> {
                try {
                    if (!closing) {
                        acquire(tenant, handedToken, handedLease, seen);
                    }
                } catch (RuntimeException e) {
                    // logged by acquire; a request for the tenant tries again
                } finally {
                    ended.run();
                }
            });
        } catch (RejectedExecutionException e) {
            ended.run(); // closed
        }
    }

    private boolean mine(OwnerRecord owner) {
        return owner.node().equals(nodeId()) && owner.lease() == ownership.lease();
    }

    /** The live node placement gives {@code tenant} to, never {@code except} unless alone. */
    private String place(String tenant, String except) {
        Set<String> live = new HashSet<>(ownership.liveNodes().keySet());
        live.add(nodeId());
        if (closing) {
            live.remove(nodeId());
        }
        if (except != null) {
            live.remove(except);
        }
        return Placement.pick(tenant, live).orElse(nodeId());
    }

    private String place(String tenant) {
        return place(tenant, null);
    }

    @Override
    public void ownerChanged(String tenant, OwnerRecord before, OwnerRecord after) {
        noteChange(tenant);
        TenantSlot slot = slots.get(tenant);
        if (after == null) {
            if (slot != null && slot.state() != TenantSlot.State.ACQUIRING && before != null
                    && before.token() == slot.token()) {
                workers.execute(() -> lost(slot, "its owner key was deleted"));
            } else if (slot == null && !closing
                    && place(tenant, before == null ? null : before.node()).equals(nodeId())) {
                acquireInBackground(tenant, 0, 0);
            }
        } else if (mine(after)) {
            if (slot == null && !closing) {
                acquireInBackground(tenant, after.token(), after.lease());
            }
        } else if (slot != null && slot.state() == TenantSlot.State.SERVING
                && slot.token() != after.token()) {
            workers.execute(() -> lost(slot, "node " + after.node() + " owns it now"));
        }
    }

    @Override
    public void nodesChanged(Map<String, NodeRecord> live) {
        live.values().forEach(n -> addresses.put(n.id(), n.address()));
        boolean joined = false;
        for (String id : live.keySet()) {
            joined |= knownNodes.add(id);
        }
        knownNodes.retainAll(live.keySet());
        if (joined && settings.autoRebalance() && !closing) {
            workers.execute(this::rebalance);
        }
    }

    @Override
    public void leaseLost() {
        for (TenantSlot slot : List.copyOf(slots.values())) {
            lost(slot, "this node's lease expired");
        }
    }

    /** The tenant is no longer this node's: refuse its commits and let it go. */
    private void lost(TenantSlot slot, String why) {
        if (slot.state() == TenantSlot.State.GONE) {
            return;
        }
        log.warn("fleet {}: tenant {} epoch {} lost: {}", nodeId(), slot.tenant, slot.token(),
                why);
        if (slot.abandon()) {
            // being acquired: its thread will not serve it, and cleans up and ends the slot
            // itself (until then the slot stays, so no other acquisition touches the files)
            events.ownershipChanged(slot.tenant, OwnershipChange.LOST);
            return;
        }
        TenantFence fence = slot.fence();
        if (fence != null) {
            fence.close();
        }
        Database db = slot.db();
        if (db != null) {
            db.shutdownNow();
            awaitTerminated(db); // its files may be replaced by the next acquisition
        }
        replicator.stop(slot.tenant);
        slots.remove(slot.tenant, slot);
        events.ownershipChanged(slot.tenant, OwnershipChange.LOST);
        slot.end(false, null);
    }

    /**
     * A commit of the tenant ended past the lease's deadline (its outcome unknown, its writer
     * refusing writes): if etcd still holds this epoch's key for this node's lease, the epoch
     * goes on and the database is reopened; otherwise the tenant is lost.
     */
    private void revalidate(TenantSlot slot) {
        Optional<OwnerRecord> owner;
        try {
            owner = ownership.readOwner(slot.tenant);
        } catch (RuntimeException e) {
            lost(slot, "a commit ended past the lease's deadline and etcd did not answer");
            return;
        }
        if (owner.isPresent() && owner.get().token() == slot.token() && mine(owner.get())) {
            mover.reopenAfterLapse(slot);
        } else {
            lost(slot, "a commit ended past the lease's deadline, and the key is gone");
        }
    }

    static void awaitTerminated(Database db) {
        try {
            db.whenTerminated().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("fleet: {} did not end within 30 s: {}", db.path(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Moves every served tenant that placement gives to another live node, a few at a time. */
    public void rebalance() {
        List<CompletableFuture<Boolean>> pending = new ArrayList<>();
        for (TenantSlot slot : List.copyOf(slots.values())) {
            if (slot.state() != TenantSlot.State.SERVING) {
                continue;
            }
            String target = place(slot.tenant);
            NodeRecord to = ownership.liveNodes().get(target);
            if (!target.equals(nodeId()) && to != null) {
                pending.add(moveAsync(slot, to));
            }
        }
        pending.forEach(CompletableFuture::join);
    }

    /**
     * Moves {@code tenant} to node {@code to} (null: release it) and waits for the outcome.
     *
     * @return whether it left this node cleanly
     */
    public boolean move(String tenant, String to) {
        TenantSlot slot = slots.get(tenant);
        if (slot == null || slot.state() != TenantSlot.State.SERVING) {
            return false;
        }
        NodeRecord target = null;
        if (to != null) {
            target = ownership.liveNodes().get(to);
            if (target == null || to.equals(nodeId())) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, "node " + to
                        + " is not another live node of the fleet", null);
            }
        }
        return moveAsync(slot, target).join();
    }

    private CompletableFuture<Boolean> moveAsync(TenantSlot slot, NodeRecord to) {
        return CompletableFuture.supplyAsync(() -> {
            moves.acquireUninterruptibly();
            try {
                return mover.move(slot, to);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (RuntimeException e) {
                log.warn("fleet {}: moving tenant {} failed: {}", nodeId(), slot.tenant,
                        e.toString());
                return false;
            } finally {
                moves.release();
            }
        }, workers);
    }

    /** Who owns {@code tenant}, as the watched map shows it. */
    public Optional<Member> ownerOf(String tenant) {
        return ownership.ownerOf(tenant).map(o -> member(o.node()));
    }

    /** The live nodes. */
    public List<Member> members() {
        return ownership.liveNodes().values().stream()
                .map(n -> new Member(n.id(), n.address())).toList();
    }

    /** The tenants this node serves. */
    public Set<String> tenants() {
        Set<String> out = new HashSet<>();
        slots.forEach((t, s) -> {
            if (s.state() == TenantSlot.State.SERVING) {
                out.add(t);
            }
        });
        return out;
    }

    public FleetStatus status() {
        return new FleetStatus(member(nodeId()), ownership.lease(),
                Duration.ofNanos(Math.max(0, ownership.clock().remainingNanos())),
                tenants().size(), ownership.liveNodes().size(), replicator.lagBytes(),
                events.ownershipChanges(), events.restores(), events.commitRefusals());
    }

    /** The node {@code id} as a member of the fleet (its address as last known). */
    public Member member(String id) {
        NodeRecord n = ownership.liveNodes().get(id);
        return new Member(id, n != null ? n.address() : addresses.getOrDefault(id, ""));
    }

    private NotOwnerException notOwner(String tenant, String node, String message) {
        return new NotOwnerException(tenant, node == null ? null : member(node), message);
    }

    private void await(CompletableFuture<?> f, long deadline, String tenant) {
        try {
            f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LanesException le) {
                throw le;
            }
            throw new OverloadedException("tenant " + tenant + " could not be acquired: "
                    + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new OverloadedException("tenant " + tenant + " was not ready within "
                    + settings.acquireTimeout(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OverloadedException("interrupted while waiting for tenant " + tenant, e);
        }
    }

    /**
     * Leaves the fleet: hands every served tenant to the node placement picks among the others
     * (or releases it when none is left), trying a tenant whose move could not finish again up
     * to {@value #CLOSE_ROUNDS} times in all, then stops replicating and revokes the lease.
     */
    @Override
    public void close() {
        closing = true;
        try {
            try {
                ownership.leave();
            } catch (RuntimeException e) {
                log.warn("fleet {}: leaving the node list failed ({}); handing over anyway",
                        nodeId(), e.toString());
            }
            // a move that could not finish (its replica did not catch up in time) left the
            // tenant serving here: try it again, a few times, before giving it up
            for (int round = 0; round < CLOSE_ROUNDS; round++) {
                List<CompletableFuture<Boolean>> pending = new ArrayList<>();
                for (TenantSlot slot : List.copyOf(slots.values())) {
                    if (slot.state() == TenantSlot.State.SERVING) {
                        NodeRecord to = ownership.liveNodes().get(place(slot.tenant));
                        pending.add(moveAsync(slot,
                                to == null || to.id().equals(nodeId()) ? null : to));
                    }
                }
                if (pending.isEmpty()) {
                    break;
                }
                pending.forEach(CompletableFuture::join);
            }
            for (TenantSlot slot : List.copyOf(slots.values())) {
                lost(slot, "this node is leaving the fleet");
            }
        } finally {
            workers.shutdownNow();
            replicator.close();
            ownership.close();
        }
    }
}
