package dev.lanes;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.countOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A read that would never end does not outlive its database's close: {@code shutdownNow()} at
 * once, and {@code close()} once its {@code closeTimeout} passed, stop it inside SQLite. The read
 * fails with {@link ReadFailedException} saying the database closed, its reader closes, the
 * file's lease is released, and a new runtime opens the file and writes to it.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunawayReadCloseTest {
    /**
     * Counts without end; {@code started()} tells the test that SQLite runs it. Only a stop
     * from outside ends it.
     */
    static final String RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT started() UNION ALL "
            + "SELECT x + 1 FROM c) SELECT count(*) FROM c";

    /** A close timeout the close passes: it waits for a read that never ends on its own. */
    static final Duration SHORT = Duration.ofMillis(100);

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    private final CountDownLatch started = new CountDownLatch(1);

    /** Opens {@code name} in {@code lanes} with the {@code started()} function. */
    private Database open(Lanes lanes, String name, Duration closeTimeout) {
        return TestLanes.openWithTable(lanes, runtime.dir(), name, DatabaseOptions.builder()
                .closeTimeout(closeTimeout)
                .function("started", 0, () -> new org.sqlite.Function() {
                    @Override
                    protected void xFunc() throws SQLException {
                        started.countDown();
                        result(1);
                    }
                }).build());
    }

    /** The runaway query, run by its caller's own platform thread (no one can cancel it). */
    private static CompletableFuture<?> queryOnPlatformThread(Database db) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(db.query(RUNAWAY));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "runaway-read");
        t.setDaemon(true);
        t.start();
        return result;
    }

    /** The runaway query in a read body, asynchronously (on the runtime's pool). */
    private static CompletableFuture<?> bodyOnPool(Database db) {
        return db.readAsync(c -> {
            try (ResultSet rs = c.createStatement().executeQuery(RUNAWAY)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** {@code close} must give up waiting for the read: it never ends on its own. */
    private static Runnable timesOut(Runnable close) {
        return () -> assertThat(catchThrowable(close::run)).as("the close waited in vain")
                .isInstanceOf(CloseTimeoutException.class);
    }

    @Test
    void closeStopsARunawayQueryOnceItsTimeoutPassed() throws Exception {
        Database db = open(runtime.lanes(), "close-query.db", SHORT);
        assertCloseStops(db, queryOnPlatformThread(db), timesOut(db::close), "closeTimeout");
    }

    @Test
    void closeStopsARunawayAsynchronousReadOnceItsTimeoutPassed() throws Exception {
        Database db = open(runtime.lanes(), "close-async.db", SHORT);
        assertCloseStops(db, bodyOnPool(db), timesOut(db::close), "closeTimeout");
    }

    @Test
    void shutdownNowStopsARunawayQuery() throws Exception {
        // the close timeout only bounds a hang: shutdownNow returns once the read stopped
        Database db = open(runtime.lanes(), "shutdown-query.db", TestLanes.WAIT);
        assertCloseStops(db, queryOnPlatformThread(db), db::shutdownNow, "shut down");
    }

    @Test
    void shutdownNowStopsARunawayAsynchronousRead() throws Exception {
        Database db = open(runtime.lanes(), "shutdown-async.db", TestLanes.WAIT);
        assertCloseStops(db, bodyOnPool(db), db::shutdownNow, "shut down");
    }

    @Test
    void theRuntimesCloseStopsARunawayReadOnceTheTimeoutPassed() throws Exception {
        Lanes lanes = runtime.another();
        Database db = open(lanes, "runtime-close.db", SHORT);
        assertCloseStops(db, queryOnPlatformThread(db), timesOut(lanes::close), "closeTimeout");
    }

    /**
     * Once {@code read} runs in SQLite, {@code close} stops it: it fails as {@link
     * #assertStoppedByTheClose} says, and the file is free for a new runtime.
     */
    private void assertCloseStops(Database db, CompletableFuture<?> read, Runnable close,
            String why) throws InterruptedException {
        await(started, "the runaway read to run in SQLite");
        close.run();
        assertStoppedByTheClose(read, why);
        assertFileReusable(db);
    }

    /**
     * The read ended, within {@link TestLanes#WAIT} (a bound on a hang, not a measure), with the
     * typed read failure that says the database closed and why.
     */
    private static void assertStoppedByTheClose(CompletableFuture<?> read, String why)
            throws InterruptedException {
        Throwable failure;
        try {
            Object value = read.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("the runaway read returned " + value);
        } catch (ExecutionException e) {
            failure = e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the close did not stop the runaway read", e);
        }
        assertThat(failure).isInstanceOf(ReadFailedException.class);
        ReadFailedException e = (ReadFailedException) failure;
        assertThat(e.code()).isEqualTo(ErrorCode.READ_FAILED);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("the database closed while the read ran")
                .contains(why);
    }

    /**
     * The close completes (the reader connections closed, the lease released), and a new
     * runtime opens the same file and writes to it.
     */
    private void assertFileReusable(Database db) {
        awaitTrue("the close to complete", () -> db.state() == DatabaseState.CLOSED);
        Lanes next = runtime.another();
        Database again = next.open(db.path());
        again.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(countOf(again, "after")).isEqualTo(1);
        next.close();
    }
}
