package dev.lanes.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.ErrorCode;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener.Operation;
import dev.lanes.MetricsListener.Outcome;
import dev.lanes.OverloadedException;
import dev.lanes.ReadFailedException;
import dev.lanes.Statement;
import dev.lanes.TestLanes;
import dev.lanes.Transaction;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.telemetry.Recording.Completed;
import dev.lanes.internal.telemetry.Recording.Started;
import dev.lanes.internal.telemetry.Recording.Token;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every request is bracketed for the metrics listener: {@code requestStarted} on the thread that
 * submits it, then {@code requestCompleted} exactly once with its outcome, before the caller
 * sees it, whichever path it took (committed, failed, refused at admission, drained by a
 * shutdown, cancelled, an interactive transaction from begin to its end, a read).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RequestBracketsTest {
    @TempDir
    Path dir;

    private final Recording recording = new Recording();
    private Lanes lanes;

    @BeforeEach
    void start() {
        lanes = Lanes.builder().name("brackets").maxThreads(2).metrics(recording).build();
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    private Database open(String name, DatabaseOptions options) {
        Database db = lanes.open(dir.resolve(name), options);
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
        return db;
    }

    private Database open(String name) {
        return open(name, DatabaseOptions.DEFAULTS);
    }

    private static dev.lanes.SqlFunction<Integer> insert(String v) {
        return c -> {
            try (var s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                s.setString(1, v);
                return s.executeUpdate();
            }
        };
    }

    /** Holds the writer lane in a body until the returned latch is counted down. */
    private static CountDownLatch block(Database db) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        db.writeAsync(Recording.holding(running, release));
        assertThat(running.await(Recording.WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        return release;
    }

    /** Whether the request {@code token} stands for was completed already. */
    private CompletableFuture<Boolean> completedWhenSeen(CompletableFuture<?> future,
            Token token) {
        return future.handle((v, e) -> !recording.completionsOf(token).isEmpty());
    }

    @Test
    void aWriteIsBracketedOnItsCallersThreadAndCompletedBeforeTheCallerSeesItsOutcome()
            throws Exception {
        Database db = open("writes.db");

        assertThat(db.write(WriteOptions.builder().label("orders.insert").build(), insert("a")))
                .isEqualTo(1);
        Started write = recording.lastStartedHere();
        assertThat(write.db()).isEqualTo("writes.db");
        assertThat(write.operation()).isEqualTo(Operation.WRITE);
        assertThat(write.label()).isEqualTo("orders.insert");
        Completed committed = recording.completionOf(write.token());
        assertThat(committed.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(committed.failure()).isNull();
        assertThat(committed.groupSize()).isEqualTo(1);
        assertThat(committed.replayed()).isFalse();
        assertThat(committed.totalNanos()).isGreaterThanOrEqualTo(committed.queueWaitNanos());

        WriteFailedException refused = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(c -> {
                    throw new SQLException("the body refuses");
                }));
        Completed rolledBack = recording.lastCompletedHere();
        assertThat(rolledBack.outcome()).isEqualTo(Outcome.ROLLED_BACK);
        assertThat(rolledBack.failure()).isSameAs(TestLanes.asRecorded(refused));

        assertThat(db.<Integer>maintenance(c -> 7)).isEqualTo(7);
        assertThat(recording.lastStartedHere().operation()).isEqualTo(Operation.MAINTENANCE);
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(recording.lastCompletedHere().groupSize()).isEqualTo(1);

        db.executeBatch(List.of(new Statement("INSERT INTO t(v) VALUES (?)", List.of("b")),
                new Statement("INSERT INTO t(v) VALUES (?)", List.of("c"))));
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.COMMITTED);
        db.executeScript("INSERT INTO t(v) VALUES ('d'); INSERT INTO t(v) VALUES ('e')");
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.COMMITTED);

        // asynchronous: a callback chained on the future finds the request completed already
        CompletableFuture<Integer> async = db.writeAsync(insert("f"));
        Token asyncToken = recording.lastStartedHere().token();
        assertThat(completedWhenSeen(async, asyncToken).get(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Object> failing = db.writeAsync(c -> {
            throw new SQLException("no");
        });
        Token failingToken = recording.lastStartedHere().token();
        assertThat(completedWhenSeen(failing, failingToken).get(30, TimeUnit.SECONDS)).isTrue();
        ExecutionException e = catchThrowableOfType(ExecutionException.class, failing::get);
        assertThat(recording.completionOf(failingToken).failure()).isSameAs(e.getCause());

        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(6);
        recording.assertBalanced();
    }

    @Test
    void aGroupReportsItsSizeAndQueueWaitAndTheNeighboursReplayedAfterOneEndedItsTransaction()
            throws Exception {
        Database db = open("group.db");
        db.execute("CREATE TABLE taken(k INTEGER PRIMARY KEY)");
        db.execute("INSERT INTO taken(k) VALUES (1)");

        CountDownLatch release = block(db);
        CompletableFuture<Integer> before = db.writeAsync(
                WriteOptions.builder().label("before").build(), insert("before"));
        CompletableFuture<Integer> culprit = db.writeAsync(
                WriteOptions.builder().label("culprit").build(), c -> {
                    try (var s = c.createStatement()) {
                        // a conflict that ends the whole shared transaction
                        return s.executeUpdate("INSERT OR ROLLBACK INTO taken(k) VALUES (1)");
                    }
                });
        CompletableFuture<Integer> after = db.writeAsync(
                WriteOptions.builder().label("after").build(), insert("after"));
        release.countDown();
        assertThat(after.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(before.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(catchThrowable(culprit::get)).hasCauseInstanceOf(WriteFailedException.class);

        Completed replayed = completionLabelled("before");
        assertThat(replayed.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(replayed.replayed()).as("its body ran again in a fresh transaction").isTrue();
        assertThat(replayed.groupSize()).as("the transaction that committed it").isEqualTo(2);
        assertThat(replayed.queueWaitNanos()).as("it waited behind the blocker").isPositive();
        assertThat(replayed.totalNanos()).isGreaterThan(replayed.queueWaitNanos());

        Completed failed = completionLabelled("culprit");
        assertThat(failed.outcome()).isEqualTo(Outcome.ROLLED_BACK);
        assertThat(failed.groupSize()).as("the transaction it ended").isEqualTo(3);
        assertThat(failed.replayed()).isFalse();
        assertThat(((LanesException) failed.failure()).outcome())
                .isEqualTo(WriteOutcome.ROLLED_BACK);

        Completed untouched = completionLabelled("after");
        assertThat(untouched.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(untouched.replayed()).as("it first ran in the fresh transaction").isFalse();
        recording.assertBalanced();
    }

    private Completed completionLabelled(String label) {
        Started s = recording.started.stream().filter(x -> label.equals(x.label())).findFirst()
                .orElseThrow();
        return recording.completionOf(s.token());
    }

    @Test
    void refusalsAtAdmissionAreCompletedNotStartedOutsideAnyGroup() throws Exception {
        Database db = open("refusals.db", DatabaseOptions.builder().writeQueueCapacity(1)
                .writeQueueTimeout(Duration.ZERO)
                .build());
        CountDownLatch release = block(db);
        CompletableFuture<Integer> queued = db.writeAsync(insert("queued"));
        OverloadedException overloaded = catchThrowableOfType(OverloadedException.class,
                () -> db.write(insert("refused")));
        Completed refusal = recording.lastCompletedHere();
        assertThat(refusal.outcome()).isEqualTo(Outcome.NOT_STARTED);
        assertThat(refusal.failure()).isSameAs(overloaded);
        assertThat(refusal.groupSize()).isZero();
        assertThat(refusal.queueWaitNanos()).isZero();
        release.countDown();
        assertThat(queued.get(30, TimeUnit.SECONDS)).isEqualTo(1);

        db.close();
        ClosedException closed = catchThrowableOfType(ClosedException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('late')"));
        assertThat(recording.lastCompletedHere().failure()).isSameAs(closed);
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.NOT_STARTED);
        catchThrowableOfType(ClosedException.class, db::begin);
        assertThat(recording.lastStartedHere().operation()).isEqualTo(Operation.TRANSACTION);
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.NOT_STARTED);
        recording.assertBalanced();
    }

    @Test
    void writesDrainedByShutdownNowAreCompletedNotStartedOnce() throws Exception {
        Database db = open("drained.db");
        CountDownLatch release = block(db);
        List<CompletableFuture<Integer>> queued = new ArrayList<>();
        List<Token> tokens = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            queued.add(db.writeAsync(insert("queued-" + i)));
            tokens.add(recording.lastStartedHere().token());
        }
        Thread shutdown = new Thread(db::shutdownNow, "shutdown");
        shutdown.start();
        for (int i = 0; i < queued.size(); i++) {
            // failed before shutdownNow waits for the running turn
            Throwable failure = catchThrowableOfType(ExecutionException.class,
                    queued.get(i)::get).getCause();
            Completed drained = recording.completionOf(tokens.get(i));
            assertThat(drained.outcome()).isEqualTo(Outcome.NOT_STARTED);
            assertThat(drained.failure()).isSameAs(failure);
            assertThat(drained.groupSize()).isZero();
        }
        release.countDown();
        shutdown.join(Recording.WAIT.toMillis());
        assertThat(shutdown.isAlive()).isFalse();
        recording.assertBalanced();
    }

    @Test
    void aWriteCancelledWhileQueuedIsCompletedWhenTheQueueDropsIt() throws Exception {
        Database db = open("cancelled.db");
        CountDownLatch release = block(db);
        CompletableFuture<Integer> cancelled = db.writeAsync(insert("cancelled"));
        Token token = recording.lastStartedHere().token();
        assertThat(cancelled.cancel(false)).isTrue();
        CompletableFuture<Integer> next = db.writeAsync(insert("next"));
        release.countDown();
        assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo(1);

        // nobody waits for the holding write's future, whose report its own turn makes after
        // handing the lane on: on a loaded machine the next write can complete first
        Recording.await("every request's report",
                () -> recording.completed.size() >= recording.started.size());
        Completed dropped = recording.completionOf(token);
        assertThat(dropped.outcome()).isEqualTo(Outcome.NOT_STARTED);
        assertThat(dropped.failure()).isInstanceOf(CancelledException.class);
        assertThat(((LanesException) dropped.failure()).code()).isEqualTo(ErrorCode.CANCELLED);
        assertThat(dropped.groupSize()).isZero();
        assertThat(db.query("SELECT count(*) AS n FROM t WHERE v = 'cancelled'").get(0)
                .getLong("n")).isZero();
        recording.assertBalanced();
    }

    @Test
    void anInteractiveTransactionIsOneRequestFromBeginToItsEnd() {
        Database db = open("tx.db");
        int before = recording.started.size();

        try (Transaction tx = db.begin()) {
            Started begun = recording.lastStartedHere();
            assertThat(begun.operation()).isEqualTo(Operation.TRANSACTION);
            tx.execute("INSERT INTO t(v) VALUES ('a')");
            tx.execute("INSERT INTO t(v) VALUES ('b')");
            assertThat(recording.completionsOf(begun.token())).as("still open").isEmpty();
            tx.commit();
            Completed committed = recording.completionOf(begun.token());
            assertThat(committed.outcome()).isEqualTo(Outcome.COMMITTED);
            assertThat(committed.failure()).isNull();
            assertThat(committed.groupSize()).isEqualTo(1);
        }
        assertThat(recording.started).as("its statements are not requests of their own")
                .hasSize(before + 1);

        Transaction rolledBack = db.begin();
        rolledBack.execute("INSERT INTO t(v) VALUES ('c')");
        rolledBack.rollback();
        Completed asked = recording.lastCompletedHere();
        assertThat(asked.outcome()).isEqualTo(Outcome.ROLLED_BACK);
        assertThat(asked.failure()).as("a rollback asked for is no failure").isNull();

        try (Transaction forgotten = db.begin()) {
            forgotten.execute("INSERT INTO t(v) VALUES ('d')");
        } // closed without commit: rolled back
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.ROLLED_BACK);

        Transaction idle = db.begin(TransactionOptions.builder()
                .idleTimeout(Duration.ofMillis(50)).build());
        Token idleToken = recording.lastStartedHere().token();
        idle.execute("INSERT INTO t(v) VALUES ('e')");
        Recording.await("the idle transaction's end",
                () -> !recording.completionsOf(idleToken).isEmpty());
        Completed expired = recording.completionOf(idleToken);
        assertThat(expired.outcome()).isEqualTo(Outcome.ROLLED_BACK);
        assertThat(expired.failure()).as("what its next call is told")
                .isInstanceOf(WriteFailedException.class)
                .hasMessageContaining("idle");
        assertThat(catchThrowable(() -> idle.execute("INSERT INTO t(v) VALUES ('f')")))
                .isInstanceOf(WriteFailedException.class);
        assertThat(db.query("SELECT group_concat(v) AS v FROM t").get(0).getString("v"))
                .isEqualTo("a,b");
        recording.assertBalanced();
    }

    @Test
    void aCommitThatMayHavePersistedIsCompletedUnknown() {
        Database db = open("lost.db");
        ((DatabaseImpl) db).faults(new FaultInjector() {
            @Override
            public void before(Point point) {}

            @Override
            public void after(Point point) throws SQLException {
                if (point == Point.COMMIT) {
                    throw new SQLException("injected: the sync after COMMIT failed");
                }
            }
        });
        LanesException lost = catchThrowableOfType(LanesException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('maybe')"));
        assertThat(lost.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        Completed unknown = recording.lastCompletedHere();
        assertThat(unknown.outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(unknown.failure()).isSameAs(TestLanes.asRecorded(lost));

        // the poisoned writer refuses later writes at admission
        LanesException refused = catchThrowableOfType(LanesException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('later')"));
        assertThat(refused.code()).isEqualTo(ErrorCode.WRITER_POISONED);
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.NOT_STARTED);
        recording.assertBalanced();
    }

    @Test
    void readsAreBracketedAsSucceededOrFailedBeforeTheCallerSeesThem() throws Exception {
        Database db = open("reads.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");

        assertThat(db.query("SELECT v FROM t").get(0).getString("v")).isEqualTo("x");
        Started query = recording.lastStartedHere();
        assertThat(query.operation()).isEqualTo(Operation.READ);
        assertThat(query.label()).isNull();
        Completed succeeded = recording.completionOf(query.token());
        assertThat(succeeded.outcome()).isEqualTo(Outcome.SUCCEEDED);
        assertThat(succeeded.groupSize()).isEqualTo(1);

        ReadFailedException failed = catchThrowableOfType(ReadFailedException.class,
                () -> db.read(c -> {
                    throw new SQLException("the read body refuses");
                }));
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(recording.lastCompletedHere().failure()).isSameAs(failed);

        CompletableFuture<Long> async = db.readAsync(c -> {
            try (var s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return rs.getLong(1);
            }
        });
        Token asyncToken = recording.lastStartedHere().token();
        assertThat(completedWhenSeen(async, asyncToken).get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(async.get()).isEqualTo(1L);
        assertThat(recording.completionOf(asyncToken).outcome()).isEqualTo(Outcome.SUCCEEDED);

        // while corked, reads run on the lane: still one read each
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
        assertThat(recording.lastStartedHere().operation()).isEqualTo(Operation.READ);
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.SUCCEEDED);
        CompletableFuture<Integer> corkedAsync = db.readAsync(c -> 5);
        Token corkedToken = recording.lastStartedHere().token();
        assertThat(recording.lastStartedHere().operation()).isEqualTo(Operation.READ);
        assertThat(completedWhenSeen(corkedAsync, corkedToken).get(30, TimeUnit.SECONDS))
                .isTrue();
        assertThat(recording.completionOf(corkedToken).outcome()).isEqualTo(Outcome.SUCCEEDED);
        assertThat(recording.completionOf(corkedToken).groupSize()).isEqualTo(1);
        db.uncork();

        db.close();
        Throwable closed = catchThrowable(() -> db.readAsync(c -> 1).get(30, TimeUnit.SECONDS));
        assertThat(closed).isNotNull();
        assertThat(recording.lastCompletedHere().outcome()).isEqualTo(Outcome.FAILED);
        recording.assertBalanced();
    }
}
