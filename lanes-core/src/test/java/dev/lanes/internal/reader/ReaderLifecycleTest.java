package dev.lanes.internal.reader;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.openWithTable;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.ErrorCode;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReaderDiagnostics;
import dev.lanes.ResultTooLargeException;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConnection;

/**
 * Reader connections are reused while clean, replaced when a read leaves them dirty, closed with
 * the database after the reads in flight finished; failures arrive typed and leave no trace.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderLifecycleTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("life.db", DatabaseOptions.builder().readers(1).build());
        db.execute("INSERT INTO t(v) VALUES ('first')");
    }

    @Test
    void aReaderLeftHoldingAnOldSnapshotIsReplacedNotReused() {
        // Through the escape hatch a body opens a statement the guard cannot see and leaves it
        // stepping: the connection would keep serving this snapshot to every later read.
        Object leaked = db.read(c -> {
            ResultSet rs = c.unwrap(SQLiteConnection.class).createStatement()
                    .executeQuery("SELECT v FROM t");
            rs.next();
            return rs;
        });
        assertThat(leaked).isNotNull();
        db.execute("INSERT INTO t(v) VALUES ('second')");

        assertThat(scalar(db, "SELECT count(*) FROM t")).as("the next read sees the new commit")
                .isEqualTo(2);
        assertThat(db.<Long>read(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return rs.getLong(1);
            }
        })).isEqualTo(2L);
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.replacedConnections()).isEqualTo(1);
        assertThat(r.openConnections()).isEqualTo(1);
    }

    @Test
    void aReaderWhoseRollbackCannotBeVerifiedIsClosedAndReplaced() {
        ((DatabaseImpl) db).readerFaults(point -> {
            if (point == FaultInjector.Point.ROLLBACK) {
                throw new SQLException("injected: the rollback failed");
            }
        });
        int connectionsBefore = runtime.lanes().diagnostics().openConnections();
        ReadFailedException e = catchThrowableOfType(ReadFailedException.class, () -> db.read(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                rs.next();
            }
            throw new IllegalStateException("the body failed inside its snapshot");
        }));
        assertThat(e).isNotNull();
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
        assertThat(db.diagnostics().readers().replacedConnections()).isEqualTo(1);
        assertThat(db.diagnostics().readers().openConnections()).isZero();
        assertThat(runtime.lanes().diagnostics().openConnections()).as("opened, then closed")
                .isEqualTo(connectionsBefore);

        ((DatabaseImpl) db).readerFaults(null);
        db.execute("INSERT INTO t(v) VALUES ('second')");
        assertThat(scalar(db, "SELECT count(*) FROM t")).as("a fresh reader serves the next read")
                .isEqualTo(2);
        assertThat(db.diagnostics().readers().openConnections()).isEqualTo(1);
    }

    @Test
    void aFailedReadIsTypedCarriesItsCauseAndLeavesTheReaderCleanForReuse() {
        ReadFailedException sqlError = catchThrowableOfType(ReadFailedException.class,
                () -> db.query("SELECT nope FROM t"));
        assertThat(sqlError).isNotNull();
        assertThat(sqlError.getMessage()).startsWith("life.db: ").contains("nope");
        assertThat(sqlError.getCause()).isInstanceOf(SQLException.class);
        assertThat(sqlError.code()).isEqualTo(ErrorCode.READ_FAILED);
        assertThat(sqlError.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);

        IllegalStateException thrown = new IllegalStateException("the body's own failure");
        ReadFailedException bodyError = catchThrowableOfType(ReadFailedException.class,
                () -> db.read(c -> {
                    c.createStatement().executeQuery("SELECT 1").close();
                    throw thrown;
                }));
        assertThat(bodyError.getCause()).isSameAs(thrown);

        AssertionError error = new AssertionError("an Error from the body");
        LanesException asyncError = TestLanes.failureOf(db.readAsync(c -> {
            throw error;
        }));
        assertThat(asyncError).isInstanceOf(ReadFailedException.class);
        assertThat(asyncError.getCause()).isSameAs(error);

        db.execute("INSERT INTO t(v) VALUES ('second')");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(2);
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.replacedConnections()).isZero();
        assertThat(r.openConnections()).isEqualTo(1);
    }

    @Test
    void aCachedQueryNeverReusesTheArgumentsOfItsPreviousRun() {
        String sql = "SELECT ? AS a, ? AS b";
        assertThat(db.query(sql, 1, 2).get(0).values()).containsExactly(1L, 2L);
        assertThat(catchThrowable(() -> db.query(sql, 3)))
                .as("too few arguments: refused, never the 2 of the previous run")
                .isInstanceOf(InvalidRequestException.class);
        assertThat(db.query(sql, 5, 6).get(0).values()).containsExactly(5L, 6L);

        Database uncached = runtime.openWithTable("uncached.db",
                DatabaseOptions.builder().statementCacheSize(0).readers(1).build());
        for (int i = 0; i < 3; i++) {
            assertThat(uncached.query(sql, i, i + 1).get(0).values())
                    .containsExactly((long) i, (long) i + 1);
            assertThat(uncached.<Long>read(c -> 7L)).isEqualTo(7L);
        }
        assertThat(uncached.diagnostics().readers().replacedConnections())
                .as("uncached statements are closed, not left behind").isZero();
    }

    @Test
    void aQueryWhoseRowsGrowPastMaxResultBytesFailsBeforeReadingTheRest() {
        Database small = runtime.openWithTable("small.db",
                DatabaseOptions.builder().maxResultBytes(1000).build());
        small.write(c -> {
            try (var s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                for (int i = 0; i < 100; i++) {
                    s.setString(1, "x".repeat(50));
                    s.executeUpdate();
                }
            }
            return null;
        });
        assertThat(small.query("SELECT v FROM t LIMIT 10")).hasSize(10);

        ResultTooLargeException e = catchThrowableOfType(ResultTooLargeException.class,
                () -> small.query("SELECT id, v FROM t"));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).startsWith("small.db: ").contains("maxResultBytes (1000 bytes)")
                .contains("at row 18").contains("SELECT id, v FROM t");
        assertThat(e.code()).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        assertThat(small.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(100);
        assertThat(small.diagnostics().readers().replacedConnections()).isZero();
    }

    @Test
    void closeWaitsForReadsInFlightRefusesNewOnesAndClosesEveryReader() throws Exception {
        Lanes own = runtime.another();
        Database d = openWithTable(own, runtime.dir(), "closing.db",
                DatabaseOptions.builder().readers(2).build());
        d.query("SELECT 1"); // opens a reader that will sit idle
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> inFlight = d.readAsync(c -> {
            inside.countDown();
            release.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return "finished with " + rs.getLong(1);
            }
        });
        await(inside, "the read to start");
        CompletableFuture<Void> closing = CompletableFuture.runAsync(d::close,
                r -> new Thread(r, "closer").start());
        awaitTrue("the database to start closing", () -> d.state() != DatabaseState.RUNNING);

        assertThat(catchThrowable(() -> d.query("SELECT 1"))).isInstanceOf(ClosingException.class);
        assertThat(catchThrowable(() -> d.readAsync(c -> null)))
                .isInstanceOf(ClosingException.class);
        assertThat(closing).isNotDone();
        assertThat(d.state()).isEqualTo(DatabaseState.CLOSING);

        release.countDown();
        assertThat(join(inFlight)).isEqualTo("finished with 0");
        join(closing);
        assertThat(d.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(d.diagnostics().readers().openConnections()).isZero();
        assertThat(own.diagnostics().openConnections()).isZero();
        assertThat(catchThrowable(() -> d.read(c -> null))).isInstanceOf(ClosedException.class);
        own.close();
    }

    @Test
    void shutdownNowFailsReadsStillWaitingForAReader() {
        Lanes own = runtime.another();
        Database d = openWithTable(own, runtime.dir(), "shutdown.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(TestLanes.WAIT).build());
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> inFlight = d.readAsync(c -> {
            inside.countDown();
            release.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return "in flight";
        });
        await(inside, "the read to start");
        CompletableFuture<String> waiting = d.readAsync(c -> "never");
        awaitTrue("the second read to queue", () -> d.diagnostics().readers().waiting() == 1);

        CompletableFuture<Void> closing = CompletableFuture.runAsync(d::shutdownNow,
                r -> new Thread(r, "closer").start());
        assertThat(TestLanes.failureOf(waiting)).isInstanceOf(ClosedException.class)
                .extracting(LanesException::outcome).isEqualTo(WriteOutcome.NOT_STARTED);
        release.countDown();
        assertThat(join(inFlight)).as("the running read finishes").isEqualTo("in flight");
        join(closing);
        assertThat(own.diagnostics().openConnections()).isZero();
        own.close();
    }
}
