package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The connection budget: {@code maxOpenConnections} caps the SQLite connections of a
 * runtime; idle databases give up theirs in least-recently-used order and reopen on next use,
 * keeping their lease and passing the identity check again.
 *
 * <p>Which databases hold a connection is read from the file system: in WAL mode SQLite keeps
 * the {@code -wal} file while any connection to the database is open and deletes it when the
 * last one closes. The tests that rely on it open no reader connections, so the {@code -wal}
 * file of a database exists exactly while its writer connection is open.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionBudgetTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    private static boolean connected(Database db) {
        return Files.exists(db.path().resolveSibling(db.path().getFileName() + "-wal"));
    }

    private static void awaitWithinCap(Lanes lanes, int cap) {
        TestLanes.awaitTrue("open connections to come back within " + cap,
                () -> lanes.diagnostics().openConnections() <= cap);
    }

    /**
     * The slack over the cap: eviction runs as a background turn after the open that passed the
     * cap, so the count can exceed the cap by the connections being opened at that moment (one
     * per caller thread, {@code CALLERS}) plus the evictions asked for and not yet run (at most
     * one per pool thread running them, {@code THREADS}, plus those still queued). Callers that
     * open faster than the pool evicts could queue more; 4 + 4 covers one eviction in flight per
     * caller and per pool thread. It is a momentary excess: once the writes stop, the count must
     * come back within the cap itself.
     */
    private static final int CALLERS = 4;
    private static final int THREADS = 4;
    private static final int SLACK = CALLERS + THREADS;

    @Tag("slow") // scale: 200 databases written round-robin under a cap of 20
    @Test
    void twoHundredDatabasesWrittenRoundRobinStayNearTheCapAndKeepEveryRow() throws Exception {
        int cap = 20;
        int databases = 200;
        int rounds = 5;
        List<Database> dbs = new ArrayList<>();
        AtomicInteger mostOpen = new AtomicInteger();
        int settled;
        Lanes lanes = runtime.start(Lanes.builder().name("budget").maxThreads(THREADS)
                .maxOpenConnections(cap));
        for (int i = 0; i < databases; i++) {
            dbs.add(lanes.open(runtime.path("db-" + i + ".db")));
        }
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                mostOpen.accumulateAndGet(lanes.diagnostics().openConnections(), Math::max);
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            }
        }, "sampler");
        sampler.start();

        // Each caller writes round-robin over its share of the databases: every write
        // touches a database that lost its connection since its last turn.
        CyclicBarrier go = new CyclicBarrier(CALLERS);
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int k = 0; k < CALLERS; k++) {
                int caller = k;
                done.add(callers.submit(() -> {
                    go.await();
                    for (int round = 0; round < rounds; round++) {
                        for (int i = caller; i < databases; i += CALLERS) {
                            Database db = dbs.get(i);
                            if (round == 0) {
                                db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
                            }
                            db.execute("INSERT INTO t(v) VALUES (?)", "round " + round);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            callers.shutdownNow();
            sampling.set(false);
            sampler.join(TestLanes.WAIT.toMillis());
        }
        TestLanes.awaitPoolQuiet(lanes); // every eviction asked for has run
        settled = lanes.diagnostics().openConnections();
        for (Database db : dbs) {
            assertThat(db.state()).isEqualTo(DatabaseState.RUNNING);
        }
        runtime.close();
        System.out.printf("budget: cap %d, most open %d, settled at %d%n", cap, mostOpen.get(),
                settled);
        // Every write succeeded (the callers' futures above) and every row is in the files,
        // read back without Lanes.
        for (int i = 0; i < databases; i++) {
            assertThat(rowsIn(runtime.path("db-" + i + ".db"))).as("rows of db-%d", i)
                    .isEqualTo(rounds);
        }
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(settled).as("connections open once the writes stopped (cap %d)", cap)
                .isLessThanOrEqualTo(cap);
        softly.assertThat(mostOpen.get()).as("most connections open at a sampled moment (cap %d, "
                + "slack %d)", cap, SLACK).isLessThanOrEqualTo(cap + SLACK);
        softly.assertAll();
    }

    @Test
    void idleDatabasesLoseTheirConnectionsInLeastRecentlyUsedOrder() {
        int cap = 10;
        Lanes lanes = runtime.start(Lanes.builder().name("lru").maxThreads(2)
                .maxOpenConnections(cap));
        List<Database> first = new ArrayList<>();
        for (int i = 0; i < cap; i++) {
            first.add(runtime.openWithTable("old-" + i + ".db"));
        }
        assertThat(lanes.diagnostics().openConnections()).isEqualTo(cap);
        // Touch the second half again: now the first half is least recently used.
        for (int i = cap / 2; i < cap; i++) {
            first.get(i).execute("INSERT INTO t(v) VALUES ('touched')");
        }
        // Each new database passes the cap by one; wait for its eviction before the next, so
        // that every eviction chooses among settled candidates.
        List<Database> fresh = new ArrayList<>();
        for (int i = 0; i < cap / 2; i++) {
            fresh.add(runtime.openWithTable("new-" + i + ".db"));
            awaitWithinCap(lanes, cap);
        }

        for (int i = 0; i < cap; i++) {
            assertThat(connected(first.get(i)))
                    .as("old-%d (%s) still has its connection", i,
                            i < cap / 2 ? "least recently used" : "touched")
                    .isEqualTo(i >= cap / 2);
        }
        for (Database db : fresh) {
            assertThat(connected(db)).as("%s has its connection", db.path().getFileName())
                    .isTrue();
        }
        assertThat(lanes.diagnostics().openConnections()).isEqualTo(cap);
    }

    @Tag("slow") // process: a second JVM
    @Test
    void anEvictedDatabaseKeepsItsLeaseReopensTransparentlyAndPassesTheIdentityCheck()
            throws Exception {
        Lanes lanes = runtime.start(Lanes.builder().name("lease").maxThreads(2)
                .maxOpenConnections(2));
        Database a = runtime.openWithTable("a.db");
        a.execute("INSERT INTO t(v) VALUES ('before')");
        Database b = runtime.openWithTable("b.db");
        Database c = runtime.openWithTable("c.db");
        awaitWithinCap(lanes, 2);
        assertThat(connected(a)).as("a, least recently used, was evicted").isFalse();

        // The lease stays held: another process is refused, as is another runtime here.
        assertThat(LeaseChild.runOn(a.path(), runtime.dir())).startsWith("LOCKED");
        try (Lanes other = Lanes.builder().name("other").maxThreads(1).build()) {
            assertThat(catchThrowableOfType(DatabaseLockedException.class,
                    () -> other.open(a.path()))).isNotNull();
        }

        // Next use reopens it: the identity check passes on the same file, data intact.
        a.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(connected(a)).isTrue();
        awaitWithinCap(lanes, 2); // b, now least recently used, evicted
        assertThat(a.state()).isEqualTo(DatabaseState.RUNNING);
        long rows = a.write(conn -> {
            try (Statement s = conn.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return rs.getLong(1);
            }
        });
        assertThat(rows).as("rows read on the reopened writer").isEqualTo(2);

        // And the check really runs on reopen: evicted again, and the file swapped
        // meanwhile, the reopen finds another file at the path. Each step waits for the
        // eviction it caused, so that no eviction is asked for a database about to be used.
        b.execute("INSERT INTO t(v) VALUES ('touch')"); // reopens b, evicts c
        awaitWithinCap(lanes, 2);
        c.execute("INSERT INTO t(v) VALUES ('touch')"); // reopens c, evicts a
        awaitWithinCap(lanes, 2);
        assertThat(connected(a)).as("a evicted again").isFalse();
        Files.move(impostor("impostor.db"), a.path(), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        LanesException refused = catchThrowableOfType(LanesException.class,
                () -> a.execute("INSERT INTO t(v) VALUES ('into the impostor')"));
        assertThat(refused).isNotNull();
        assertThat(refused instanceof IdentityMismatchException
                || refused.getCause() instanceof IdentityMismatchException)
                .as("the reopen's failure is the identity mismatch: %s", refused).isTrue();
        assertThat(a.state()).isEqualTo(DatabaseState.DEAD);
        assertThat(b.state()).isEqualTo(DatabaseState.RUNNING);
        runtime.close();
        assertThat(rowsIn(runtime.path("a.db"))).as("the impostor was not written to")
                .isEqualTo(1);
    }

    /**
     * The two ways the budget can lose an eviction, each made deterministic by holding the only
     * pool thread, so that an eviction asked for waits in the run queue until the test lets it
     * run. The holder's own writer counts as one connection throughout.
     */
    @Test
    void eachOpenPastTheCapEvictsTheLeastRecentlyUsedIdleDatabaseAtOnce() {
        int cap = 3;
        Lanes lanes = runtime.start(Lanes.builder().name("pending").maxThreads(1)
                .maxOpenConnections(cap));
        // The only pool thread is held: evictions must not need it.
        TestLanes.Blocker pool = TestLanes.block(runtime.open("holder.db"));
        try {
            Database a = runtime.openWithTable("a.db");
            Database b = runtime.openWithTable("b.db");
            assertThat(lanes.diagnostics().openConnections()).isEqualTo(cap);
            // c passes the cap: a, least recently used and idle, is evicted right away.
            runtime.openWithTable("c.db");
            assertThat(connected(a)).as("a evicted").isFalse();
            assertThat(connected(b)).as("b still open").isTrue();
            // d passes it again: a is gone already, so b, the next one, goes.
            runtime.openWithTable("d.db");
            assertThat(connected(b)).as("b, the next least recently used, evicted "
                    + "(connections open: %d, cap %d)", lanes.diagnostics().openConnections(),
                    cap).isFalse();
            assertThat(lanes.diagnostics().openConnections()).isLessThanOrEqualTo(cap);
        } finally {
            pool.release();
        }
    }

    @Test
    void aDatabaseInATransactionIsSkippedAndTheNextIdleOneEvictedInstead() {
        int cap = 3;
        Lanes lanes = runtime.start(Lanes.builder().name("skipped").maxThreads(1)
                .maxOpenConnections(cap));
        TestLanes.Blocker pool = TestLanes.block(runtime.open("holder.db"));
        try {
            Database a = runtime.openWithTable("a.db",
                    DatabaseOptions.builder().transactionIdleTimeout(
                            java.time.Duration.ofSeconds(60)).build());
            Database b = runtime.openWithTable("b.db");
            // a, least recently used, opens a transaction: it can no longer be evicted.
            Transaction tx = a.begin();
            runtime.openWithTable("c.db");
            assertThat(connected(a)).as("a, in a transaction, kept its connection").isTrue();
            assertThat(connected(b)).as("b, idle, was evicted instead").isFalse();
            assertThat(lanes.diagnostics().openConnections())
                    .as("connections open (cap %d)", cap).isLessThanOrEqualTo(cap);
            tx.rollback();
        } finally {
            pool.release();
        }
    }

    @Test
    void aDatabaseWithAnOpenTransactionOrCorkIsNeverEvicted() {
        int cap = 4;
        Lanes lanes = runtime.start(Lanes.builder().name("pinned").maxThreads(2)
                .maxOpenConnections(cap));
        Database inTx = runtime.openWithTable("tx.db",
                DatabaseOptions.builder().transactionIdleTimeout(
                        java.time.Duration.ofSeconds(60)).build());
        Database corked = runtime.openWithTable("corked.db");
        Transaction tx = inTx.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in tx')");
        corked.cork();
        corked.execute("INSERT INTO t(v) VALUES ('corked')");
        // Both are now the least recently used; open far more databases than the cap.
        for (int i = 0; i < 3 * cap; i++) {
            runtime.openWithTable("other-" + i + ".db");
            awaitWithinCap(lanes, cap);
        }
        assertThat(connected(inTx)).as("the database in a transaction kept its connection")
                .isTrue();
        assertThat(connected(corked)).as("the corked database kept its connection").isTrue();
        tx.execute("INSERT INTO t(v) VALUES ('still in tx')");
        tx.commit();
        corked.uncork();
        assertThat(TestLanes.scalar(inTx, "SELECT count(*) FROM t")).isEqualTo(2);
        assertThat(TestLanes.scalar(corked, "SELECT count(*) FROM t")).isEqualTo(1);
    }

    /**
     * Reader connections count against the cap too; eviction must release them as well, or a
     * runtime whose databases are read keeps one reader per database open past any cap.
     */
    @Test
    void readerConnectionsAreReleasedByEvictionToo() {
        int cap = 10;
        int databases = 40;
        Lanes lanes = runtime.start(Lanes.builder().name("readers").maxThreads(THREADS)
                .maxOpenConnections(cap));
        List<Database> dbs = new ArrayList<>();
        int mostOpen = 0;
        // Each open waits for the eviction it caused before the next (concurrent evictions
        // are pinned by the tests above).
        for (int i = 0; i < databases; i++) {
            Database db = runtime.openWithTable("r-" + i + ".db");
            db.execute("INSERT INTO t(v) VALUES ('x')");
            mostOpen = Math.max(mostOpen, lanes.diagnostics().openConnections());
            TestLanes.awaitPoolQuiet(lanes); // the eviction it caused has run
            assertThat(TestLanes.countOf(db, "x")).isEqualTo(1); // opens a reader here
            assertThat(db.diagnostics().readers().openConnections()).isEqualTo(1);
            dbs.add(db);
            mostOpen = Math.max(mostOpen, lanes.diagnostics().openConnections());
            TestLanes.awaitPoolQuiet(lanes); // the eviction it caused has run
        }
        int settled = lanes.diagnostics().openConnections();
        int readersOpen = dbs.stream()
                .mapToInt(db -> db.diagnostics().readers().openConnections()).sum();
        assertThat(settled).as("connections open once the reads stopped (cap %d; most seen "
                + "%d; reader connections still open %d)", cap, mostOpen, readersOpen)
                .isLessThanOrEqualTo(cap);
        for (Database db : dbs) {
            assertThat(TestLanes.countOf(db, "x")).isEqualTo(1);
        }
    }

    /**
     * A database read, and not written, after its eviction opens a reader connection without
     * reopening its writer. That reader counts against the cap like any connection, so it must
     * be evictable too; otherwise a read-mostly runtime keeps one reader per database open past
     * any cap.
     */
    @Test
    void databasesOnlyReadAfterTheirEvictionStayWithinTheCap() {
        int cap = 10;
        int databases = 40;
        Lanes lanes = runtime.start(Lanes.builder().name("read-mostly").maxThreads(THREADS)
                .maxOpenConnections(cap));
        List<Database> dbs = new ArrayList<>();
        for (int i = 0; i < databases; i++) {
            Database db = runtime.openWithTable("rm-" + i + ".db");
            db.execute("INSERT INTO t(v) VALUES ('x')");
            TestLanes.awaitPoolQuiet(lanes); // the eviction it caused has run
            dbs.add(db);
        }
        assertThat(lanes.diagnostics().openConnections()).isLessThanOrEqualTo(cap);
        // Now only reads, one database after the other, each settling before the next.
        for (Database db : dbs) {
            assertThat(TestLanes.countOf(db, "x")).isEqualTo(1);
            TestLanes.awaitPoolQuiet(lanes); // the eviction it caused has run
        }
        int readersOpen = dbs.stream()
                .mapToInt(db -> db.diagnostics().readers().openConnections()).sum();
        assertThat(lanes.diagnostics().openConnections())
                .as("connections open after reading every database once (cap %d; reader "
                        + "connections among them %d)", cap, readersOpen)
                .isLessThanOrEqualTo(cap);
    }

    /**
     * An evicted database that had readers keeps its {@code -wal} and {@code -shm} files, the
     * WAL emptied into the database file first: the writer checkpoints and closes before its
     * readers, which open read-only and never delete them. Its next open creates no file (on
     * ext4, creating files where many were just deleted is what made a cold open slow). A
     * database with no reader open is closed as before, and its last close deletes the WAL.
     */
    @Test
    void anEvictedDatabaseWithReadersKeepsItsWalFileEmptiedIntoTheDatabase() throws Exception {
        Lanes lanes = runtime.start(Lanes.builder().name("keep-files").maxThreads(THREADS)
                .maxOpenConnections(2));
        Database read = runtime.openWithTable("read.db");
        for (int i = 0; i < 50; i++) {
            read.execute("INSERT INTO t(v) VALUES ('x')");
        }
        assertThat(TestLanes.countOf(read, "x")).isEqualTo(50); // its reader: 2 connections now
        Path wal = read.path().resolveSibling("read.db-wal");
        Path shm = read.path().resolveSibling("read.db-shm");
        assertThat(Files.size(wal)).as("the writes are in the WAL").isPositive();

        Database other = runtime.openWithTable("other.db"); // past the cap: read.db is evicted
        TestLanes.awaitTrue("read.db to lose its connections",
                () -> lanes.diagnostics().openConnections() == 1);
        assertThat(wal).as("kept").exists();
        assertThat(Files.size(wal)).as("emptied into the database file").isZero();
        assertThat(shm).as("kept").exists();
        Path copy = runtime.path("copy.db"); // the database file alone holds every row
        Files.copy(read.path(), copy);
        assertThat(rowsIn(copy)).isEqualTo(50);

        // a database that only its writer had open: the last close deletes the WAL, as before
        TestLanes.awaitPoolQuiet(lanes);
        Database third = runtime.openWithTable("third.db");
        assertThat(TestLanes.countOf(third, "x")).isZero(); // its reader: past the cap
        TestLanes.awaitTrue("other.db to lose its writer", () -> !connected(other));
        assertThat(other.path().resolveSibling("other.db-shm")).doesNotExist();

        assertThat(TestLanes.countOf(read, "x")).as("reopened").isEqualTo(50);
        read.execute("INSERT INTO t(v) VALUES ('x')");
        assertThat(TestLanes.countOf(read, "x")).isEqualTo(51);
    }

    /**
     * The eviction's checkpoint never waits for a reader still reading the WAL: with a busy
     * timeout longer than the test may run, an eviction that waited would time the test out.
     * The database is then closed as before, and nothing is lost.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anEvictionDoesNotWaitForAReaderInTheMiddleOfARead() throws Exception {
        runtime.start(Lanes.builder().name("busy-reader").maxThreads(THREADS)
                .maxOpenConnections(2));
        Database busy = runtime.openWithTable("busy.db", DatabaseOptions.builder()
                .busyTimeout(java.time.Duration.ofMinutes(10)).build());
        busy.execute("INSERT INTO t(v) VALUES ('x')");
        java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            Future<Long> read = reader.submit(() -> busy.read(c -> {
                long n;
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                    rs.next();
                    n = rs.getLong(1); // the read's snapshot holds the WAL from here
                }
                reading.countDown();
                release.await();
                return n;
            }));
            reading.await();
            Database other = runtime.openWithTable("other.db"); // past the cap: busy.db evicted
            other.execute("INSERT INTO t(v) VALUES ('y')");
            TestLanes.awaitTrue("busy.db's writer to be evicted, its reader still reading",
                    () -> runtime.lanes().diagnostics().openConnections() == 2);
            release.countDown();
            assertThat(read.get()).isEqualTo(1);
        } finally {
            release.countDown();
            reader.shutdown();
        }
        assertThat(TestLanes.countOf(busy, "x")).isEqualTo(1);
    }

    private static long rowsIn(Path file) throws Exception {
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Another database, in WAL mode, with the same table and one row 'impostor'. */
    private Path impostor(String name) throws Exception {
        Path file = runtime.path(name);
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = raw.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            s.execute("INSERT INTO t(v) VALUES ('impostor')");
        }
        return file;
    }
}
