package dev.lanes.fleet.internal;

import dev.lanes.fleet.ObjectStore;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Replicator} on Litestream 0.3: a node's tenants are spread over a few {@link
 * LitestreamShard}s (by tenant hash), each one {@code litestream replicate} process with a
 * managed configuration. A change of a shard's set restarts only that shard, and changes that
 * arrive together are applied in one restart per shard: {@code debounce} after the first change
 * marked it, or, when tenants {@linkplain #expect expected} on the shard were being acquired (a
 * failover's, a move's), as soon as they all are, but at most {@code hold} after that first
 * change. Shards restart in parallel: each waits for its Litestream to ship and exit.
 *
 * <p>Where a commit is: Litestream's metrics endpoint reports per database the number of syncs
 * (each copies new WAL frames into the shadow WAL), the shadow WAL's position and, once it
 * uploaded some, the replica's. {@link #awaitCaughtUp} waits as {@link ReplicaCatchUp} says:
 * enough syncs after the call for the shadow to hold every commit, then the replica (as the
 * process reports it, or as the store holds it while the process reports none) at the shadow's
 * end. A clean exit of a process proves nothing by itself: Litestream ships what it has when it
 * exits on SIGTERM, but only for the databases it had opened, which it does at its first sync, so
 * a process stopped right after it started may not have shipped a tenant it was given.
 *
 * <p>Restores read the replica in this process ({@link ReplicaRestore}); once an epoch is
 * recorded as a tenant's replica, its older epochs' objects are deleted in the background
 * ({@link ReplicaCleanup}).
 *
 * <p>Thread-safety: shards guard their own state; when to apply is decided on one scheduler
 * thread, and applying runs on a small pool.
 */
public final class LitestreamReplicator implements Replicator {
    private static final Logger log = LoggerFactory.getLogger(LitestreamReplicator.class);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int MAX_PARALLEL_RESTARTS = 8;

    private final ReplicaRestore restore;
    private final ReplicaCleanup cleanup;
    private final Duration debounce;
    private final Duration hold;
    private final List<LitestreamShard> shards = new ArrayList<>();
    private final Map<String, Path> replicated = new ConcurrentHashMap<>();
    /** Shards whose set changed since their last restart, with when (nanoTime) it first did. */
    private final Map<LitestreamShard, Long> dirty = new ConcurrentHashMap<>();
    /** Acquisitions under way per shard, whose start would restart it again. */
    private final Map<LitestreamShard, Integer> expected = new ConcurrentHashMap<>();
    private final ScheduledExecutorService applier;
    private final ExecutorService restarts;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();

    /**
     * @param binary the Litestream v0.3 binary
     * @param dir where configurations and logs go
     * @param store the object store
     * @param shardCount Litestream processes on this node
     * @param interval Litestream's monitor and sync intervals (the LOCAL recovery window's
     *     main part)
     * @param snapshotInterval how often Litestream snapshots each database (bounds a restore)
     * @param retention how long each replica keeps its snapshots and WAL
     * @param debounce how long changes gather before a shard restarts
     * @param hold how long a shard's restart may wait for tenants expected there
     */
    public LitestreamReplicator(Path binary, Path dir, ObjectStore store, int shardCount,
            Duration interval, Duration snapshotInterval, Duration retention, Duration debounce,
            Duration hold) {
        S3Client s3 = new S3Client(store);
        this.restore = new ReplicaRestore(s3, store.prefix());
        this.cleanup = new ReplicaCleanup(s3, restore);
        restore.warmUp();
        this.debounce = debounce;
        this.hold = hold;
        for (int i = 0; i < shardCount; i++) {
            shards.add(new LitestreamShard("litestream-" + i, binary, dir, store,
                    new LitestreamShard.Intervals(interval, snapshotInterval, retention),
                    http));
        }
        this.applier = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fleet-litestream");
            t.setDaemon(true);
            return t;
        });
        AtomicInteger n = new AtomicInteger();
        this.restarts = Executors.newFixedThreadPool(Math.min(shardCount, MAX_PARALLEL_RESTARTS),
                r -> {
                    Thread t = new Thread(r, "fleet-litestream-restart-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** The replica path of a tenant's epoch, inside the bucket. */
    String replicaPath(String tenant, long epoch) {
        return restore.tenantPrefix(tenant) + epoch;
    }

    private LitestreamShard shardOf(String tenant) {
        return shards.get(Math.floorMod(tenant.hashCode(), shards.size()));
    }

    @Override
    public Runnable expect(String tenant) {
        LitestreamShard shard = shardOf(tenant);
        expected.merge(shard, 1, Integer::sum);
        AtomicBoolean ended = new AtomicBoolean();
        return () -> {
            if (ended.compareAndSet(false, true)
                    && expected.computeIfPresent(shard, (s, c) -> c == 1 ? null : c - 1) == null
                    && dirty.containsKey(shard)) {
                later(shard, 0, true); // the last one expected came: no need to gather more
            }
        };
    }

    @Override
    public void start(String tenant, Path db, long epoch) {
        LitestreamShard shard = shardOf(tenant);
        shard.put(tenant, new LitestreamShard.Entry(db.toAbsolutePath(), replicaPath(tenant, epoch)));
        replicated.put(tenant, db.toAbsolutePath());
        markDirty(shard);
    }

    @Override
    public void stop(String tenant) {
        replicated.remove(tenant);
        LitestreamShard shard = shardOf(tenant);
        if (shard.remove(tenant)) {
            markDirty(shard);
        }
    }

    private void markDirty(LitestreamShard shard) {
        if (dirty.putIfAbsent(shard, System.nanoTime()) == null) {
            later(shard, debounce.toMillis(), false);
        }
    }

    private void later(LitestreamShard shard, long millis, boolean gathered) {
        try {
            applier.schedule(() -> applyWhenDue(shard, gathered), millis,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed: every shard stops
        }
    }

    /**
     * Restarts a changed shard, unless tenants expected there may still come within the hold, or,
     * unless {@code gathered} (the tenants expected all came), the debounce has not passed.
     */
    private void applyWhenDue(LitestreamShard shard, boolean gathered) {
        Long since = dirty.get(shard);
        if (since == null) {
            return; // applied already
        }
        long waited = System.nanoTime() - since;
        if (!gathered && waited < debounce.toNanos()) {
            later(shard, Math.max(1, (debounce.toNanos() - waited) / 1_000_000), false);
            return;
        }
        if (expected.containsKey(shard) && waited < hold.toNanos()) {
            later(shard, debounce.toMillis(), false);
            return;
        }
        dirty.remove(shard);
        restarts.execute(() -> {
            try {
                shard.apply();
            } catch (RuntimeException e) {
                log.error("fleet: restarting a Litestream shard failed", e);
            }
        });
    }

    @Override
    public boolean awaitCaughtUp(String tenant, long lastChange, Duration bound)
            throws InterruptedException {
        Path db = replicated.get(tenant);
        if (db == null) {
            return false;
        }
        String key = db.toString();
        LitestreamShard shard = shardOf(tenant);
        LitestreamShard.Entry entry = shard.entry(tenant);
        if (entry == null) {
            return false;
        }
        long deadline = System.nanoTime() + bound.toNanos();
        ReplicaCatchUp wait = new ReplicaCatchUp(db, entry.replicaPath(), lastChange, restore);
        while (System.nanoTime() - deadline < 0) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            LitestreamShard.Run run = shard.run();
            LitestreamMetrics m = dirty.containsKey(shard) ? null : shard.scrape();
            LitestreamMetrics.Position p = m == null ? null : m.of(key);
            if (p != null && run.count() == shard.run().count() && wait.caughtUp(run, p)) {
                return true;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return false;
    }

    @Override
    public boolean restore(String tenant, long epoch, Path target) {
        return restore.restore(tenant, epoch, target);
    }

    @Override
    public void recorded(String tenant, long epoch) {
        cleanup.olderThan(tenant, epoch);
    }

    @Override
    public long lagBytes() {
        // each shard is scraped once, and each tenant looked up in its own shard's scrape only;
        // no file is read
        Map<LitestreamShard, LitestreamMetrics> scrapes = new java.util.IdentityHashMap<>();
        long lag = 0;
        for (Map.Entry<String, Path> e : replicated.entrySet()) {
            LitestreamShard shard = shardOf(e.getKey());
            if (!scrapes.containsKey(shard)) {
                scrapes.put(shard, shard.scrape()); // null, kept, while no process answers
            }
            LitestreamMetrics m = scrapes.get(shard);
            LitestreamMetrics.Position p = m == null ? null : m.of(e.getValue().toString());
            // the shadow WAL's size and the replica's offset, both as of the same scrape
            if (p != null && p.replicaReported() && p.replicaIndex() == p.shadowIndex()) {
                lag += Math.max(0, p.shadowSize() - p.replicaOffset());
            }
        }
        return lag;
    }

    @Override
    public void close() {
        cleanup.close();
        applier.shutdownNow();
        restarts.shutdown();
        for (LitestreamShard shard : shards) {
            shard.close();
        }
    }
}
