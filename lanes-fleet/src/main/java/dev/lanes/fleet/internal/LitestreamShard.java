package dev.lanes.fleet.internal;

import dev.lanes.fleet.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code litestream replicate} process and its managed configuration: the tenants this shard
 * replicates, each to its epoch's prefix. Litestream 0.3 reads its configuration only at start
 * (SIGHUP ends it), so a change of the set restarts the process: SIGTERM (it ships what it has
 * and exits), then a new process on the new file. A database written while no process watched
 * it starts a new generation (a snapshot) when the next one starts; nothing is lost.
 *
 * <p>Thread-safety: the tenant set is guarded by one lock, the process by another (held through
 * a restart, so that changes to the set are not held up by one); scrapes read the current
 * process's port without either.
 */
final class LitestreamShard implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LitestreamShard.class);

    /** {@code $0} Litestream, {@code $1} its configuration, {@code $2} this JVM's pid. */
    private static final String WRAPPER = "\"$0\" replicate -config \"$1\" & c=$!;"
            + " ( while kill -0 $2 2>/dev/null && kill -0 $c 2>/dev/null; do sleep 1; done;"
            + " if ! kill -0 $2 2>/dev/null; then kill -TERM $c 2>/dev/null; sleep 30;"
            + " kill -KILL $c 2>/dev/null; kill -TERM $$ 2>/dev/null; fi ) & w=$!;"
            + " trap 'exit 143' TERM;"
            + " read -r _; kill -TERM $c 2>/dev/null; ( sleep 30; kill -KILL $c 2>/dev/null ) & k=$!;"
            + " wait $c; s=$?; kill $w $k 2>/dev/null; exit $s";

    /** A replicated database. */
    record Entry(Path db, String replicaPath) {}

    /**
     * Litestream's intervals: {@code sync} its monitor and sync intervals (how often new WAL is
     * shipped), {@code snapshot} how often each replica gets a new snapshot, {@code retention}
     * how long a replica keeps its snapshots and WAL (at least the snapshot interval).
     */
    record Intervals(Duration sync, Duration snapshot, Duration retention) {
        /** Litestream's default checkpoint interval. */
        private static final Duration CHECKPOINT = Duration.ofMinutes(1);
        /** Litestream's default retention check interval. */
        private static final Duration RETENTION_CHECK = Duration.ofHours(1);

        /**
         * How often Litestream checkpoints a database written since its last checkpoint, which
         * starts a new WAL index: a snapshot is keyed by the WAL index it is taken in (a later
         * one in the same index replaces it) and a restore replays its index from the start
         * (one index earlier, {@link LitestreamLayout#plan()}), so a restore reads the WAL of
         * about one snapshot and two checkpoint intervals. Never
         * longer than the snapshot interval; Litestream's default (1 min) beyond.
         */
        Duration checkpoint() {
            return snapshot.compareTo(CHECKPOINT) < 0 ? snapshot : CHECKPOINT;
        }

        /**
         * How often Litestream deletes what is past the retention: as often as the retention
         * itself when shorter than its default check (1 h), so that the store holds at most
         * about twice the retention.
         */
        Duration retentionCheck() {
            return retention.compareTo(RETENTION_CHECK) < 0 ? retention : RETENTION_CHECK;
        }
    }

    private final String name;
    private final Path binary;
    private final Path dir;
    private final ObjectStore store;
    private final Intervals intervals;
    private final HttpClient http;
    private final ReentrantLock lock = new ReentrantLock();
    private final ReentrantLock processLock = new ReentrantLock();
    // guarded by lock
    private final Map<String, Entry> tenants = new TreeMap<>();
    // guarded by processLock
    private Process process;
    private volatile int port;
    private volatile Run run = new Run(0, 0);

    LitestreamShard(String name, Path binary, Path dir, ObjectStore store, Intervals intervals,
            HttpClient http) {
        this.name = name;
        this.binary = binary;
        this.dir = dir;
        this.store = store;
        this.intervals = intervals;
        this.http = http;
    }

    /** Adds or replaces a tenant; {@link #apply()} restarts the process with it. */
    void put(String tenant, Entry entry) {
        lock.lock();
        try {
            tenants.put(tenant, entry);
        } finally {
            lock.unlock();
        }
    }

    /** The tenant's entry, or null. */
    Entry entry(String tenant) {
        lock.lock();
        try {
            return tenants.get(tenant);
        } finally {
            lock.unlock();
        }
    }

    /** Removes a tenant; {@link #apply()} restarts the process without it. */
    boolean remove(String tenant) {
        lock.lock();
        try {
            return tenants.remove(tenant) != null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A process start: how many there were (a waiter that saw another count saw another process)
     * and when ({@link System#nanoTime()}) this one was launched. Every sync of a process reads
     * the WAL after its launch, so it sees each commit that ended before it.
     */
    record Run(long count, long launched) {}

    /** The current (or last) process start. */
    Run run() {
        return run;
    }

    /** Restarts the process on the current set (or just stops it when the set is empty). */
    void apply() {
        processLock.lock();
        try {
            long asked = System.nanoTime();
            stopProcess();
            Map<String, Entry> set;
            lock.lock();
            try {
                set = Map.copyOf(tenants);
            } finally {
                lock.unlock();
            }
            if (!set.isEmpty()) {
                start(set, asked);
            }
        } finally {
            processLock.unlock();
        }
    }

    private void start(Map<String, Entry> set, long asked) {
        long stopped = System.nanoTime();
        int p = freePort();
        Path config = dir.resolve(name + ".yml");
        try {
            Files.createDirectories(dir);
            Files.writeString(config, yaml(p, set), StandardCharsets.UTF_8);
            // a shell between this JVM and Litestream ends Litestream (SIGTERM, then SIGKILL 30 s
            // later, should the store be unreachable for its last sync) when its standard input
            // ends, which is when this JVM closes it or dies, or when this JVM's process is gone
            // (a helper that inherited the pipe may keep it open): no replicator outlives its node
            process = new ProcessBuilder("sh", "-c", WRAPPER, binary.toString(),
                    config.toString(), Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve(name + ".log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Litestream for " + name, e);
        }
        port = p;
        run = new Run(run.count() + 1, stopped);
        log.info("fleet: Litestream {} started for {} tenants ({} ms to stop the previous"
                + " process, {} ms to start)", name, set.size(), (stopped - asked) / 1_000_000,
                (System.nanoTime() - stopped) / 1_000_000);
    }

    /** The current process's metrics, or null while none answers. */
    LitestreamMetrics scrape() {
        int p = port;
        if (p == 0) {
            return null;
        }
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + p + "/metrics"))
                    .timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? LitestreamMetrics.parse(r.body()) : null;
        } catch (IOException e) {
            return null; // starting or restarting
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    String yaml(int metricsPort, Map<String, Entry> set) {
        List<String> y = new ArrayList<>();
        y.add("addr: \"127.0.0.1:" + metricsPort + "\"");
        y.add("logging:");
        y.add("  level: warn");
        y.add("access-key-id: " + store.accessKeyId());
        y.add("secret-access-key: " + store.secretAccessKey());
        y.add("dbs:");
        for (Entry e : set.values()) {
            y.add("  - path: " + e.db().toAbsolutePath());
            y.add("    monitor-interval: " + intervals.sync().toMillis() + "ms");
            y.add("    checkpoint-interval: " + intervals.checkpoint().toMillis() + "ms");
            y.add("    replicas:");
            y.add("      - type: s3");
            y.add("        bucket: " + store.bucket());
            y.add("        path: " + e.replicaPath());
            y.add("        region: " + store.region());
            if (store.endpoint() != null) {
                y.add("        endpoint: " + store.endpoint());
                y.add("        force-path-style: true");
            }
            y.add("        sync-interval: " + intervals.sync().toMillis() + "ms");
            // the retention is never shorter than the snapshot interval, so it never has to
            // force a snapshot of its own
            y.add("        snapshot-interval: " + intervals.snapshot().toMillis() + "ms");
            y.add("        retention: " + intervals.retention().toMillis() + "ms");
            y.add("        retention-check-interval: " + intervals.retentionCheck().toMillis()
                    + "ms");
        }
        y.add("");
        return String.join("\n", y);
    }

    /** Stops the process, if any: SIGTERM, then a kill if it does not exit. */
    private void stopProcess() {
        Process p = process;
        if (p == null) {
            return;
        }
        process = null;
        port = 0;
        try {
            p.getOutputStream().close(); // the shell sends SIGTERM: Litestream ships, then exits
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                log.warn("fleet: Litestream {} did not exit within 15 s of SIGTERM; killing it",
                        name);
                kill(p);
            }
        } catch (IOException e) {
            kill(p);
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
        }
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the process (it ships what it has first). */
    @Override
    public void close() {
        lock.lock();
        try {
            tenants.clear();
        } finally {
            lock.unlock();
        }
        processLock.lock();
        try {
            stopProcess();
        } finally {
            processLock.unlock();
        }
    }
}
