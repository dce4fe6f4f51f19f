package dev.lanes.jdbc;

import static dev.lanes.jdbc.JdbcFixture.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener;
import dev.lanes.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.Function;

/**
 * {@code Statement.setQueryTimeout} holds for writes as it does for reads, with honest outcomes:
 * a write the lane has not started within the timeout (queued behind another connection's
 * transaction) fails {@code NOT_STARTED}, retryably, as an {@link SQLTimeoutException} (a {@link
 * SQLTransientException}), and never runs, not even once the lane is free; so does the {@code
 * BEGIN} of a transaction's first statement and a batch. A write that starts in time runs to its
 * end: a running write is never interrupted. Reads and read-only transactions wait at most the
 * timeout for a reader. Every wait here is ordered by what the database reports (the transaction
 * pinned, the write queued), not by sleeps; each test runs once from a platform thread and once
 * from a virtual thread where the JDK has them.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class QueryTimeoutTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();
    private final ExecutorService platform = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        platform.shutdownNow();
    }

    /** Long enough that only the statements' timeouts end the waits here. */
    private Database open(String name) {
        return fixture.open(name, DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMinutes(1))
                .readerCheckoutTimeout(Duration.ofMinutes(1)).readers(1).build());
    }

    /** A body run on another thread, giving what it threw (null when it returned). */
    private interface Call {
        void run() throws Exception;
    }

    private CompletableFuture<Throwable> onPlatformThread(Call call) {
        return CompletableFuture.supplyAsync(() -> outcome(call), platform);
    }

    private static CompletableFuture<Throwable> onVirtualThread(Call call) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
        ExecutorService virtual = (ExecutorService) Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        CompletableFuture<Throwable> f = CompletableFuture.supplyAsync(() -> outcome(call),
                virtual);
        virtual.shutdown();
        return f;
    }

    private static Throwable outcome(Call call) {
        try {
            call.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** A connection whose transaction pins the writer lane until it ends. */
    private static Connection pinning(DataSource ds) throws SQLException {
        Connection c = ds.getConnection();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t(v) VALUES ('holder')");
        }
        return c;
    }

    /** That {@code t} is a timed-out request that never started and may be retried. */
    private static void assertNeverStarted(Throwable t) {
        assertThat(t).isInstanceOf(SQLTimeoutException.class)
                .isInstanceOf(SQLTransientException.class);
        assertThat(t.getCause()).isInstanceOf(DeadlineExceededException.class);
        LanesException cause = (LanesException) t.getCause();
        assertThat(cause.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(cause.retryable()).isTrue();
        assertThat(cause).hasMessageContaining("never ran");
    }

    @Test
    void aWriteQueuedBehindATransactionTimesOutNotStartedAndLeavesNothing() throws Exception {
        writeBehindATransaction("late-platform.db", this::onPlatformThread);
    }

    @Test
    void aVirtualThreadsWriteQueuedBehindATransactionTimesOutNotStarted() throws Exception {
        writeBehindATransaction("late-virtual.db", QueryTimeoutTest::onVirtualThread);
    }

    /** Runs a body on some kind of thread. */
    private interface Runner {
        CompletableFuture<Throwable> run(Call call) throws Exception;
    }

    private void writeBehindATransaction(String file, Runner runner) throws Exception {
        Database db = open(file);
        DataSource ds = db.dataSource();
        try (Connection holder = pinning(ds)) {
            Throwable late = runner.run(() -> {
                try (Connection c = ds.getConnection();
                        PreparedStatement s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                    s.setQueryTimeout(1);
                    assertThat(s.getQueryTimeout()).isEqualTo(1);
                    s.setString(1, "late");
                    s.executeUpdate();
                }
            }).get(30, TimeUnit.SECONDS);
            assertNeverStarted(late);
            assertThat(db.diagnostics().writer().queued()).as("withdrawn from the queue").isZero();
            holder.commit();
        }
        db.execute("INSERT INTO t(v) VALUES ('after')"); // runs after anything still queued
        assertThat(count(db, "late")).as("the timed-out write never ran").isZero();
        assertThat(count(db, "holder")).isEqualTo(1);
        assertThat(count(db, "after")).isEqualTo(1);
    }

    /**
     * The metrics listener hears of a withdrawn write from a pool thread, not from the runtime's
     * timer thread, which a slow listener would otherwise hold up for every deadline and idle
     * check of the runtime.
     */
    @Test
    void aWithdrawnWritesOutcomeReachesTheListenerOffTheTimerThread() throws Exception {
        CompletableFuture<String> heardOn = new CompletableFuture<>();
        MetricsListener listener = new MetricsListener() {
            @Override
            public void requestCompleted(Object started, String db, Operation operation,
                    String label, Outcome outcome, Throwable failure, boolean replayed,
                    int groupSize, long queueWaitNanos, long totalNanos) {
                if (failure instanceof DeadlineExceededException) {
                    heardOn.complete(Thread.currentThread().getName());
                }
            }
        };
        Database db = fixture.open("listener.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMinutes(1)).build(), listener);
        DataSource ds = db.dataSource();
        try (Connection holder = pinning(ds)) {
            Throwable late = onPlatformThread(() -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    s.setQueryTimeout(1);
                    s.executeUpdate("INSERT INTO t(v) VALUES ('late')");
                }
            }).get(30, TimeUnit.SECONDS);
            assertNeverStarted(late);
            holder.commit();
        }
        assertThat(heardOn.get(30, TimeUnit.SECONDS)).doesNotEndWith("-timer");
    }

    @Test
    void aTransactionsFirstStatementQueuedBehindAnotherTimesOutAndTheConnectionGoesOn()
            throws Exception {
        Database db = open("begin.db");
        DataSource ds = db.dataSource();
        try (Connection second = ds.getConnection()) {
            second.setAutoCommit(false);
            try (Connection holder = pinning(ds)) {
                Throwable late = onPlatformThread(() -> {
                    try (Statement s = second.createStatement()) {
                        s.setQueryTimeout(1);
                        s.executeUpdate("INSERT INTO t(v) VALUES ('second')");
                    }
                }).get(30, TimeUnit.SECONDS);
                assertNeverStarted(late);
                holder.commit();
            }
            try (Statement s = second.createStatement()) { // its transaction begins now
                s.executeUpdate("INSERT INTO t(v) VALUES ('second again')");
            }
            second.commit();
        }
        assertThat(count(db, "second")).isZero();
        assertThat(count(db, "second again")).isEqualTo(1);
        assertThat(count(db, "holder")).isEqualTo(1);
    }

    @Test
    void aBatchQueuedBehindATransactionTimesOutWhole() throws Exception {
        Database db = open("batch.db");
        DataSource ds = db.dataSource();
        try (Connection holder = pinning(ds)) {
            Throwable late = onPlatformThread(() -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    s.setQueryTimeout(1);
                    s.addBatch("INSERT INTO t(v) VALUES ('batched')");
                    s.addBatch("INSERT INTO t(v) VALUES ('batched')");
                    s.executeBatch();
                }
            }).get(30, TimeUnit.SECONDS);
            assertNeverStarted(late);
            holder.commit();
        }
        db.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(count(db, "batched")).isZero();
    }

    @Test
    void aWriteThatStartsWithinItsTimeoutRunsToItsEnd() throws Exception {
        Database db = open("in-time.db");
        DataSource ds = db.dataSource();
        CompletableFuture<Throwable> queued;
        try (Connection holder = pinning(ds)) {
            queued = onPlatformThread(() -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    s.setQueryTimeout(60);
                    assertThat(s.executeUpdate("INSERT INTO t(v) VALUES ('queued')"))
                            .isEqualTo(1);
                }
            });
            while (db.diagnostics().writer().queued() == 0 && !queued.isDone()) {
                LockSupport.parkNanos(1_000_000); // until the write waits behind the holder
            }
            holder.commit(); // long before the write's minute: the lane takes it now
        }
        assertThat(queued.get(30, TimeUnit.SECONDS)).isNull();
        assertThat(count(db, "queued")).isEqualTo(1);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1); // a free lane: the write starts at once and commits
            assertThat(s.executeUpdate("INSERT INTO t(v) VALUES ('free')")).isEqualTo(1);
        }
        assertThat(count(db, "free")).isEqualTo(1);
    }

    /**
     * The timeout bounds the wait to start, not the run: a write whose statement is still running
     * when its timeout passes is neither interrupted nor reported failed, and commits. (The one
     * timed wait here lets the timeout pass while the write runs; it orders nothing.)
     */
    @Test
    void aWriteRunningPastItsTimeoutIsNotInterruptedAndCommits() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Database db = fixture.open("long.db", DatabaseOptions.builder()
                .function("hold", 0, () -> new Function() {
                    @Override
                    protected void xFunc() throws SQLException {
                        running.countDown();
                        JdbcFixture.awaitInFunction(release);
                        result(1);
                    }
                }).build());
        CompletableFuture<Throwable> write = onPlatformThread(() -> {
            try (Connection c = db.dataSource().getConnection();
                    Statement s = c.createStatement()) {
                s.setQueryTimeout(1);
                assertThat(s.executeUpdate("INSERT INTO t(v) SELECT 'long' WHERE hold() = 1"))
                        .isEqualTo(1);
            }
        });
        assertThat(running.await(30, TimeUnit.SECONDS)).as("the write runs").isTrue();
        // past its 1 s timeout, the running write has not been failed (nor interrupted)
        assertThatThrownBy(() -> write.get(1500, TimeUnit.MILLISECONDS))
                .isInstanceOf(TimeoutException.class);
        release.countDown();
        assertThat(write.get(30, TimeUnit.SECONDS)).isNull();
        assertThat(count(db, "long")).isEqualTo(1);
    }

    @Test
    void readsWaitForAReaderAtMostTheirTimeout() throws Exception {
        Database db = open("reads.db");
        DataSource ds = db.dataSource();
        try (Connection snapshot = ds.getConnection()) {
            snapshot.setReadOnly(true);
            snapshot.setAutoCommit(false);
            assertThat(JdbcFixture.scalar(snapshot, "SELECT count(*) FROM t")).isZero();
            // the only reader is held by that snapshot until it ends
            Throwable autoCommit = onPlatformThread(() -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    s.setQueryTimeout(1);
                    s.executeQuery("SELECT count(*) FROM t").close();
                }
            }).get(30, TimeUnit.SECONDS);
            assertNeverStarted(autoCommit);
            Throwable readOnly = onPlatformThread(() -> {
                try (Connection c = ds.getConnection()) {
                    c.setReadOnly(true);
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        s.setQueryTimeout(1);
                        s.executeQuery("SELECT count(*) FROM t").close();
                    }
                }
            }).get(30, TimeUnit.SECONDS);
            assertNeverStarted(readOnly);
            snapshot.commit();
        }
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }
}
