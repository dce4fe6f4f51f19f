package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.BusyException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.ErrorCode;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteOutcome;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Another connection holding SQLite's write lock makes writes fail BUSY without running them. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExternalLockTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void aWriteBlockedByAnotherConnectionsLockFailsBusyAndItsBodyNeverRuns() throws Exception {
        Database db = runtime.openWithTable("busy.db",
                DatabaseOptions.builder().busyTimeout(Duration.ofMillis(200)).build());
        Path file = db.path();
        try (Connection external = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = external.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            s.execute("INSERT INTO t(v) VALUES ('external')");

            AtomicBoolean ran = new AtomicBoolean();
            BusyException e = catchThrowableOfType(BusyException.class, () -> db.write(c -> {
                ran.set(true);
                return insert("lanes").apply(c);
            }));
            BusyException async = (BusyException) TestLanes.failureOf(db.writeAsync(c -> {
                ran.set(true);
                return null;
            }));

            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.code()).isEqualTo(ErrorCode.BUSY);
            assertThat(e.retryable()).isTrue();
            assertThat(async.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(ran).as("the body of a write refused busy never ran").isFalse();
            assertThat(db.diagnostics().writer().poisoned()).isFalse();

            s.execute("ROLLBACK");
        }
        assertThat(db.write(insert("after"))).isEqualTo("after");
        assertThat(countOf(db, "after")).isEqualTo(1);
        assertThat(countOf(db, "lanes")).isZero();
        assertThat(countOf(db, "external")).isZero();
    }

    @Test
    void aWriteWaitsOutAnExternalLockThatEndsWithinBusyTimeout() throws Exception {
        Database db = runtime.open("wait.db",
                DatabaseOptions.builder().busyTimeout(Duration.ofSeconds(20)).build());
        // Counts the lane's BEGIN IMMEDIATE attempts (installed before the connection opens).
        java.util.concurrent.Semaphore begins = new java.util.concurrent.Semaphore(0);
        ((dev.lanes.internal.engine.DatabaseImpl) db).lane().faults(point -> {
            if (point == dev.lanes.internal.sqlite.FaultInjector.Point.BEGIN) {
                begins.release();
            }
        });
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        try (Connection external = DriverManager.getConnection("jdbc:sqlite:" + db.path());
                Statement s = external.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            s.execute("INSERT INTO t(v) VALUES ('external')");
            begins.drainPermits();
            java.util.concurrent.CompletableFuture<String> write = db.writeAsync(insert("lanes"));
            assertThat(begins.tryAcquire(TestLanes.WAIT.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS)).as("the write tried BEGIN").isTrue();
            assertThat(write).as("it waits while the lock is held").isNotDone();
            s.execute("COMMIT");
            assertThat(TestLanes.join(write)).isEqualTo("lanes");
        }
        assertThat(countOf(db, "external")).isEqualTo(1);
        assertThat(countOf(db, "lanes")).isEqualTo(1);
    }
}
