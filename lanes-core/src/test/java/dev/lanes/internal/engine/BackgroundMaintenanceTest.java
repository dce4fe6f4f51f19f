package dev.lanes.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.SqlFunction;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The maintenance the database runs on its writer lane for itself (the checkpointer's tail,
 * {@code WriterLane.backgroundMaintenance}) is not a caller's write: it is not counted as a
 * commit, and its I/O failure, which leaves every frame in the WAL, does not poison the writer,
 * while the same failure in a caller's {@code db.maintenance} still does.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BackgroundMaintenanceTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().name("bgm").build();

    /** A checkpoint whose sync failed, as SQLite reports it. */
    private static final SqlFunction<Object> FAILED_SYNC = c -> {
        throw new SQLiteException("disk I/O error", SQLiteErrorCode.SQLITE_IOERR_FSYNC);
    };

    private static <T> CompletableFuture<T> background(Database db, SqlFunction<?> body) {
        DatabaseImpl impl = (DatabaseImpl) db;
        return impl.submitAsync(impl.lane().backgroundMaintenance(body));
    }

    @Test
    void aBackgroundCheckpointRunsOnTheWriterAndIsNotCountedAsACommit() throws Exception {
        Database db = runtime.openWithTable("counted.db", DatabaseOptions.DEFAULTS);
        db.execute("INSERT INTO t(v) VALUES ('a')");
        long committed = db.diagnostics().writer().counters().committed();

        Object busy = background(db, c -> {
            try (var s = c.createStatement();
                    var rs = s.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
                rs.next();
                return rs.getInt(1);
            }
        }).get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(busy).as("the checkpoint ran, not busy").isEqualTo(0);
        assertThat(db.diagnostics().writer().counters().committed()).as("not a commit").isEqualTo(committed);
    }

    @Test
    void aBackgroundFailureWithAnIoErrorLeavesTheWriterUsableWhereACallersPoisonsIt() {
        Database db = runtime.openWithTable("io.db", DatabaseOptions.DEFAULTS);
        Throwable failed = catchThrowable(() -> background(db, FAILED_SYNC)
                .get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(failed).hasRootCauseInstanceOf(SQLiteException.class);
        assertThat(db.diagnostics().writer().poisonCause()).as("the writer goes on").isEmpty();
        db.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);

        Throwable callers = catchThrowable(() -> db.maintenance(FAILED_SYNC));
        assertThat(callers).isInstanceOf(WriteFailedException.class);
        assertThat(((WriteFailedException) callers).outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(db.diagnostics().writer().poisonCause()).as("a caller's I/O failure poisons").isPresent();
    }
}
