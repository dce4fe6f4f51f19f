package dev.lanes;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A deadline or a cancellation stops a read inside SQLite; the reader is cleaned and reused, and
 * it is not stuck in the stopped read's snapshot.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderDeadlineTest {
    /** Counts to 10^12: hours of SQLite work unless something stops it. */
    static final String RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
            + "WHERE x < 1000000000000) SELECT max(x) FROM c";
    /** How far past its deadline a stopped read may end: generous, it only shows it stopped. */
    static final Duration SLACK = Duration.ofSeconds(2);

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("deadline.db",
                DatabaseOptions.builder().readers(1).build());
        db.execute("INSERT INTO t(v) VALUES ('before')");
    }

    @Tag("slow") // timing: bounds the stop in wall-clock time
    @Test
    void aDeadlineStopsARunawayQueryWithinAboutItsDeadline() {
        Duration timeout = Duration.ofMillis(200);
        long start = System.nanoTime();
        DeadlineExceededException e = catchThrowableOfType(DeadlineExceededException.class,
                () -> db.reading(ReadOptions.timeout(timeout)).query(RUNAWAY));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(e).isNotNull();
        assertThat(took).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plus(SLACK));
        assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
        assertThat(e.retryable()).isTrue();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("deadline.db").contains("200 ms deadline");
        assertReaderCleanAndReused();
        assertThat(db.diagnostics().readers().deadlinesExceeded()).isEqualTo(1);
    }

    @Tag("slow") // timing: bounds the stop in wall-clock time
    @Test
    void aDeadlineStopsARunawayStatementInsideABodyAndItsTransactionIsRolledBack() {
        long start = System.nanoTime();
        DeadlineExceededException e = catchThrowableOfType(DeadlineExceededException.class,
                () -> db.reading(ReadOptions.timeout(Duration.ofMillis(150))).read(c -> {
                    try (ResultSet rs = c.createStatement()
                            .executeQuery("SELECT count(*) FROM t")) {
                        rs.next(); // the body's snapshot is open now
                    }
                    try (ResultSet rs = c.createStatement().executeQuery(RUNAWAY)) {
                        rs.next();
                        return rs.getLong(1);
                    }
                }));
        assertThat(e).isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(Duration.ofMillis(150).plus(SLACK));
        assertThat(e.getCause()).as("SQLite's own report of the interrupt")
                .isInstanceOf(java.sql.SQLException.class);
        assertReaderCleanAndReused();
    }

    @Test
    void anAsynchronousReadWithADeadlineFailsInItsFuture() {
        CompletableFuture<Long> f = db.reading(ReadOptions.timeout(Duration.ofMillis(100))).readAsync(
                c -> {
                    try (ResultSet rs = c.createStatement().executeQuery(RUNAWAY)) {
                        rs.next();
                        return rs.getLong(1);
                    }
                });
        assertThat(TestLanes.failureOf(f)).isInstanceOf(DeadlineExceededException.class);
        assertReaderCleanAndReused();
    }

    @Tag("slow") // timing: bounds the stop in wall-clock time
    @Test
    void cancellingTheFutureStopsTheRunawayReadAndFreesItsReader() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Long> f = db.readAsync(c -> {
            started.countDown();
            try (ResultSet rs = c.createStatement().executeQuery(RUNAWAY)) {
                rs.next();
                return rs.getLong(1);
            }
        });
        await(started, "the runaway read to start");
        assertThat(db.diagnostics().readers().currentCheckouts()).isEqualTo(1);

        long start = System.nanoTime();
        assertThat(f.cancel(true)).isTrue();
        assertThat(f).isCancelled();
        assertThat(catchThrowable(f::join)).isInstanceOf(CancellationException.class);
        awaitTrue("the reader to come back",
                () -> db.diagnostics().readers().currentCheckouts() == 0);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("stopped inside SQLite")
                .isLessThan(SLACK);
        assertThat(db.diagnostics().readers().cancellations()).isEqualTo(1);
        assertReaderCleanAndReused();
    }

    @Test
    void orTimeoutOnTheFutureStopsTheReadToo() {
        CompletableFuture<Long> f = db.readAsync(c -> {
            try (ResultSet rs = c.createStatement().executeQuery(RUNAWAY)) {
                rs.next();
                return rs.getLong(1);
            }
        }).orTimeout(100, TimeUnit.MILLISECONDS);
        assertThat(catchThrowable(f::join)).hasCauseInstanceOf(TimeoutException.class);
        awaitTrue("the reader to come back",
                () -> db.diagnostics().readers().currentCheckouts() == 0);
        assertReaderCleanAndReused();
    }

    @Test
    void aDeadlineThatPassesWhileWaitingForAReaderFailsTheReadBeforeItRuns() {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> holder = db.readAsync(c -> {
            inside.countDown();
            release.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        });
        await(inside, "the holder to take the only reader");
        try {
            AtomicBoolean ran = new AtomicBoolean();
            DeadlineExceededException e = catchThrowableOfType(DeadlineExceededException.class,
                    () -> db.reading(ReadOptions.timeout(Duration.ofMillis(100))).read(c -> {
                        ran.set(true);
                        return null;
                    }));
            assertThat(e).isNotNull();
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getMessage()).contains("waiting").contains("for a reader");
            assertThat(ran).isFalse();
            assertThat(db.diagnostics().readers().checkoutTimeouts())
                    .as("a deadline is not a checkout timeout").isZero();
        } finally {
            release.countDown();
        }
        join(holder);
    }

    @Test
    void aBodyThatReturnsAfterItsDeadlineFailsAndStartsNoFurtherStatement() {
        java.util.concurrent.atomic.AtomicReference<Throwable> second =
                new java.util.concurrent.atomic.AtomicReference<>();
        DeadlineExceededException e = catchThrowableOfType(DeadlineExceededException.class,
                () -> db.reading(ReadOptions.timeout(Duration.ofMillis(50))).read(c -> {
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait(); // Java work that no deadline can interrupt
                    }
                    second.set(catchThrowable(() -> c.prepareStatement("SELECT 1")));
                    return "too late";
                }));
        assertThat(e).isNotNull();
        assertThat(second.get()).isInstanceOf(DeadlineExceededException.class);
        assertReaderCleanAndReused();
    }

    /** The same single reader serves the next read, outside the stopped read's snapshot. */
    private void assertReaderCleanAndReused() {
        db.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v = 'after'"))
                .as("the reader is not stuck in an old snapshot").isGreaterThanOrEqualTo(1);
        assertThat(db.<Long>read(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return rs.getLong(1);
            }
        })).isEqualTo(scalar(db, "SELECT count(*) FROM t"));
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.openConnections()).isEqualTo(1);
        assertThat(r.replacedConnections()).as("cleaned and reused, not replaced").isZero();
    }
}
