package dev.lanes;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Reads run on their own read-only connections: beside the writer, never behind it. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderConcurrencyTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("readers.db");
        db.execute("INSERT INTO t(v) VALUES (?)", "committed");
    }

    @Test
    void readsCompleteWhileAWriteBodyHoldsTheLaneInsideItsTransaction() {
        // The holder's body runs inside BEGIN IMMEDIATE and has written a row it has not
        // committed: the writer holds SQLite's write lock for as long as the test wants.
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> holder = db.writeAsync(c -> {
            insert("uncommitted").apply(c);
            written.countDown();
            if (!release.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("never released");
            }
            return "holder";
        });
        try {
            await(written, "the holder to write inside its transaction");
            CompletableFuture<String> queued = db.writeAsync(insert("queued"));

            assertThat(TestLanes.countOf(db, "committed")).isEqualTo(1);
            assertThat(db.read(ReaderConcurrencyTest::count)).as("uncommitted rows are invisible")
                    .isEqualTo(1L);
            assertThat(join(db.readAsync(ReaderConcurrencyTest::count))).isEqualTo(1L);
            assertThat(db.query("SELECT v FROM t ORDER BY id")).extracting(r -> r.getString("v"))
                    .containsExactly("committed");
            assertThat(holder).isNotDone();
            assertThat(queued).isNotDone();

            release.countDown();
            assertThat(join(holder)).isEqualTo("holder");
            join(queued);
        } finally {
            release.countDown();
        }
        assertThat(db.query("SELECT v FROM t ORDER BY id")).extracting(r -> r.getString("v"))
                .containsExactly("committed", "uncommitted", "queued");
    }

    @Test
    void aReadBodySeesOneSnapshotWhileWritesCommitInBetween() throws Exception {
        CountDownLatch firstLookDone = new CountDownLatch(1);
        CountDownLatch writesCommitted = new CountDownLatch(1);
        CompletableFuture<long[]> counts = db.readAsync(c -> {
            long before = count(c);
            firstLookDone.countDown();
            await(writesCommitted, "the writes to commit");
            long after = count(c);
            long afterAgain = count(c);
            return new long[] {before, after, afterAgain};
        });
        await(firstLookDone, "the read's first statement");
        for (int i = 0; i < 3; i++) {
            db.execute("INSERT INTO t(v) VALUES (?)", "during-" + i);
        }
        assertThat(scalar(db, "SELECT count(*) FROM t")).as("a fresh read sees the commits")
                .isEqualTo(4);
        writesCommitted.countDown();

        assertThat(join(counts)).as("every statement of the body saw the snapshot of its first")
                .containsExactly(1, 1, 1);
        assertThat(db.read(ReaderConcurrencyTest::count)).as("the next read sees the commits")
                .isEqualTo(4);
    }

    @Test
    void aPlatformCallerReadsOnItsOwnThreadAndAsyncReadsRunOnThePool() {
        Thread caller = Thread.currentThread();
        assertThat(db.<Thread>read(c -> Thread.currentThread())).isSameAs(caller);
        Thread asyncThread = join(db.readAsync(c -> Thread.currentThread()));
        assertThat(asyncThread).isNotSameAs(caller);
        assertThat(asyncThread.getName()).startsWith("test-worker-");
    }

    @Test
    void readersOpenLazilyAreReusedAndAreCountedAsOpenConnections() {
        Lanes fresh = runtime.another();
        Database other = TestLanes.withTable(fresh.open(runtime.path("lazy.db")));
        assertThat(other.diagnostics().readers().openConnections()).isZero();
        int before = fresh.diagnostics().openConnections();
        for (int i = 0; i < 50; i++) {
            other.query("SELECT count(*) FROM t");
            other.read(c -> null);
        }
        ReaderDiagnostics r = other.diagnostics().readers();
        assertThat(r.openConnections()).as("one reader served every sequential read")
                .isEqualTo(1);
        assertThat(r.acquisitions()).isEqualTo(100);
        assertThat(r.completedCheckouts()).isEqualTo(100);
        assertThat(r.currentCheckouts()).isZero();
        assertThat(r.peakCheckouts()).isEqualTo(1);
        assertThat(r.replacedConnections()).isZero();
        assertThat(fresh.diagnostics().openConnections()).isEqualTo(before + 1);
        fresh.close();
        assertThat(fresh.diagnostics().openConnections()).as("every reader closed with it")
                .isZero();
    }

    @Test
    void concurrentReadsUseUpToTheConfiguredReadersAtOnce() {
        Database wide = runtime.openWithTable("wide.db",
                DatabaseOptions.builder().readers(3).build());
        CountDownLatch allInside = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Object>> reads = List.of(
                wide.readAsync(c -> hold(allInside, release)),
                wide.readAsync(c -> hold(allInside, release)),
                wide.readAsync(c -> hold(allInside, release)));
        await(allInside, "three reads to run at once");
        ReaderDiagnostics r = wide.diagnostics().readers();
        assertThat(r.currentCheckouts()).isEqualTo(3);
        assertThat(r.availableSlots()).isZero();
        assertThat(r.openConnections()).isEqualTo(3);
        release.countDown();
        reads.forEach(TestLanes::join);
        assertThat(wide.diagnostics().readers().peakCheckouts()).isEqualTo(3);
    }

    @Test
    void aReadOfAFreshDatabaseBeforeAnyWriteWorks() {
        Database fresh = runtime.open("never-written.db");
        assertThat(fresh.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 't'")
                .get(0).getLong("n")).isZero();
        assertThat(join(runtime.open("never-written-async.db")
                .<String>readAsync(c -> "read"))).isEqualTo("read");
    }

    private static Object hold(CountDownLatch inside, CountDownLatch release)
            throws InterruptedException {
        inside.countDown();
        if (!release.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("never released");
        }
        return null;
    }

    static long count(java.sql.Connection c) throws java.sql.SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
