package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 5,000 databases on a pool of 8 threads, with a connection budget sized to the
 * process's file-descriptor limit.
 */
@Tag("slow") // scale: 5,000 databases
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScaleTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    /**
     * Thousands of databases close at once on a few threads; on a loaded 2-core machine that
     * takes longer than one database's default close timeout, which is not what is tested here.
     */
    private static final DatabaseOptions MANY_CLOSE = DatabaseOptions.builder()
            .closeTimeout(Duration.ofSeconds(60)).build();

    private static final int DATABASES = 5_000;
    private static final int THREADS = 8;
    /** Databases written concurrently: each gets two writeAsync, then the batch is joined. */
    private static final int BATCH = 250;
    /** A directory's leases cost at most this many descriptors ({@link Lanes#open}). */
    private static final int LEASE_FILES = 256;

    @Test
    void fiveThousandDatabasesOnEightThreadsWithinTheConnectionBudget() throws Exception {
        long limit = openFileLimit();
        int baseline = openFileDescriptors();
        // The leases of one directory share at most LEASE_FILES lock files, each open once,
        // whether or not a database has a connection; each SQLite connection in WAL mode holds
        // three descriptors (file, -wal, -shm). Size the budget so that all of it, with a margin,
        // fits under the limit.
        long reserve = 1_000;
        long forConnections = limit - baseline - LEASE_FILES - reserve;
        assumeThat(forConnections / 3).as("descriptors for connections under a limit of %d "
                + "(%d in use already)", limit, baseline).isGreaterThanOrEqualTo(50);
        int cap = (int) Math.min(500, forConnections / 3);
        // Abort the writes well before the limit, so that a budget that does not hold fails this
        // test instead of every test after it in this JVM.
        long alarm = baseline + LEASE_FILES + (limit - baseline - LEASE_FILES) / 2;

        AtomicInteger mostLive = new AtomicInteger();
        AtomicInteger mostOpen = new AtomicInteger();
        AtomicInteger mostFds = new AtomicInteger();
        AtomicInteger inBodies = new AtomicInteger();
        AtomicInteger mostInBodies = new AtomicInteger();
        AtomicBoolean overAlarm = new AtomicBoolean();
        Set<Thread> bodyThreads = ConcurrentHashMap.newKeySet();
        int settled;
        int fdsWithLeases;
        int written = 0;
        long started = System.nanoTime();
        Lanes lanes = runtime.start(Lanes.builder().name("scale").maxThreads(THREADS)
                .maxOpenConnections(cap));
        List<Database> dbs = new ArrayList<>(DATABASES);
        for (int i = 0; i < DATABASES; i++) {
            dbs.add(runtime.open("db-" + i + ".db", MANY_CLOSE));
        }
        fdsWithLeases = openFileDescriptors();

        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            int n = 0;
            while (sampling.get()) {
                RuntimeDiagnostics d = lanes.diagnostics();
                mostLive.accumulateAndGet(d.liveThreads(), Math::max);
                mostOpen.accumulateAndGet(d.openConnections(), Math::max);
                if (n++ % 20 == 0) {
                    int fds = openFileDescriptors();
                    mostFds.accumulateAndGet(fds, Math::max);
                    if (fds > alarm) {
                        overAlarm.set(true);
                    }
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
        }, "sampler");
        sampler.start();
        try {
            for (int from = 0; from < DATABASES && !overAlarm.get(); from += BATCH) {
                List<CompletableFuture<Integer>> writes = new ArrayList<>();
                for (int i = from; i < Math.min(DATABASES, from + BATCH); i++) {
                    Database db = dbs.get(i);
                    int n = i;
                    writes.addAll(writeTwoRows(db, n, inBodies, mostInBodies, bodyThreads));
                }
                for (CompletableFuture<Integer> w : writes) {
                    assertThat(TestLanes.join(w)).isEqualTo(1);
                }
                written = Math.min(DATABASES, from + BATCH);
            }
        } finally {
            sampling.set(false);
            sampler.join(TestLanes.WAIT.toMillis());
        }
        TestLanes.awaitPoolQuiet(lanes); // every eviction asked for has run
        settled = lanes.diagnostics().openConnections();
        System.out.printf("scale: %d databases, fd limit %d, baseline %d, with leases %d (%d "
                        + "for all leases, before any connection), most %d; cap %d, most open "
                        + "%d, settled %d; most live threads %d, most bodies at once %d, "
                        + "body threads %d; writes took %d ms%n", DATABASES, limit, baseline,
                fdsWithLeases, fdsWithLeases - baseline, mostFds.get(), cap,
                mostOpen.get(), settled, mostLive.get(), mostInBodies.get(),
                bodyThreads.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        runtime.close();

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(fdsWithLeases - baseline).as("descriptors the leases of %d databases "
                + "hold open, before any connection", DATABASES).isLessThanOrEqualTo(LEASE_FILES);
        softly.assertThat(overAlarm.get()).as("open descriptors passed %d (limit %d; most seen "
                + "%d, most connections open %d with a cap of %d); the writes were stopped after "
                + "%d databases", alarm, limit, mostFds.get(), mostOpen.get(), cap, written)
                .isFalse();
        softly.assertThat(mostLive.get()).as("most live pool threads sampled")
                .isBetween(1, THREADS);
        softly.assertThat(mostInBodies.get()).as("most write bodies running at once")
                .isLessThanOrEqualTo(THREADS);
        softly.assertThat(bodyThreads).as("threads that ran bodies")
                .hasSizeLessThanOrEqualTo(THREADS);
        softly.assertThat(settled).as("connections open once the writes stopped (cap %d)", cap)
                .isLessThanOrEqualTo(cap);
        // Slack over the cap: evictions run on the pool, after the opens that passed the cap;
        // with at most THREADS turns opening connections at once and THREADS evictions running,
        // 2 * THREADS covers what the background eviction can lag.
        softly.assertThat(mostOpen.get()).as("most connections open at a sampled moment (cap %d, "
                + "slack %d)", cap, 2 * THREADS).isLessThanOrEqualTo(cap + 2 * THREADS);
        // Every row is in the files, read back without Lanes once the runtime closed.
        int missing = 0;
        for (int i = 0; i < written; i++) {
            if (rowsIn(runtime.path("db-" + i + ".db"), i) != 2) {
                missing++;
            }
        }
        softly.assertThat(missing).as("databases without exactly their two rows").isZero();
        softly.assertAll();
    }

    /**
     * The thread cap alone, at the same scale, without leaning on the connection budget: each
     * batch of databases is written through the pool and then closed, which gives back its
     * connections and its lease, so the descriptors in use stay bounded by the batch.
     */
    @Test
    void fiveThousandDatabasesWrittenBatchByBatchNeverUseMoreThanEightThreads() throws Exception {
        AtomicInteger mostLive = new AtomicInteger();
        AtomicInteger inBodies = new AtomicInteger();
        AtomicInteger mostInBodies = new AtomicInteger();
        Set<Thread> bodyThreads = ConcurrentHashMap.newKeySet();
        long started = System.nanoTime();
        Lanes lanes = runtime.start(Lanes.builder().name("scale-closed").maxThreads(THREADS));
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                mostLive.accumulateAndGet(lanes.diagnostics().liveThreads(), Math::max);
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
        }, "sampler");
        sampler.start();
        java.util.concurrent.ExecutorService closers =
                java.util.concurrent.Executors.newFixedThreadPool(THREADS);
        try {
            for (int from = 0; from < DATABASES; from += BATCH) {
                List<Database> batch = new ArrayList<>();
                List<CompletableFuture<Integer>> writes = new ArrayList<>();
                for (int i = from; i < Math.min(DATABASES, from + BATCH); i++) {
                    Database db = runtime.open("db-" + i + ".db", MANY_CLOSE);
                    batch.add(db);
                    int n = i;
                    writes.addAll(writeTwoRows(db, n, inBodies, mostInBodies, bodyThreads));
                }
                for (CompletableFuture<Integer> w : writes) {
                    assertThat(TestLanes.join(w)).isEqualTo(1);
                }
                List<CompletableFuture<Void>> closing = new ArrayList<>();
                for (Database db : batch) {
                    closing.add(CompletableFuture.runAsync(db::close, closers));
                }
                closing.forEach(TestLanes::join);
            }
        } finally {
            closers.shutdownNow();
            sampling.set(false);
            sampler.join(TestLanes.WAIT.toMillis());
        }
        assertThat(lanes.diagnostics().openDatabases()).isZero();
        assertThat(lanes.diagnostics().openConnections()).isZero();
        runtime.close();
        System.out.printf("scale, batch by batch: %d databases; most live threads %d, most bodies "
                        + "at once %d, body threads %d; took %d ms%n", DATABASES, mostLive.get(),
                mostInBodies.get(), bodyThreads.size(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        assertThat(mostLive.get()).as("most live pool threads sampled").isBetween(1, THREADS);
        assertThat(mostInBodies.get()).as("most write bodies running at once")
                .isLessThanOrEqualTo(THREADS);
        assertThat(bodyThreads).as("threads that ran bodies").hasSizeLessThanOrEqualTo(THREADS);
        int missing = 0;
        for (int i = 0; i < DATABASES; i++) {
            if (rowsIn(runtime.path("db-" + i + ".db"), i) != 2) {
                missing++;
            }
        }
        assertThat(missing).as("databases without exactly their two rows").isZero();
    }

    /**
     * Two writes to database {@code n}: the first creates the table and inserts 'first', the
     * second inserts 'second'; both note the threads their bodies run on.
     */
    private static List<CompletableFuture<Integer>> writeTwoRows(Database db, int n,
            AtomicInteger inBodies, AtomicInteger mostInBodies, Set<Thread> bodyThreads) {
        CompletableFuture<Integer> first = db.writeAsync(c -> {
            enter(inBodies, mostInBodies, bodyThreads);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, db INTEGER, v TEXT)");
                return s.executeUpdate("INSERT INTO t(db, v) VALUES (" + n + ", 'first')");
            } finally {
                inBodies.decrementAndGet();
            }
        });
        CompletableFuture<Integer> second = db.writeAsync(c -> {
            enter(inBodies, mostInBodies, bodyThreads);
            try (Statement s = c.createStatement()) {
                return s.executeUpdate("INSERT INTO t(db, v) VALUES (" + n + ", 'second')");
            } finally {
                inBodies.decrementAndGet();
            }
        });
        return List.of(first, second);
    }

    private static void enter(AtomicInteger inBodies, AtomicInteger most, Set<Thread> threads) {
        most.accumulateAndGet(inBodies.incrementAndGet(), Math::max);
        threads.add(Thread.currentThread());
    }

    private static long rowsIn(Path file, int n) throws Exception {
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE db = " + n)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The soft limit on open files, from /proc/self/limits; skips the test where there is none. */
    static long openFileLimit() throws IOException {
        Path limits = Path.of("/proc/self/limits");
        assumeThat(Files.isReadable(limits)).as("/proc/self/limits readable").isTrue();
        for (String line : Files.readAllLines(limits)) {
            if (line.startsWith("Max open files")) {
                String[] parts = line.substring("Max open files".length()).trim().split("\\s+");
                return parts[0].equals("unlimited") ? Integer.MAX_VALUE : Long.parseLong(parts[0]);
            }
        }
        throw new IllegalStateException("no 'Max open files' line in " + limits);
    }

    /** The descriptors this process has open now. */
    static int openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
