package dev.lanes.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.fleet.Durability;
import dev.lanes.fleet.FleetListener;
import dev.lanes.fleet.OwnershipChange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant whose epoch is lost while this node is still acquiring it (the lease expires during
 * the restore): a request that arrives meanwhile does not start a second acquisition into the
 * same files; it waits until the lost one has cleaned up, then the tenant is claimed afresh under
 * the new lease, the lost epoch is never served, and neither request fails. The fleet's listeners
 * hear each tenant acquired, restored, lost and released, and one that throws stops none of it.
 * A hand-over that etcd refuses (the target's lease is gone) leaves the tenant serving here, its
 * replication of the same epoch going on.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LostAcquisitionTest {
    @TempDir Path dir;

    @Test
    void aRequestDuringALostAcquisitionWaitsForItAndNeverRestoresConcurrently() throws Exception {
        InMemoryOwnership ownership = new InMemoryOwnership("n1");
        BlockingReplicator replicator = new BlockingReplicator();
        try (Lanes lanes = Lanes.create()) {
            FleetSettings settings = new FleetSettings("n1", dir, lanes,
                    DatabaseOptions.builder().build(), Durability.LOCAL, Duration.ofSeconds(10),
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(2), false, 4);
            RecordingListener events = new RecordingListener();
            try (FleetRuntime runtime = new FleetRuntime(settings, ownership, replicator,
                    new FleetEvents(List.of(events)))) {
                runtime.start();
                CompletableFuture<Database> first = CompletableFuture.supplyAsync(
                        () -> runtime.database("t"));
                assertThat(replicator.restoring.await(20, TimeUnit.SECONDS)).isTrue();

                ownership.loseLease(); // the lease expires while the first restore runs
                runtime.leaseLost();
                CompletableFuture<Database> second = new CompletableFuture<>();
                Thread requester = new Thread(() -> {
                    try {
                        second.complete(runtime.database("t"));
                    } catch (RuntimeException e) {
                        second.completeExceptionally(e);
                    }
                }, "second-request");
                requester.start();
                // the second request either claims again (and restores beside the first) or
                // waits for the lost acquisition: see which before the first restore ends
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (ownership.claims.get() < 2 && !waitingInFleet(requester)
                        && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
                assertThat(ownership.claims.get()).as("claims while the lost restore runs")
                        .isEqualTo(1);
                replicator.release.countDown();

                // the first request claims the tenant again under the new lease, or finds the
                // second's claim: both are served by the new epoch
                Database db = second.get(20, TimeUnit.SECONDS);
                assertThat(first.get(20, TimeUnit.SECONDS).path()).isEqualTo(db.path());
                db.execute("CREATE TABLE w (id INTEGER PRIMARY KEY)");
                db.execute("INSERT INTO w (id) VALUES (1)");
                assertThat(db.query("SELECT token FROM lanes_fleet_fence").get(0)
                        .getLong("token")).isEqualTo(ownership.lastToken.get());
                assertThat(replicator.maxConcurrentRestores.get()).isEqualTo(1);
                assertThat(replicator.restores.get()).isEqualTo(2);
                assertThat(runtime.tenants()).containsExactly("t");
                assertThat(events.changes).as("the lost epoch, then the new one")
                        .containsExactly("t LOST", "t ACQUIRED");
                assertThat(events.restores).containsExactly("t", "t");
                assertThat(runtime.status().ownershipChanges()).isEqualTo(2);
                assertThat(runtime.status().restores()).isEqualTo(2);
            }
        }
    }

    @Test
    void listenersHearATenantAcquiredRestoredAndReleased() {
        InMemoryOwnership ownership = new InMemoryOwnership("n1");
        BlockingReplicator replicator = new BlockingReplicator();
        replicator.release.countDown();
        try (Lanes lanes = Lanes.create()) {
            FleetSettings settings = new FleetSettings("n1", dir, lanes,
                    DatabaseOptions.builder().build(), Durability.LOCAL, Duration.ofSeconds(10),
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(2), false, 4);
            RecordingListener events = new RecordingListener();
            try (FleetRuntime runtime = new FleetRuntime(settings, ownership, replicator,
                    new FleetEvents(List.of(new FleetListener() {
                        @Override
                        public void ownershipChanged(String tenant, OwnershipChange change) {
                            throw new IllegalStateException("a broken listener");
                        }
                    }, events)))) {
                runtime.start();
                runtime.database("t").execute("CREATE TABLE w (id INTEGER PRIMARY KEY)");
                assertThat(events.changes).containsExactly("t ACQUIRED");
                assertThat(events.restores).containsExactly("t");

                assertThat(runtime.move("t", null)).as("released: no other node").isTrue();
                assertThat(events.changes).containsExactly("t ACQUIRED", "t RELEASED");
                assertThat(ownership.ownerOf("t")).isEmpty();
            }
        }
    }

    @Test
    void aHandOverTheTargetsLeaseRefusedKeepsTheTenantServingAndReplicatedHere() {
        InMemoryOwnership ownership = new InMemoryOwnership("n1");
        BlockingReplicator replicator = new BlockingReplicator();
        replicator.release.countDown();
        try (Lanes lanes = Lanes.create()) {
            FleetSettings settings = new FleetSettings("n1", dir, lanes,
                    DatabaseOptions.builder().build(), Durability.LOCAL, Duration.ofSeconds(10),
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(2), false, 4);
            try (FleetRuntime runtime = new FleetRuntime(settings, ownership, replicator,
                    new FleetEvents(List.of()))) {
                runtime.start();
                runtime.database("t").execute("CREATE TABLE w (id INTEGER PRIMARY KEY)");
                long token = ownership.lastToken.get();
                ownership.others.put("n2", new NodeRecord("n2", "", 99)); // etcd: lease gone

                assertThat(runtime.move("t", "n2")).as("refused: the target's lease is gone")
                        .isFalse();
                assertThat(replicator.calls).as("replication of the same epoch goes on through"
                        + " the refused hand-over").containsExactly("start t " + token);
                Database db = runtime.database("t");
                db.execute("INSERT INTO w (id) VALUES (1)");
                assertThat(db.query("SELECT token FROM lanes_fleet_fence").get(0)
                        .getLong("token")).isEqualTo(token);
                assertThat(runtime.tenants()).containsExactly("t");
            }
        }
    }

    /** What the fleet told its listener, in order. */
    private static final class RecordingListener implements FleetListener {
        final List<String> changes = new CopyOnWriteArrayList<>();
        final List<String> restores = new CopyOnWriteArrayList<>();

        @Override
        public void ownershipChanged(String tenant, OwnershipChange change) {
            changes.add(tenant + " " + change);
        }

        @Override
        public void restored(String tenant, Duration took) {
            restores.add(took.isNegative() || took.isZero() ? tenant + " in no time" : tenant);
        }
    }

    /** Whether {@code t} is parked waiting for a tenant inside the fleet runtime. */
    private static boolean waitingInFleet(Thread t) {
        Thread.State state = t.getState();
        if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(FleetRuntime.class.getName())
                    && e.getMethodName().equals("await")) {
                return true;
            }
        }
        return false;
    }

    /** Restores write an empty database; the first one waits until released. */
    private static final class BlockingReplicator implements Replicator {
        final CountDownLatch restoring = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger restores = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxConcurrentRestores = new AtomicInteger();

        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void start(String tenant, Path db, long epoch) {
            calls.add("start " + tenant + " " + epoch);
        }

        @Override
        public boolean awaitCaughtUp(String tenant, long lastChange, Duration bound) {
            return true;
        }

        @Override
        public void stop(String tenant) {
            calls.add("stop " + tenant);
        }

        @Override
        public boolean restore(String tenant, long epoch, Path target) {
            int now = running.incrementAndGet();
            maxConcurrentRestores.accumulateAndGet(now, Math::max);
            try {
                if (restores.incrementAndGet() == 1) {
                    restoring.countDown();
                    release.await(30, TimeUnit.SECONDS);
                }
                Files.createFile(target);
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                running.decrementAndGet();
            }
        }

        @Override
        public long lagBytes() {
            return 0;
        }

        @Override
        public void close() {}
    }

    /**
     * One node's view of an ownership store held in memory: every claim of an absent key wins
     * with the next revision; a replica of epoch 1 exists, so every acquisition restores.
     */
    private static final class InMemoryOwnership implements Ownership {
        final AtomicInteger claims = new AtomicInteger();
        final AtomicLong lastToken = new AtomicLong();
        /** Other nodes the fleet names live. */
        final Map<String, NodeRecord> others = new ConcurrentHashMap<>();
        private final String node;
        private final AtomicLong revision = new AtomicLong(1);
        private final Map<String, OwnerRecord> owners = new ConcurrentHashMap<>();
        private volatile LeaseHandle lease;

        InMemoryOwnership(String node) {
            this.node = node;
            this.lease = newLease(1);
        }

        private static LeaseHandle newLease(long id) {
            LeaseClock clock = new LeaseClock(0);
            clock.renewed(System.nanoTime(), 600);
            return new LeaseHandle(id, clock);
        }

        /** The lease expires: its keys go, and a new lease replaces it. */
        synchronized void loseLease() {
            lease.clock().lose();
            long old = lease.id();
            owners.values().removeIf(o -> o.lease() == old);
            lease = newLease(old + 1);
        }

        @Override
        public void start(Listener listener) {}

        @Override
        public String nodeId() {
            return node;
        }

        @Override
        public long lease() {
            return lease.id();
        }

        @Override
        public LeaseHandle handle() {
            return lease;
        }

        @Override
        public Optional<OwnerRecord> ownerOf(String tenant) {
            return Optional.ofNullable(owners.get(tenant));
        }

        @Override
        public Optional<OwnerRecord> readOwner(String tenant) {
            return ownerOf(tenant);
        }

        @Override
        public Collection<OwnerRecord> owners() {
            return List.copyOf(owners.values());
        }

        @Override
        public Map<String, NodeRecord> liveNodes() {
            Map<String, NodeRecord> live = new java.util.HashMap<>(others);
            live.put(node, new NodeRecord(node, "", lease.id()));
            return live;
        }

        @Override
        public synchronized Claim claim(String tenant) {
            claims.incrementAndGet();
            LeaseHandle h = lease;
            OwnerRecord mine = new OwnerRecord(tenant, node, revision.incrementAndGet(), h.id());
            OwnerRecord other = owners.putIfAbsent(tenant, mine);
            ReplicaRecord replica = new ReplicaRecord(1, false, "n0");
            if (other != null) {
                return new Claim(false, other, replica, h);
            }
            lastToken.set(mine.token());
            return new Claim(true, mine, replica, h);
        }

        @Override
        public boolean recordReplica(String tenant, long token, ReplicaRecord record) {
            OwnerRecord o = owners.get(tenant);
            return o != null && o.token() == token;
        }

        @Override
        public boolean handOver(String tenant, long token, NodeRecord to, ReplicaRecord record) {
            return false;
        }

        @Override
        public synchronized boolean release(String tenant, long token, ReplicaRecord record) {
            OwnerRecord o = owners.get(tenant);
            return o != null && o.token() == token && owners.remove(tenant, o);
        }

        @Override
        public Optional<ReplicaRecord> replicaOf(String tenant) {
            return Optional.of(new ReplicaRecord(1, false, "n0"));
        }

        @Override
        public void leave() {}

        @Override
        public void close() {}
    }
}
