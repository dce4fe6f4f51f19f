package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.ErrorCode;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.QueueFullException;
import dev.lanes.TestLanes;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.TestRuntime;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.util.ManualClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The database's {@code writeQueueTimeout}: a write that finds the queue full waits for room, by
 * default, instead of being refused, through {@link Database#write} and the data source alike,
 * on platform and virtual threads; 0 keeps the immediate refusal; a deadline that passes fails
 * each waiter with {@link QueueFullException}, and none of them ran. The clock is manual, so a
 * waiter's deadline passes only when the test advances it.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WriteQueueTimeoutTest {
    static final int CALLERS = 16;

    final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();

    /** How a caller's thread is started. */
    interface Starter {
        Thread start(Runnable body) throws ReflectiveOperationException;
    }

    static final Starter PLATFORM = body -> {
        Thread t = new Thread(body);
        t.start();
        return t;
    };

    /** {@code Thread.ofVirtual().start(body)}, reached reflectively: the code targets JDK 17. */
    static final Starter VIRTUAL = body -> {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (Thread) Class.forName("java.lang.Thread$Builder")
                .getMethod("start", Runnable.class).invoke(builder, body);
    };

    /** A write of the callers, through the API or the data source. */
    interface Call {
        Object write(Database db, String v) throws Exception;
    }

    static final Call API = (db, v) -> db.write(insert(v));

    static final Call DATA_SOURCE = (db, v) -> {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            ps.setString(1, v);
            return ps.executeUpdate();
        }
    };

    @Test
    void platformCallersFindingTheQueueFullWaitAndAllCommitOnceTheLaneIsFree() throws Exception {
        everyCallerWaitsThenCommits(PLATFORM, API);
    }

    @Test
    void dataSourceCallersFindingTheQueueFullWaitAndAllCommitOnceTheLaneIsFree() throws Exception {
        everyCallerWaitsThenCommits(PLATFORM, DATA_SOURCE);
    }

    @Test
    void virtualCallersFindingTheQueueFullWaitAndAllCommitOnceTheLaneIsFree() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
        everyCallerWaitsThenCommits(VIRTUAL, API);
        everyCallerWaitsThenCommits(VIRTUAL, DATA_SOURCE);
    }

    private void everyCallerWaitsThenCommits(Starter starter, Call call) throws Exception {
        Database db = runtime.openWithTable("wait-" + System.nanoTime() + ".db",
                DatabaseOptions.builder().writeQueueCapacity(2).build());
        AtomicReferenceArray<Object> outcomes = new AtomicReferenceArray<>(CALLERS);
        List<Thread> callers = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            for (int i = 0; i < CALLERS; i++) {
                int n = i;
                callers.add(starter.start(() -> outcomes.set(n, outcome(() ->
                        call.write(db, "waiter-" + n)))));
            }
            for (Thread caller : callers) {
                awaitTrue("every caller to wait for room", () -> clock.isWaiting(caller));
            }
            assertThat(db.diagnostics().writer().counters().overloads()).as("nobody was refused").isZero();
            blocker.release();
            join(q1);
            join(q2);
        }
        for (Thread caller : callers) {
            caller.join(TestLanes.WAIT.toMillis());
        }
        for (int i = 0; i < CALLERS; i++) {
            assertThat(outcomes.get(i)).as("caller %d", i).isNotInstanceOf(Throwable.class);
            assertThat(countOf(db, "waiter-" + i)).as("caller %d's row", i).isEqualTo(1);
        }
    }

    @Test
    void callersWaitingForRoomGetInInTheOrderTheyArrivedAndNoneIsOvertaken() throws Exception {
        Database db = runtime.openWithTable("fifo.db",
                DatabaseOptions.builder().writeQueueCapacity(2).build());
        List<Thread> callers = new ArrayList<>();
        AtomicReferenceArray<Object> outcomes = new AtomicReferenceArray<>(CALLERS);
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            for (int i = 0; i < CALLERS; i++) {
                int n = i;
                Thread caller = PLATFORM.start(() -> outcomes.set(n, outcome(() ->
                        API.write(db, "fifo-" + n))));
                awaitTrue("caller " + n + " to wait for room", () -> clock.isWaiting(caller));
                callers.add(caller);
            }
            blocker.release();
            join(q1);
            join(q2);
        }
        for (Thread caller : callers) {
            caller.join(TestLanes.WAIT.toMillis());
        }
        List<String> order = new ArrayList<>();
        db.query("SELECT v FROM t WHERE v LIKE 'fifo-%' ORDER BY rowid")
                .forEach(r -> order.add(r.getString("v")));
        List<String> arrival = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            assertThat(outcomes.get(i)).as("caller %d", i).isNotInstanceOf(Throwable.class);
            arrival.add("fifo-" + i);
        }
        assertThat(order).as("the order the writes ran in").isEqualTo(arrival);
    }

    @Test
    void withATimeoutOfZeroAFullQueueRefusesAtOnceWithOverloaded() throws Exception {
        Database db = runtime.openWithTable("zero.db", DatabaseOptions.builder()
                .writeQueueCapacity(2).writeQueueTimeout(Duration.ZERO).build());
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            for (int i = 0; i < CALLERS; i++) {
                int n = i;
                Object api = outcome(() -> API.write(db, "refused-" + n));
                assertThat(api).isInstanceOf(OverloadedException.class);
                assertThat(((LanesException) api).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
                Object jdbc = outcome(() -> DATA_SOURCE.write(db, "refused-jdbc-" + n));
                assertThat(rootLanesCause(jdbc)).isInstanceOf(OverloadedException.class);
            }
            blocker.release();
            join(q1);
            join(q2);
        }
        assertThat(db.diagnostics().writer().counters().overloads()).isEqualTo(2L * CALLERS);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t WHERE v LIKE 'refused%'"))
                .isEqualTo(0L);
    }

    @Test
    void aRequestAskingForZeroIsRefusedAtOnceWhatTheDatabaseSays() throws Exception {
        Database db = runtime.openWithTable("ask.db",
                DatabaseOptions.builder().writeQueueCapacity(2).build());
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            Object refused = outcome(() -> db.write(WriteOptions.enqueueTimeout(Duration.ZERO),
                    insert("refused")));
            assertThat(refused).isInstanceOf(OverloadedException.class);
            Object tx = outcome(() -> db.begin(TransactionOptions.builder()
                    .enqueueTimeout(Duration.ZERO).build()));
            assertThat(tx).isInstanceOf(OverloadedException.class);
            blocker.release();
            join(q1);
            join(q2);
        }
        assertThat(countOf(db, "refused")).isZero();
    }

    @Test
    void callersWhoseDeadlinePassesGetQueueFullAndNothingOfThemIsWritten() throws Exception {
        Duration timeout = Duration.ofMillis(200);
        Database db = runtime.openWithTable("deadline.db", DatabaseOptions.builder()
                .writeQueueCapacity(2).writeQueueTimeout(timeout).build());
        AtomicReferenceArray<Object> outcomes = new AtomicReferenceArray<>(CALLERS);
        List<Thread> callers = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            for (int i = 0; i < CALLERS; i++) {
                int n = i;
                Call call = n % 2 == 0 ? API : DATA_SOURCE;
                callers.add(PLATFORM.start(() -> outcomes.set(n, outcome(() ->
                        call.write(db, "late-" + n)))));
            }
            for (Thread caller : callers) {
                awaitTrue("every caller to wait for room", () -> clock.isWaiting(caller));
            }
            clock.advance(timeout);
            for (Thread caller : callers) {
                caller.join(TestLanes.WAIT.toMillis());
                assertThat(caller.isAlive()).as("a caller past its deadline").isFalse();
            }
            blocker.release();
            join(q1);
            join(q2);
        }
        for (int i = 0; i < CALLERS; i++) {
            Object cause = rootLanesCause(outcomes.get(i));
            assertThat(cause).as("caller %d", i).isInstanceOf(QueueFullException.class);
            QueueFullException e = (QueueFullException) cause;
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.code()).isEqualTo(ErrorCode.QUEUE_FULL);
            assertThat(e.getMessage()).contains("write queue stayed full for 200 ms")
                    .contains("writeQueueCapacity");
        }
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t WHERE v LIKE 'late-%'"))
                .isEqualTo(0L);
        assertThat(countOf(db, "q1")).isEqualTo(1);
    }

    /** A call whose outcome is kept. */
    interface Body {
        Object run() throws Exception;
    }

    /** What the call returned, or what it threw. */
    private static Object outcome(Body body) {
        try {
            return body.run();
        } catch (Throwable t) {
            return t;
        }
    }

    /** The Lanes exception a JDBC failure carries, or the failure itself. */
    private static Object rootLanesCause(Object failure) {
        Throwable t = failure instanceof Throwable ? (Throwable) failure : null;
        while (t != null && !(t instanceof LanesException)) {
            t = t.getCause();
        }
        return t != null ? t : failure;
    }
}
