package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static dev.lanes.sandbox.Sandbox.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.CancelledException;
import dev.lanes.CapacityFloorException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DeadlineExceededException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReadOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests built to exhaust a resource (memory, disk, the parser's stack, time) end in a typed
 * error or in success, never in a hung or broken database: afterwards a normal write and read
 * work and {@code PRAGMA integrity_check} is ok.
 */
@Timeout(120)
class ResourceBombTest {
    /** Counts forever. */
    static final String RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) "
            + "SELECT count(*) FROM c";

    @TempDir Path dir;
    Lanes lanes;
    Database db;

    @BeforeEach
    void start() {
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "bombs.db", DatabaseOptions.builder().readers(1).build());
        db.execute("INSERT INTO t(v) VALUES ('before')");
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    // ------------------------------------------------------------------ large values

    @Test
    @Tag("slow")
    void aHundredMegabyteTextParameterFitsSqlitesDefaultLimitThroughExecuteAndQuery() {
        String big = "x".repeat(100_000_000);
        assertThat(db.execute("INSERT INTO t(v) VALUES (?)", big)).isEqualTo(1);
        assertThat(scalar(db, "SELECT length(?)", big)).isEqualTo(100_000_000L);
        assertThat(scalar(db, "SELECT max(length(v)) FROM t")).isEqualTo(100_000_000L);
        db.execute("DELETE FROM t WHERE length(v) = ?", 100_000_000);
        assertHealthy(db);
    }

    @Test
    void aValueOverMaxValueBytesFailsTypedOnTheWriterAndOnReadersAndWritesNothing() {
        Database bounded = openWithTable(lanes, dir, "bounded.db", DatabaseOptions.builder()
                .maxValueBytes(10_000_000).build());
        String big = "x".repeat(20_000_000);
        WriteFailedException write = catchThrowableOfType(WriteFailedException.class,
                () -> bounded.execute("INSERT INTO t(v) VALUES (?)", big));
        assertThat(write).isNotNull();
        assertThat(write.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(write.getCause()).hasMessageContaining("SQLITE_TOOBIG");
        assertThat(catchThrowable(() -> bounded.write(c -> c.createStatement().execute(
                "INSERT INTO t(v) VALUES (zeroblob(20000000))")))).isInstanceOf(
                WriteFailedException.class).hasMessageContaining("SQLITE_TOOBIG");
        // readers carry the limit too: SQL cannot make them build a value past it
        ReadFailedException read = catchThrowableOfType(ReadFailedException.class,
                () -> bounded.query("SELECT length(?)", big));
        assertThat(read).isNotNull();
        assertThat(read.getCause()).hasMessageContaining("SQLITE_TOOBIG");
        assertThat(catchThrowable(() -> bounded.query("SELECT hex(zeroblob(20000000))")))
                .isInstanceOf(ReadFailedException.class).hasMessageContaining("SQLITE_TOOBIG");
        assertThat(scalar(bounded, "SELECT count(*) FROM t")).isZero();
        assertThat(bounded.execute("INSERT INTO t(v) VALUES (?)", "x".repeat(9_000_000)))
                .as("a value under the limit still fits").isEqualTo(1);
        assertHealthy(bounded);
        assertThat(catchThrowable(() -> DatabaseOptions.builder().maxValueBytes(1_000_000_001)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxValueBytes");
    }

    @Test
    void aGigabyteZeroblobIsRefusedBySqlitesOwnLengthLimitBeforeAnythingIsWritten() {
        String sql = "INSERT INTO t(v) VALUES (zeroblob(1000000000))";
        WriteFailedException statement = catchThrowableOfType(WriteFailedException.class,
                () -> db.execute(sql));
        assertThat(statement).isNotNull();
        assertThat(statement.getCause()).hasMessageContaining("SQLITE_TOOBIG");
        assertThat(catchThrowable(() -> db.write(c -> c.createStatement().execute(sql))))
                .isInstanceOf(WriteFailedException.class).hasMessageContaining("SQLITE_TOOBIG");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);
        assertHealthy(db);
    }

    @Test
    void aZeroblobThatFillsTheDiskFailsTypedAndNothingOfItIsWritten() throws Exception {
        // a 24 MB volume, so SQLite really runs out of space (SQLITE_FULL) in the middle; a
        // ballast file stands for the space an operator frees afterwards
        try (Tmpfs volume = Tmpfs.mount(dir, "24m")) {
            Path ballast = Files.write(volume.path.resolve("ballast"), new byte[2 * 1024 * 1024]);
            Database small = openWithTable(lanes, volume.path, "full.db", DatabaseOptions.builder()
                    .diskReserveBytes(4L * 1024 * 1024).build());
            small.execute("INSERT INTO t(v) VALUES ('before')");
            LanesException full = catchThrowableOfType(LanesException.class,
                    () -> small.execute("INSERT INTO t(v) VALUES (zeroblob(100000000))"));
            assertThat(full).as("100 MB on a 24 MB volume").isNotNull();
            assertThat(full.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(causeMessages(full)).contains("SQLITE_FULL");
            assertThat(scalar(small, "SELECT count(*) FROM t")).as("nothing half-written")
                    .isEqualTo(1);
            assertThat(small.query("PRAGMA integrity_check").get(0).get(0)).isEqualTo("ok");
            assertThat(small.diagnostics().writer().poisoned()).isFalse();
            // The rolled-back frames still fill the WAL file, so the reserve refuses the next
            // write, typed and before anything is written ...
            assertThat(catchThrowable(() -> small.execute("INSERT INTO t(v) VALUES ('next')")))
                    .isInstanceOf(CapacityFloorException.class)
                    .hasMessageContaining("nothing was written");
            // ... until space is freed and a TRUNCATE checkpoint gives the WAL's space back
            Files.delete(ballast);
            small.maintenance(c -> c.createStatement().execute("PRAGMA wal_checkpoint(TRUNCATE)"));
            assertHealthy(small);
            small.close();
        }
    }

    // ------------------------------------------------------------------ the parser

    /**
     * SQLite 3.53 and later refuse deep nesting in the parser ("Recursion limit"); an older SQLite
     * (that of sqlite-jdbc 3.50.3.0, the oldest Lanes supports) parses and runs it. Either way the
     * statement reaches SQLite, which decides, and Lanes' guard reads any depth in one pass.
     */
    @Test
    void tenThousandNestedParenthesesFailTypedInSqlitesParser() throws Exception {
        String nested = "(".repeat(10_000) + "1" + ")".repeat(10_000);
        String deepest = "SELECT " + "(".repeat(100_000) + "1" + ")".repeat(100_000);
        boolean limited = sqliteRefuses("SELECT " + nested);
        if (limited) {
            assertThat(catchThrowable(() -> db.query("SELECT " + nested)))
                    .isInstanceOf(ReadFailedException.class)
                    .hasMessageContaining("Recursion limit");
            assertThat(catchThrowable(() -> db.execute("INSERT INTO t(v) VALUES " + nested)))
                    .isInstanceOf(WriteFailedException.class);
            assertThat(catchThrowable(() -> db.write(c -> c.createStatement().execute(
                    "INSERT INTO t(v) VALUES (" + nested + ")")))).isInstanceOf(
                    WriteFailedException.class).hasMessageContaining("Recursion limit");
        } else {
            assertThat(scalar(db, "SELECT " + nested)).isOne();
            assertThat(db.execute("INSERT INTO t(v) VALUES " + nested)).isOne();
            db.write(c -> c.createStatement().execute("INSERT INTO t(v) VALUES (" + nested
                    + ")"));
        }
        // the guard reads a text in one pass, whatever its depth
        String deeper = "WITH c AS " + "(".repeat(100_000) + "SELECT 1" + ")".repeat(100_000)
                + " DELETE FROM t";
        assertThat(catchThrowable(() -> db.query(deeper)))
                .isInstanceOf(dev.lanes.ReadOnlyViolationException.class);
        Throwable deepestRead = catchThrowable(() -> db.read(c -> c.createStatement().execute(
                deepest)));
        if (sqliteRefuses(deepest)) {
            assertThat(deepestRead).isInstanceOf(ReadFailedException.class);
        } else {
            assertThat(deepestRead).isNull();
        }
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(limited ? 1 : 3);
        assertHealthy(db);
    }

    /** Whether SQLite itself, on a plain connection of the driver, refuses {@code sql}. */
    private static boolean sqliteRefuses(String sql) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite::memory:");
                java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
            return false;
        } catch (java.sql.SQLException e) {
            return true;
        }
    }

    // ------------------------------------------------------------------ time

    @Test
    void aRunawayQueryWithATimeoutIsStoppedInsideSqliteAtItsDeadline() {
        DeadlineExceededException e = catchThrowableOfType(DeadlineExceededException.class,
                () -> db.reading(ReadOptions.timeout(Duration.ofMillis(200))).query(RUNAWAY));
        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("deadline").contains("wrote nothing");
        assertThat(scalar(db, "SELECT 1")).as("the only reader was cleaned and reused").isOne();
        assertHealthy(db);
    }

    @Test
    void aRunawayReadWithoutATimeoutRunsUntilItsFutureIsCancelledWhichStopsItInsideSqlite()
            throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Long> runaway = db.readAsync(c -> {
            started.countDown();
            try (ResultSet rs = c.createStatement().executeQuery(RUNAWAY)) {
                rs.next();
                return rs.getLong(1);
            }
        });
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(runaway).isNotDone();
        assertThat(runaway.cancel(true)).isTrue();
        assertThat(catchThrowable(runaway::join)).isInstanceOf(CancellationException.class);
        // the one reader comes back only once SQLite stopped the statement
        assertThat(scalar(db, "SELECT 2")).isEqualTo(2);
        assertThat(db.diagnostics().readers().cancellations()).isEqualTo(1);
        assertHealthy(db);
    }

    @Test
    void aVirtualThreadBlockedInARunawayQueryIsStoppedByItsInterruptWithCancelledException()
            throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 21, "virtual threads: JDK 21+");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable read = () -> failure.set(catchThrowable(() -> db.query(RUNAWAY)));
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Thread caller = (Thread) Class.forName("java.lang.Thread$Builder")
                .getMethod("start", Runnable.class).invoke(builder, read);
        awaitTrue(() -> db.diagnostics().readers().currentCheckouts() == 1);
        caller.interrupt();
        caller.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(caller.isAlive()).isFalse();
        assertThat(failure.get()).isInstanceOf(CancelledException.class);
        assertThat(scalar(db, "SELECT 3")).isEqualTo(3);
        assertHealthy(db);
    }

    @Test
    void maxReadDurationOnlyWarnsAReadThatRunsLongerStillCompletes() {
        Database warned = openWithTable(lanes, dir, "warned.db", DatabaseOptions.builder()
                .maxReadDuration(Duration.ofMillis(1)).build());
        long n = scalar(warned, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c "
                + "LIMIT 2000000) SELECT count(*) FROM c");
        assertThat(n).isEqualTo(2_000_000L);
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Sandbox.WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static String causeMessages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append(" | ");
        }
        return b.toString();
    }
}
