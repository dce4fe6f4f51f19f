package dev.lanes.internal.file;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.CheckpointMode;
import dev.lanes.CheckpointResult;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.SqlFunction;
import dev.lanes.Synchronous;
import dev.lanes.TestLanes;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.ManualClock;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

/**
 * The background checkpointer of {@code DEDICATED} mode ({@link Checkpointer}): its tick policy
 * on a manual clock, with the WAL's size set by the test (the file is lengthened; SQLite reads
 * only the frames its index names), and its run state: requests coalesce into one background
 * turn of the strongest kind, and a close ends ticks, requests and the connection.
 *
 * <p>The database is a real WAL database written through a connection of the test's own with
 * {@code wal_autocheckpoint=0}, held open so that the WAL stays. A reader connection holding a
 * snapshot makes a checkpoint incomplete or busy, as in production; a {@code TRUNCATE} then waits
 * its real {@link Checkpointer#LOCK_WAIT} for it. The writer lane that finishes each {@code
 * PASSIVE} checkpoint is the test's writer connection ({@link #onWriter}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckpointerTest {
    private static final long MIB = 1024 * 1024;

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock();
    private final WorkerPool pool = new WorkerPool("cp", 1, 256 * 1024, clock);
    private final ConnectionBudget budget = new ConnectionBudget(0);
    private final CheckpointRecord stats = new CheckpointRecord(CheckpointMode.DEDICATED);
    private Path db;
    private Connection writer;
    private Connection reader;
    private Lease lease;
    private Checkpointer checkpointer;
    private final CountDownLatch released = new CountDownLatch(1);
    /** How many checkpoints' tails were run on the writer. */
    private final AtomicInteger tails = new AtomicInteger();
    /** The checkpointers that told their owner they retired. */
    private final List<Checkpointer> retired = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() throws Exception {
        db = dir.toRealPath().resolve("cp.db");
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        writer = config.createConnection("jdbc:sqlite:" + db);
        execute(writer, "PRAGMA wal_autocheckpoint = 0");
        execute(writer, "CREATE TABLE t(v)");
        insert(10);
        lease = Lease.acquire(db, "cp.db", this, "checkpointer-test");
        Identity unchecked = new Identity(db, "cp.db", false, 0, lease, null);
        checkpointer = new Checkpointer(db, "cp.db", Synchronous.NORMAL, pool, budget, clock,
                clock, unchecked, () -> stats, MetricsReporter.NONE, ConnectionSettings.NONE,
                retired::add, this::onWriter, false);
    }

    /**
     * The writer lane, as far as the checkpointer sees it: the tail runs on the test's writer
     * connection, at once, on the checkpointer's turn; the test writes only between turns.
     */
    private CompletableFuture<CheckpointResult> onWriter(SqlFunction<CheckpointResult> tail) {
        tails.incrementAndGet();
        try {
            return CompletableFuture.completedFuture(tail.apply(writer));
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @AfterEach
    void close() throws Exception {
        released.countDown();
        checkpointer.close().get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (reader != null) {
            reader.close();
        }
        writer.close();
        lease.release();
        pool.shutdown();
        clock.shutdown();
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private void insert(int rows) throws SQLException {
        for (int i = 0; i < rows; i++) {
            execute(writer, "INSERT INTO t(v) VALUES (randomblob(512))");
        }
    }

    private Path wal() {
        return Checkpointer.walOf(db);
    }

    /** Makes the WAL file {@code bytes} long, and changes its modification time. */
    private void lengthenWal(long bytes) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(wal().toFile(), "rw")) {
            f.setLength(bytes);
        }
        FileTime before = Files.getLastModifiedTime(wal());
        Files.setLastModifiedTime(wal(), FileTime.fromMillis(before.toMillis() + 1_000));
    }

    /**
     * A write, a WAL past the threshold, a look at it: the first checkpoint of the active
     * period, a passive one, has run.
     */
    private void writtenPastTheThresholdAndCheckpointed() throws Exception {
        checkpointer.wrote();
        lengthenWal(Checkpointer.WAL_THRESHOLD_BYTES + MIB);
        tick();
        awaitTrue("a checkpoint", () -> view().completed() == 1);
    }

    /** Opens a reader and takes a snapshot that it keeps until {@link #endSnapshot}. */
    private void holdSnapshot() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        reader = config.createConnection("jdbc:sqlite:" + db);
        reader.setAutoCommit(false);
        try (Statement s = reader.createStatement()) {
            s.executeQuery("SELECT count(*) FROM t").close();
        }
    }

    private void endSnapshot() throws SQLException {
        reader.rollback();
    }

    private DatabaseDiagnostics.Checkpoints view() {
        return stats.view(db);
    }

    private void tick() {
        clock.advance(Checkpointer.TICK);
    }

    private void awaitPoolQuiet() {
        awaitTrue("the pool to run every checkpoint asked for", () -> {
            WorkerPool.Snapshot s = pool.snapshot();
            return s.busyThreads() == 0 && s.runnableForeground() == 0
                    && s.runnableBackground() == 0;
        });
    }

    /** Holds the pool's only thread until the test ends, so that submitted turns wait. */
    private void holdThePool() {
        CountDownLatch inside = new CountDownLatch(1);
        pool.submit(new WorkerPool.Task() {
            @Override
            public void runTurn() {
                inside.countDown();
                try {
                    released.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public boolean background() {
                return false;
            }
        });
        await(inside, "the pool to be held");
    }

    // ------------------------------------------------------------------ the tick policy

    @Test
    void aSmallWalThatKeepsChangingGetsNoCheckpoint() throws Exception {
        checkpointer.wrote();
        assertThat(clock.pending()).as("the tick").isEqualTo(1);
        for (int i = 0; i < 12; i++) { // three seconds, past the quiet period, never quiet
            insert(1);
            tick();
        }
        awaitPoolQuiet();
        assertThat(Files.size(wal())).isLessThan(Checkpointer.WAL_THRESHOLD_BYTES);
        assertThat(view().completed()).isZero();
        assertThat(checkpointer.active()).as("still written to").isTrue();
    }

    @Test
    void aSmallWalQuietForTheQuietPeriodEndsTheLooksWithoutOpeningAConnection() throws Exception {
        checkpointer.wrote();
        for (int i = 0; i < quietTicks(); i++) { // the first tick sees the write; quiet from then
            tick();
        }
        assertThat(checkpointer.active()).as("quiet for one tick short of the period").isTrue();
        tick();
        awaitPoolQuiet();
        assertThat(checkpointer.active()).isFalse();
        assertThat(retired).as("told its owner, who drops it").containsExactly(checkpointer);
        assertThat(clock.pending()).as("no timer task left for an idle database").isZero();
        assertThat(budget.open()).as("no connection opened").isZero();
        assertThat(view().completed()).as("a small WAL is left as AUTO leaves it").isZero();
        assertThat(Files.size(wal())).isPositive();

        assertThat(checkpointer.wrote()).as("a retired one sends the next write to a new one")
                .isFalse();
        assertThat(clock.pending()).isZero();
    }

    @Test
    void aWriteSeenByTheLastQuietTickKeepsTheActivePeriodGoing() throws Exception {
        checkpointer.wrote();
        for (int i = 0; i < quietTicks(); i++) {
            tick();
        }
        insert(1); // a write the WAL file shows, and the lane's report of it
        assertThat(checkpointer.wrote()).isTrue();
        tick();
        assertThat(checkpointer.active()).as("not quiet: written since the last tick").isTrue();
        assertThat(retired).isEmpty();
        for (int i = 0; i <= quietTicks(); i++) {
            tick();
        }
        assertThat(checkpointer.active()).as("quiet since that write").isFalse();
        assertThat(retired).containsExactly(checkpointer);
    }

    @Test
    void aWalPastTheThresholdGetsOnePassiveCheckpointAndNotAnotherUntilItChanges()
            throws Exception {
        writtenPastTheThresholdAndCheckpointed();
        assertThat(view().lastMode()).as("finished on the writer").contains("RESTART");
        assertThat(view().last()).hasValueSatisfying(r -> assertThat(r.complete()).isTrue());

        tick();
        tick();
        awaitPoolQuiet();
        assertThat(view().completed()).as("the same WAL is not checkpointed again").isEqualTo(1);

        insert(5); // the WAL changed: past the threshold still, it gets another one
        lengthenWal(Checkpointer.WAL_THRESHOLD_BYTES + 2 * MIB);
        tick();
        awaitTrue("a second checkpoint", () -> view().completed() == 2);
        assertThat(tails.get()).as("each finished on the writer").isEqualTo(2);
    }

    @Test
    void aPassiveCheckpointThatLooksCompleteIsFinishedOnTheWriterWhereNoWriteAddsFrames()
            throws Exception {
        writtenPastTheThresholdAndCheckpointed();
        assertThat(tails.get()).as("the tail, run on the writer").isEqualTo(1);
        assertThat(view().last()).as("one checkpoint in the record: the tail's result")
                .hasValueSatisfying(r -> assertThat(r.complete()).isTrue());
    }

    @Test
    void aPassiveCheckpointLeftIncompleteByAReaderIsFollowedByARestartAndThenATailOnTheWriter()
            throws Exception {
        checkpointer.wrote();
        holdSnapshot();
        insert(10); // frames past the reader's snapshot: no checkpoint can copy them
        lengthenWal(Checkpointer.WAL_THRESHOLD_BYTES + MIB);
        tick();
        awaitTrue("the passive checkpoint, then the restart and the tail as one",
                () -> view().completed() == 2);
        assertThat(tails.get()).as("the restart waited for the reader in vain: a tail").isOne();
        assertThat(view().lastMode()).contains("RESTART");
        assertThat(view().last()).as("the tail waited for the reader, in vain too")
                .hasValueSatisfying(r -> assertThat(r.busy()).isTrue());

        endSnapshot();
        insert(5);
        lengthenWal(Checkpointer.WAL_THRESHOLD_BYTES + 2 * MIB);
        tick();
        awaitTrue("the next look's checkpoint", () -> view().completed() == 3);
        assertThat(view().last()).as("with the reader gone, all copied")
                .hasValueSatisfying(r -> assertThat(r.complete()).isTrue());
    }

    @Test
    void aCheckpointedWalQuietForTheQuietPeriodIsTruncatedItsConnectionClosedAndTheLooksEnd()
            throws Exception {
        writtenPastTheThresholdAndCheckpointed();
        assertThat(budget.open()).as("the checkpointer's connection").isEqualTo(1);
        for (int i = 0; i < quietTicks() - 1; i++) { // quiet since the first tick
            tick();
        }
        awaitPoolQuiet();
        assertThat(view().completed()).as("quiet for one tick short of the period").isEqualTo(1);

        tick();
        awaitTrue("the truncate", () -> view().completed() == 2);
        assertThat(view().lastMode()).contains("TRUNCATE");
        assertThat(Files.size(wal())).isZero();
        awaitTrue("its connection closed", () -> budget.open() == 0);
        tick();
        awaitPoolQuiet();
        assertThat(checkpointer.active()).as("the looks end once the connection closed")
                .isFalse();
        assertThat(retired).containsExactly(checkpointer);
        assertThat(clock.pending()).isZero();
        assertThat(view().completed()).as("an empty WAL needs nothing more").isEqualTo(2);
    }

    @Test
    void aTruncateThatWasBusyKeepsItsConnectionAndIsTriedAgainOnlyAfterAnotherQuietPeriod()
            throws Exception {
        writtenPastTheThresholdAndCheckpointed();
        insert(5); // frames the checkpoint has not copied, which the reader's snapshot then uses
        holdSnapshot();
        for (int i = 0; i <= quietTicks(); i++) {
            tick();
        }
        // the new frames are checkpointed passively first (the file is still past the threshold)
        awaitTrue("the first truncate",
                () -> view().lastMode().equals(java.util.Optional.of("TRUNCATE")));
        assertThat(view().last()).hasValueSatisfying(r -> assertThat(r.busy()).isTrue());
        assertThat(budget.open()).as("kept for the next try").isEqualTo(1);
        long runs = view().completed();

        for (int i = 0; i < quietTicks() - 1; i++) {
            tick();
        }
        awaitPoolQuiet();
        assertThat(view().completed()).as("not again within the quiet period").isEqualTo(runs);
        assertThat(checkpointer.active()).isTrue();
        endSnapshot();
        tick();
        awaitTrue("the second truncate", () -> view().completed() == runs + 1);
        assertThat(view().last()).hasValueSatisfying(r -> assertThat(r.busy()).isFalse());
        assertThat(Files.size(wal())).isZero();
        awaitTrue("its connection closed", () -> budget.open() == 0);
    }

    // ------------------------------------------------------------------ the WAL-reset bug

    /**
     * Replaces the test's checkpointer by one that runs every checkpoint whole on the writer, as
     * on a SQLite with the WAL-reset bug.
     */
    private void onTheWriterOnly() throws Exception {
        checkpointer.close().get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        checkpointer = new Checkpointer(db, "cp.db", Synchronous.NORMAL, pool, budget, clock,
                clock, new Identity(db, "cp.db", false, 0, lease, null), () -> stats,
                MetricsReporter.NONE, ConnectionSettings.NONE, retired::add, this::onWriter, true);
    }

    /**
     * The connections here are the test's writer, its reader and whatever the checkpointer opens
     * (counted by the budget): a checkpoint on any but the writer would show as a connection of
     * the checkpointer's, or as a checkpoint not run through {@link #onWriter}.
     */
    @Test
    void withTheWalResetBugEveryCheckpointRunsWholeOnTheWriterAndNoOtherConnectionOpens()
            throws Exception {
        onTheWriterOnly();
        checkpointer.wrote();
        holdSnapshot();
        insert(10); // frames past the reader's snapshot: no checkpoint can copy them all
        lengthenWal(Checkpointer.WAL_THRESHOLD_BYTES + MIB);
        tick();
        awaitTrue("a checkpoint", () -> view().completed() == 1);
        assertThat(tails.get()).as("run on the writer").isOne();
        assertThat(view().lastMode()).contains("RESTART");
        assertThat(view().last()).as("it waited for the reader, in vain")
                .hasValueSatisfying(r -> assertThat(r.busy()).isTrue());
        assertThat(budget.open()).as("no connection of the checkpointer's").isZero();

        endSnapshot();
        insert(5);
        lengthenWal(Checkpointer.WAL_THRESHOLD_BYTES + 2 * MIB);
        tick();
        awaitTrue("the next look's checkpoint", () -> view().completed() == 2);
        assertThat(tails.get()).isEqualTo(2);
        assertThat(view().last()).as("with the reader gone, all copied")
                .hasValueSatisfying(r -> assertThat(r.complete()).isTrue());

        for (int i = 0; i <= quietTicks(); i++) {
            tick();
        }
        awaitTrue("the quiet period's truncate", () -> view().completed() == 3);
        assertThat(view().lastMode()).contains("TRUNCATE");
        assertThat(tails.get()).as("on the writer too").isEqualTo(3);
        assertThat(Files.size(wal())).isZero();
        tick();
        awaitPoolQuiet();
        assertThat(checkpointer.active()).as("the looks end").isFalse();
        assertThat(retired).containsExactly(checkpointer);
        assertThat(budget.open()).as("never a connection of its own").isZero();
    }

    @Test
    void withTheWalResetBugASmallWalQuietForThePeriodGetsNoCheckpoint() throws Exception {
        onTheWriterOnly();
        checkpointer.wrote();
        for (int i = 0; i <= quietTicks(); i++) {
            tick();
        }
        awaitPoolQuiet();
        assertThat(checkpointer.active()).isFalse();
        assertThat(tails.get()).as("nothing queued on the writer").isZero();
        assertThat(view().completed()).isZero();
    }

    /** Ticks in one quiet period. */
    private static int quietTicks() {
        return (int) (Checkpointer.QUIET.toMillis() / Checkpointer.TICK.toMillis());
    }

    // ------------------------------------------------------------------ the run state

    @Test
    void requestsWhileATurnWaitsBecomeOneTurnOfTheStrongestKind() throws Exception {
        holdThePool();
        checkpointer.request(Checkpointer.Kind.PASSIVE);
        checkpointer.request(Checkpointer.Kind.TRUNCATE);
        checkpointer.request(Checkpointer.Kind.PASSIVE);
        assertThat(pool.snapshot().runnableBackground()).as("submitted once").isEqualTo(1);

        released.countDown();
        awaitTrue("the checkpoint", () -> view().completed() == 1);
        awaitPoolQuiet();
        assertThat(view().completed()).isEqualTo(1);
        assertThat(view().lastMode()).contains("TRUNCATE");
        assertThat(budget.open()).as("a truncate that was not busy closes its connection")
                .isZero();
    }

    @Test
    void closeEndsTheTicksRefusesLaterRequestsAndClosesTheConnectionOnAPoolThread()
            throws Exception {
        checkpointer.wrote();
        checkpointer.request(Checkpointer.Kind.PASSIVE);
        awaitTrue("a checkpoint", () -> view().completed() == 1);
        assertThat(budget.open()).isEqualTo(1);

        var closed = checkpointer.close();
        closed.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(budget.open()).as("its connection closed").isZero();
        assertThat(clock.pending()).as("no more ticks").isZero();
        assertThat(checkpointer.close()).as("idempotent").isSameAs(closed);
        assertThat(retired).as("closed, not retired").isEmpty();

        checkpointer.request(Checkpointer.Kind.TRUNCATE);
        lengthenWal(Checkpointer.WAL_THRESHOLD_BYTES + MIB);
        checkpointer.tick();
        awaitPoolQuiet();
        assertThat(view().completed()).isEqualTo(1);
        assertThat(checkpointer.wrote()).as("a closed one ignores writes; it is not retired")
                .isTrue();
        assertThat(clock.pending()).as("a closed checkpointer does not start ticking").isZero();
    }

    @Test
    void aCloseWhileATurnWaitsDropsItsCheckpoint() throws Exception {
        holdThePool();
        checkpointer.request(Checkpointer.Kind.TRUNCATE);
        var closed = checkpointer.close();
        assertThat(closed).isNotDone();

        released.countDown();
        closed.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(view().completed()).isZero();
        assertThat(budget.open()).isZero();
    }

    @Test
    void aDatabaseNotYetCreatedIsLeftAlone() throws Exception {
        Path later = dir.toRealPath().resolve("later.db");
        CheckpointRecord laterStats = new CheckpointRecord(CheckpointMode.DEDICATED);
        Checkpointer early = new Checkpointer(later, "later.db", Synchronous.NORMAL, pool, budget,
                clock, clock, new Identity(later, "later.db", false, 0, lease, null),
                () -> laterStats, MetricsReporter.NONE, ConnectionSettings.NONE, retired::add,
                this::onWriter, false);
        early.request(Checkpointer.Kind.TRUNCATE);
        awaitPoolQuiet();
        assertThat(budget.open()).as("no connection opened").isZero();
        assertThat(Files.exists(later)).as("nor the file created").isFalse();
        assertThat(laterStats.view(later).completed()).isZero();
        early.close().get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
