package dev.lanes.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Outcomes through the data source are the standard SQL exceptions retry libraries and Spring's
 * translation understand, with the Lanes exception as the cause: unknown is SQLState 40003, a
 * retryable refusal is a {@code SQLTransientException}, a rolled-back transaction a {@code
 * SQLTransactionRollbackException}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DataSourceOutcomesTest {
    private static final long WAIT_MS = 30_000;
    @TempDir Path dir;
    private Lanes lanes;

    @AfterEach
    void close() {
        if (lanes != null) {
            lanes.close();
        }
    }

    private Database open(DatabaseOptions options) {
        lanes = Lanes.builder().name("jdbc-outcomes").maxThreads(4).build();
        Database db = lanes.open(dir.resolve("o.db"), options);
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        return db;
    }

    @Test
    void aCommitThatMayHavePersistedIsSqlState40003() throws Exception {
        Database db = open(DatabaseOptions.builder().build());
        AtomicBoolean syncFails = new AtomicBoolean();
        ((DatabaseImpl) db).faults(new FaultInjector() {
            @Override
            public void before(Point point) {}

            @Override
            public void after(Point point) throws SQLException {
                if (point == Point.COMMIT && syncFails.compareAndSet(true, false)) {
                    throw new SQLiteException("[SQLITE_IOERR_FSYNC] injected",
                            SQLiteErrorCode.SQLITE_IOERR_FSYNC);
                }
            }
        });
        syncFails.set(true);
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            SQLException e = catchThrowableOfType(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t(v) VALUES ('maybe')"));
            assertThat((Throwable) e).isNotNull();
            assertThat(e.getSQLState()).isEqualTo(SqlExceptions.COMPLETION_UNKNOWN);
            // Spring read a bare SQLException of class 40 as a transient concurrency failure,
            // which retry advice repeats blindly; the write may have persisted
            assertThat((Throwable) e).isInstanceOf(SQLRecoverableException.class)
                    .isNotInstanceOf(java.sql.SQLTransientException.class);
            assertThat(((LanesException) e.getCause()).outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        }
    }

    @Test
    void aQueueFullRefusalIsTransientAndNeverRan() throws Exception {
        Database db = open(DatabaseOptions.builder().writeQueueCapacity(1)
                .writeQueueTimeout(Duration.ZERO).build());
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> blocker = db.writeAsync(c -> {
            holding.countDown();
            return release.await(WAIT_MS, TimeUnit.MILLISECONDS);
        });
        assertThat(holding.await(WAIT_MS, TimeUnit.MILLISECONDS)).isTrue();
        CompletableFuture<Integer> queued = db.writeAsync(c -> 1); // fills the queue
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            SQLException e = catchThrowableOfType(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t(v) VALUES ('refused')"));
            assertThat((Throwable) e).isInstanceOf(SQLTransientException.class);
            assertThat(e.getCause()).isInstanceOf(OverloadedException.class);
            assertThat(((LanesException) e.getCause()).outcome())
                    .isEqualTo(WriteOutcome.NOT_STARTED);
        } finally {
            release.countDown();
        }
        assertThat(blocker.get(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo(true);
        assertThat(queued.get(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo(1);
        assertThat(db.query("SELECT count(*) AS n FROM t WHERE v = 'refused'").get(0)
                .getLong("n")).isZero();
    }

    @Test
    void aTransactionLeftIdleIsRolledBackAndItsNextStatementSaysSo() throws Exception {
        Database db = open(DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(100)).build());
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('abandoned')");
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (db.isTransactionOpen()) { // the idle timeout is a state the lane reaches
                assertThat(System.nanoTime() - deadline).as("the idle timeout to roll back")
                        .isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            SQLException e = catchThrowableOfType(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t(v) VALUES ('later')"));
            assertThat((Throwable) e).isInstanceOf(SQLTransactionRollbackException.class);
            assertThat(e.getMessage()).contains("idle");
            SQLException commit = catchThrowableOfType(SQLException.class, c::commit);
            assertThat((Throwable) commit).as("a commit cannot pretend it committed")
                    .isInstanceOf(SQLTransactionRollbackException.class);
            c.rollback();
            // a pool hands the connection out again: its next transaction starts afresh
            s.executeUpdate("INSERT INTO t(v) VALUES ('next')");
            c.commit();
        }
        assertThat(db.query("SELECT v FROM t").stream().map(r -> r.getString("v")).toList())
                .containsExactly("next");
    }
}
