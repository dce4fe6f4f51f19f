package dev.lanes.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.CapacityFloorException;
import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.DeadlineExceededException;
import dev.lanes.ErrorCode;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener.CheckpointTrigger;
import dev.lanes.MetricsListener.CheckpointType;
import dev.lanes.MetricsListener.Outcome;
import dev.lanes.MetricsListener;
import dev.lanes.ReadOptions;
import dev.lanes.Subscription;
import dev.lanes.TestLanes;
import dev.lanes.internal.file.Checkpointer;
import dev.lanes.internal.telemetry.Recording.Checkout;
import dev.lanes.internal.telemetry.Recording.Checkpoint;
import dev.lanes.internal.telemetry.Recording.Completed;
import dev.lanes.internal.telemetry.Recording.Event;
import dev.lanes.internal.util.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operators' events reach the metrics listener from where they happen: checkpoints (manual
 * and the dedicated checkpointer's), the end of each wait for a reader, evictions by the
 * connection budget and the reopen that follows, refusals at the disk floor, the lag of change
 * notifications; and the gauges read the live values.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OperationsEventsTest {
    @TempDir
    Path dir;

    private final Recording recording = new Recording();

    private Lanes runtime(int maxOpenConnections) {
        return Lanes.builder().name("ops").maxThreads(3).maxOpenConnections(maxOpenConnections)
                .metrics(recording).build();
    }

    private static Database withTable(Lanes lanes, Path file, DatabaseOptions options) {
        Database db = lanes.open(file, options);
        db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
        return db;
    }

    private List<Checkpoint> checkpointsOf(String db) {
        return recording.checkpoints.stream().filter(c -> c.db().equals(db))
                .collect(Collectors.toList());
    }

    @Test
    void checkpointsAreReportedWithTheirTriggerAndSQLitesReport() {
        try (Lanes lanes = runtime(0)) {
            Database db = withTable(lanes, dir.resolve("manual.db"), DatabaseOptions.DEFAULTS);
            db.execute("INSERT INTO t(v) VALUES ('x')");
            dev.lanes.CheckpointResult result = db.checkpoint();
            Checkpoint manual = checkpointsOf("manual.db").get(0);
            assertThat(manual.type()).isEqualTo(CheckpointType.PASSIVE);
            assertThat(manual.trigger()).isEqualTo(CheckpointTrigger.MANUAL);
            assertThat(manual.failed()).isFalse();
            assertThat(manual.walFrames()).isEqualTo(result.walFrames()).isPositive();
            assertThat(manual.checkpointedFrames()).isEqualTo(result.checkpointedFrames());
            assertThat(manual.busy()).isEqualTo(result.busy());
            assertThat(manual.nanos()).isPositive();

            // refused before anything ran: no checkpoint to report
            Database external = withTable(lanes, dir.resolve("external.db"),
                    DatabaseOptions.builder().checkpointMode(CheckpointMode.EXTERNAL).build());
            catchThrowableOfType(InvalidRequestException.class, external::checkpoint);
            assertThat(checkpointsOf("external.db")).isEmpty();

            // the dedicated checkpointer checkpoints a WAL past 4 MiB, then truncates it once
            // it stopped changing
            Database dedicated = withTable(lanes, dir.resolve("dedicated.db"),
                    DatabaseOptions.builder().checkpointMode(CheckpointMode.DEDICATED).build());
            dedicated.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                    + "WHERE i < 5000) INSERT INTO t(v) SELECT randomblob(1024) FROM n");
            Recording.await("the dedicated checkpointer's truncate", () -> checkpointsOf(
                    "dedicated.db").stream().anyMatch(c -> c.type() == CheckpointType.TRUNCATE));
            List<Checkpoint> background = checkpointsOf("dedicated.db");
            assertThat(background).extracting(Checkpoint::trigger)
                    .containsOnly(CheckpointTrigger.DEDICATED);
            // PASSIVE on the checkpointer's connection; a RESTART on the writer where SQLite has
            // the WAL-reset bug and checkpoints are confined to the writer
            assertThat(background.get(0).type()).as("the first").isEqualTo(
                    dev.lanes.SqliteInfo.current().walResetMitigation() ? CheckpointType.RESTART
                            : CheckpointType.PASSIVE);
            assertThat(background.get(0).walFrames()).isPositive();
            assertThat(background).extracting(Checkpoint::failed).containsOnly(false);
            assertThat(dedicated.diagnostics().checkpoints().completed()).isPositive();
        }
    }

    @Test
    void aCheckpointThatThrowsIsReportedFailed() throws SQLException {
        List<Checkpoint> heard = new CopyOnWriteArrayList<>();
        MetricsReporter reporter = new MetricsReporter("closed.db", new MetricsListener() {
            @Override
            public void checkpoint(String db, CheckpointType type, CheckpointTrigger trigger,
                    long nanos, int walFrames, int checkpointedFrames, boolean busy,
                    boolean failed) {
                heard.add(new Checkpoint(db, type, trigger, nanos, walFrames,
                        checkpointedFrames, busy, failed));
            }
        });
        Connection closed = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("c.db"));
        closed.close();
        catchThrowableOfType(SQLException.class, () -> Checkpointer.run(closed, "RESTART",
                CheckpointTrigger.MANUAL, reporter, Clock.SYSTEM));
        assertThat(heard).singleElement().satisfies(c -> {
            assertThat(c.db()).isEqualTo("closed.db");
            assertThat(c.type()).isEqualTo(CheckpointType.RESTART);
            assertThat(c.failed()).isTrue();
            assertThat(c.walFrames()).isEqualTo(-1);
            assertThat(c.checkpointedFrames()).isEqualTo(-1);
        });
    }

    @Test
    void everyWaitForAReaderEndsInOneCheckoutWithOrWithoutAReader() throws Exception {
        try (Lanes lanes = runtime(0)) {
            Database db = withTable(lanes, dir.resolve("readers.db"), DatabaseOptions.builder()
                    .readers(1).readerCheckoutTimeout(Duration.ofSeconds(30)).build());
            MetricsListener.DatabaseGauges gauges = recording.gauges.get("readers.db");

            db.query("SELECT 1");
            Checkout free = recording.checkouts.get(recording.checkouts.size() - 1);
            assertThat(free.acquired()).isTrue();
            assertThat(free.waitNanos()).as("a reader was free at once").isZero();
            assertThat(free.thread()).isSameAs(Thread.currentThread());

            // hold the only reader
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Boolean> holder = db.readAsync(Recording.holding(holding, release));
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(gauges.readersInUse()).isEqualTo(1);

            // a wait that ends at the read's deadline
            int before = recording.checkouts.size();
            DeadlineExceededException timedOut = catchThrowableOfType(
                    DeadlineExceededException.class, () -> db.reading(ReadOptions.builder()
                            .timeout(Duration.ofMillis(50)).build()).query("SELECT 2"));
            assertThat(timedOut.outcome()).isEqualTo(dev.lanes.WriteOutcome.NOT_STARTED);
            Checkout gaveUp = recording.checkouts.get(before);
            assertThat(gaveUp.acquired()).isFalse();
            assertThat(gaveUp.waitNanos()).isPositive();
            assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.FAILED);

            // an asynchronous wait cancelled while it waits
            CompletableFuture<Integer> cancelled = db.readAsync(c -> 1);
            Recording.await("the read to wait", () -> gauges.readersWaiting() == 1);
            int beforeCancel = recording.checkouts.size();
            cancelled.cancel(true);
            Recording.await("the cancelled wait's checkout",
                    () -> recording.checkouts.size() > beforeCancel);
            assertThat(recording.checkouts.get(beforeCancel).acquired()).isFalse();
            assertThat(gauges.readersWaiting()).isZero();

            // a wait that gets the reader once it is returned
            CompletableFuture<Integer> waiting = db.readAsync(c -> 2);
            Recording.await("the read to wait", () -> gauges.readersWaiting() == 1);
            int beforeGrant = recording.checkouts.size();
            release.countDown();
            assertThat(holder.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo(2);
            Checkout granted = recording.checkouts.get(beforeGrant);
            assertThat(granted.acquired()).isTrue();
            assertThat(granted.waitNanos()).isPositive();
            assertThat(gauges.readersInUse()).isZero();
        }
    }

    @Test
    void anEvictionByTheBudgetAndTheReopenAfterItAreReported() {
        try (Lanes lanes = runtime(1)) {
            Database first = withTable(lanes, dir.resolve("first.db"), DatabaseOptions.DEFAULTS);
            assertThat(recording.reopens).as("a first open is no reopen").isEmpty();
            // the second writer connection passes the cap: the idle first loses its own
            withTable(lanes, dir.resolve("second.db"), DatabaseOptions.DEFAULTS);
            Recording.await("the first database's eviction", () -> recording.evictions.stream()
                    .anyMatch(e -> e.db().equals("first.db")));
            Event evicted = recording.evictions.stream().filter(e -> e.db().equals("first.db"))
                    .findFirst().orElseThrow();
            assertThat(evicted.value()).as("its writer connection").isEqualTo(1);
            assertThat(lanes.diagnostics().openConnections()).isEqualTo(1);

            first.execute("INSERT INTO t(v) VALUES ('after the eviction')");
            Event reopened = recording.reopens.stream().filter(e -> e.db().equals("first.db"))
                    .findFirst().orElseThrow();
            assertThat(reopened.value()).as("nanoseconds").isPositive();
            assertThat(first.state()).isEqualTo(DatabaseState.RUNNING);
        }
    }

    @Test
    void aTurnRefusedAtTheDiskFloorIsReportedWithTheFreeSpaceAndTheFloor() throws Exception {
        long usable = Files.getFileStore(dir).getUsableSpace();
        long reserve = usable + (1L << 30); // more than the volume has free: every turn refuses
        try (Lanes lanes = runtime(0)) {
            Database db = lanes.open(dir.resolve("full.db"),
                    DatabaseOptions.builder().diskReserveBytes(reserve).build());
            MetricsListener.DatabaseGauges gauges = recording.gauges.get("full.db");
            assertThat(gauges.freeBytes()).as("before the first sample").isEqualTo(-1);
            assertThat(gauges.diskReserveBytes()).isEqualTo(reserve);

            CapacityFloorException refused = catchThrowableOfType(CapacityFloorException.class,
                    () -> db.execute("CREATE TABLE t(v TEXT)"));
            assertThat(recording.floorRefusals).singleElement().satisfies(e -> {
                assertThat(e.db()).isEqualTo("full.db");
                assertThat(e.value()).as("free bytes").isPositive()
                        .isLessThanOrEqualTo(e.other());
                assertThat(e.other()).as("the floor").isGreaterThanOrEqualTo(reserve);
            });
            assertThat(gauges.freeBytes()).as("the sample the refusal took")
                    .isEqualTo(recording.floorRefusals.get(0).value());
            Completed notStarted = recording.lastCompletedHere();
            assertThat(notStarted.outcome()).isEqualTo(Outcome.NOT_STARTED);
            assertThat(notStarted.failure()).isSameAs(TestLanes.asRecorded(refused));
            assertThat(((LanesException) notStarted.failure()).code())
                    .isEqualTo(ErrorCode.CAPACITY_FLOOR);
        }
    }

    @Test
    void eachSubscriberIsToldTheLagOfAChangeBeforeItsCallbackRuns() throws Exception {
        try (Lanes lanes = runtime(0)) {
            Database db = withTable(lanes, dir.resolve("changes.db"), DatabaseOptions.DEFAULTS);
            List<Integer> lagsAtCallback = new CopyOnWriteArrayList<>();
            CountDownLatch told = new CountDownLatch(2);
            try (Subscription a = db.onChange(c -> {
                        lagsAtCallback.add(recording.changeLags.size());
                        told.countDown();
                    });
                    Subscription b = db.onChange(c -> {
                        lagsAtCallback.add(recording.changeLags.size());
                        told.countDown();
                    })) {
                db.execute("INSERT INTO t(v) VALUES ('changed')");
                assertThat(told.await(30, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(recording.changeLags).hasSize(2)
                    .allSatisfy(e -> assertThat(e.db()).isEqualTo("changes.db"))
                    .allSatisfy(e -> assertThat(e.value()).isGreaterThanOrEqualTo(0));
            // the first callback ran after its own report, the second after both
            assertThat(lagsAtCallback).containsExactly(1, 2);
        }
    }

    @Test
    void theGaugesReadTheRuntimesAndTheDatabasesLiveValues() throws Exception {
        try (Lanes lanes = runtime(5)) {
            MetricsListener.PoolGauges pool = recording.pool.get();
            assertThat(pool.maxThreads()).isEqualTo(3);
            assertThat(pool.connectionBudget()).isEqualTo(5);
            Database db = withTable(lanes, dir.resolve("gauges.db"), DatabaseOptions.builder()
                    .writeQueueCapacity(8).diskReserveBytes(1 << 20).build());
            assertThat(pool.openConnections()).isEqualTo(lanes.diagnostics().openConnections())
                    .isPositive();

            MetricsListener.DatabaseGauges gauges = recording.gauges.get("gauges.db");
            assertThat(gauges.walBytes()).as("the WAL after a write").isPositive()
                    .isEqualTo(Files.size(dir.resolve("gauges.db-wal")));
            assertThat(gauges.freeBytes()).as("the write turn's sample").isPositive();
            assertThat(gauges.diskReserveBytes()).isEqualTo(1 << 20);
            assertThat(gauges.state()).isEqualTo(DatabaseState.RUNNING);
            assertThat(gauges.writerPoisoned()).isFalse();

            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Boolean> blocker = db.writeAsync(Recording.holding(running, release));
            assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Integer> q1 = db.writeAsync(c -> 1);
            CompletableFuture<Integer> q2 = db.writeAsync(c -> 2);
            assertThat(gauges.queueDepth()).isEqualTo(2)
                    .isEqualTo(db.diagnostics().writer().queued());
            release.countDown();
            blocker.get(30, TimeUnit.SECONDS);
            q1.get(30, TimeUnit.SECONDS);
            q2.get(30, TimeUnit.SECONDS);
            assertThat(gauges.queueDepth()).isZero();

            try (var tx = db.begin()) {
                assertThat(gauges.transactionOpen()).isTrue();
                tx.rollback();
            }
            assertThat(gauges.transactionOpen()).isFalse();

            db.close();
            assertThat(gauges.state()).isEqualTo(DatabaseState.CLOSED);
        }
    }
}
