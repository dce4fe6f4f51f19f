package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The disk reserve, for real: each test mounts a small tmpfs, fills a database on it until the
 * reserve refuses writes, and checks what happens at the floor. Skipped, with the reason, only
 * where mounting is impossible (not root, or the mount is refused).
 *
 * <p>Sizes: a 24 MiB volume and a 6 MiB reserve. The reserve is larger than what an
 * autocheckpoint of {@link CheckpointMode#AUTO} can move into the database file at once (a WAL of
 * about 1000 pages, ~4 MB), so the last admitted write's checkpoint always fits; {@link
 * #aReserveSmallerThanAnAutocheckpointStillLeavesSqliteRoomToCheckpointAndDelete} shows what
 * happens when it does not.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DiskReserveTest {
    static final String VOLUME_SIZE = "24m";
    static final long RESERVE = 6L * 1024 * 1024;
    static final int ROW_BYTES = 32 * 1024;

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Path volume;
    boolean mounted;
    /** Every failure a test met, to show that none of them is SQLite running out of space. */
    final List<Throwable> failures = new ArrayList<>();

    @BeforeEach
    void mount() throws Exception {
        String uid = output("id", "-u");
        Assumptions.assumeTrue(uid.trim().equals("0"), "the disk reserve test mounts a tmpfs and "
                + "needs root; running as uid " + uid.trim());
        volume = Files.createDirectories(runtime.path("volume"));
        String out;
        boolean ok;
        try {
            Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + VOLUME_SIZE,
                    "tmpfs", volume.toString()).redirectErrorStream(true).start();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            ok = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            out = e.toString();
            ok = false;
        }
        Assumptions.assumeTrue(ok, "mounting a " + VOLUME_SIZE + " tmpfs at " + volume
                + " failed (" + out + "); cannot test the disk reserve on a real small "
                + "filesystem here");
        mounted = true;
    }

    @AfterEach
    void unmount() throws Exception {
        try {
            runtime.close(); // before the volume goes: the runtime has files open on it
        } finally {
            if (mounted && run("umount", volume.toString()) != 0) {
                run("umount", "-l", volume.toString());
            }
        }
    }

    /**
     * SQLite's own checkpoints, inside the commits: these tests compare the files' sizes before
     * and after a refusal, which a background checkpoint would change at any moment.
     */
    static DatabaseOptions withReserve(long reserve) {
        return DatabaseOptions.builder().diskReserveBytes(reserve)
                .checkpointMode(CheckpointMode.AUTO).build();
    }

    Database open(String name, DatabaseOptions options) {
        Database db = runtime.lanes().open(volume.resolve(name), options);
        db.execute("CREATE TABLE IF NOT EXISTS blobs(id INTEGER PRIMARY KEY, v BLOB NOT NULL)");
        return db;
    }

    /** Inserts rows until the reserve refuses one; any other failure fails the test. */
    CapacityFloorException fillToTheFloor(Database db) {
        byte[] row = new byte[ROW_BYTES];
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            random.nextBytes(row); // incompressible, and no two pages alike
            try {
                db.execute("INSERT INTO blobs(v) VALUES (?)", (Object) row);
            } catch (CapacityFloorException e) {
                failures.add(e);
                return e;
            } catch (LanesException e) {
                failures.add(e);
                throw new AssertionError("a write failed before the reserve refused one: " + e, e);
            }
        }
        throw new AssertionError("the reserve never refused a write on a " + VOLUME_SIZE + " volume");
    }

    long usable() throws IOException {
        return Files.getFileStore(volume).getUsableSpace();
    }

    static long size(Path p) throws IOException {
        return Files.exists(p) ? Files.size(p) : 0;
    }

    static Path wal(Database db) {
        return Path.of(db.path() + "-wal");
    }

    static long rows(Database db) {
        return db.query("SELECT count(*) AS n FROM blobs").get(0).getLong("n");
    }

    <T extends Throwable> T refused(Class<T> type, Runnable call) {
        T e = catchThrowableOfType(type, call::run);
        assertThat(e).as("refused with %s", type.getSimpleName()).isNotNull();
        failures.add(e);
        return e;
    }

    /** No failure anywhere came from SQLite finding the disk full. */
    void assertSqliteNeverRanOutOfSpace() {
        for (Throwable f : failures) {
            for (Throwable t = f; t != null; t = t.getCause()) {
                assertThat(String.valueOf(t.getMessage())).as("a failure caused by a full disk: %s", f)
                        .doesNotContain("SQLITE_FULL").doesNotContain("disk is full");
            }
        }
    }

    // ------------------------------------------------------------------ tests

    @Test
    void writesAreRefusedAtTheReserveBeforeSqliteRunsOutOfSpace() throws Exception {
        Database db = open("full.db", withReserve(RESERVE));

        CapacityFloorException floor = fillToTheFloor(db);

        assertThat(floor.code()).isEqualTo(ErrorCode.CAPACITY_FLOOR);
        assertThat(floor.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(floor.retryable()).isTrue();
        assertThat(floor.getMessage()).contains("full.db").contains("reserve of " + RESERVE);
        long free = usable();
        // the floor counts the WAL too: a checkpoint may move all of it into the database file
        assertThat(free).as("at the floor").isLessThanOrEqualTo(RESERVE + size(wal(db)));
        assertThat(free).as("SQLite still had room: the last checkpoint fit").isPositive();

        long rows = rows(db);
        long dbBytes = size(db.path());
        long walBytes = size(wal(db));
        AtomicBoolean bodyRan = new AtomicBoolean();
        refused(CapacityFloorException.class, () -> db.write(c -> {
            bodyRan.set(true);
            return c.createStatement().executeUpdate("INSERT INTO blobs(v) VALUES (x'00')");
        }));
        assertThat(bodyRan).as("a refused turn never runs its body").isFalse();
        refused(CapacityFloorException.class, () -> db.executeBatch(List.of(
                Statement.of("INSERT INTO blobs(v) VALUES (x'01')"))));
        refused(CapacityFloorException.class,
                () -> db.executeScript("INSERT INTO blobs(v) VALUES (x'02'); DELETE FROM blobs"));
        refused(CapacityFloorException.class, db::begin);
        LanesException async = TestLanes.failureOf(
                db.writeAsync(c -> c.createStatement().execute("DELETE FROM blobs")));
        failures.add(async);
        assertThat(async).isInstanceOf(CapacityFloorException.class);
        assertThat(async.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);

        assertThat(rows(db)).as("nothing of a refused write").isEqualTo(rows);
        assertThat(size(db.path())).as("the database file is untouched").isEqualTo(dbBytes);
        assertThat(size(wal(db))).as("the WAL is untouched").isEqualTo(walBytes);
        assertThat(db.isTransactionOpen()).isFalse();
        DatabaseDiagnostics d = db.diagnostics();
        assertThat(d.writer().poisoned()).isFalse();
        assertThat(d.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(d.writer().counters().unknownOutcomes()).isZero();
        // Reads go on at the floor.
        assertThat(db.query("SELECT sum(length(v)) AS n FROM blobs").get(0).getLong("n"))
                .isEqualTo(rows * ROW_BYTES);
        assertThat(db.query("PRAGMA integrity_check").get(0).get(0)).isEqualTo("ok");
        assertSqliteNeverRanOutOfSpace();
    }

    @Test
    void theDatabaseStillOpensAndReadsBelowTheFloor() throws Exception {
        Database db = open("reopen.db", withReserve(RESERVE));
        fillToTheFloor(db);
        long rows = rows(db);
        db.close();
        // Closing checkpointed and removed the WAL: fill the volume back below the floor.
        Path ballast = volume.resolve("ballast");
        try (RandomAccessFile f = new RandomAccessFile(ballast.toFile(), "rw")) {
            byte[] chunk = new byte[64 * 1024];
            while (usable() > RESERVE / 2) {
                f.write(chunk);
            }
            f.getFD().sync();
        }
        assertThat(usable()).isLessThanOrEqualTo(RESERVE / 2);

        Database reopened = runtime.lanes().open(volume.resolve("reopen.db"), withReserve(RESERVE));

        assertThat(reopened).isNotSameAs(db);
        assertThat(reopened.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(TestLanes.join(reopened.whenReady())).isSameAs(reopened);
        assertThat(rows(reopened)).isEqualTo(rows);
        assertThat(reopened.query("PRAGMA integrity_check").get(0).get(0)).isEqualTo("ok");
        refused(CapacityFloorException.class,
                () -> reopened.execute("INSERT INTO blobs(v) VALUES (x'00')"));
        assertThat(rows(reopened)).isEqualTo(rows);
        assertThat(reopened.diagnostics().writer().poisoned()).isFalse();
        assertSqliteNeverRanOutOfSpace();
    }

    @Test
    void vacuumThroughMaintenanceNeedsCopySizedHeadroom() throws Exception {
        Database db = open("vacuum.db", withReserve(RESERVE));
        for (int i = 0; i < 20; i++) {
            db.execute("INSERT INTO blobs(v) VALUES (randomblob(?))", ROW_BYTES);
        }
        db.execute("DELETE FROM blobs WHERE id % 2 = 0");
        assertThat(usable()).as("headroom for the copy")
                .isGreaterThan(size(db.path()) + size(wal(db)) + RESERVE);
        db.maintenance(c -> c.createStatement().execute("VACUUM"));
        assertThat(TestLanes.scalar(db, "PRAGMA freelist_count")).isZero();

        fillToTheFloor(db);
        long dbBytes = size(db.path());
        assertThat(usable()).as("no headroom for a copy")
                .isLessThan(dbBytes + size(wal(db)) + RESERVE);

        CapacityFloorException e = refused(CapacityFloorException.class,
                () -> db.maintenance(c -> c.createStatement().execute("VACUUM")));

        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("VACUUM needs").contains("vacuum.db");
        assertThat(size(db.path())).isEqualTo(dbBytes);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertSqliteNeverRanOutOfSpace();
    }

    @Test
    void aCheckpointThroughMaintenanceStillRunsBelowTheFloor() throws Exception {
        Database db = open("ckpt.db", withReserve(RESERVE));
        fillToTheFloor(db);
        long rows = rows(db);
        assertThat(usable()).isLessThanOrEqualTo(RESERVE + size(wal(db)));
        assertThat(size(wal(db))).as("a WAL to checkpoint").isPositive();

        CheckpointResult passive = db.checkpoint();
        assertThat(passive.busy()).isFalse();
        int busy = db.maintenance(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                rs.next();
                return rs.getInt(1);
            }
        });

        assertThat(busy).as("SQLite's busy flag of the TRUNCATE checkpoint").isZero();
        assertThat(size(wal(db))).as("the WAL was truncated").isZero();
        assertThat(rows(db)).isEqualTo(rows);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertSqliteNeverRanOutOfSpace();
    }

    @Test
    void aDeleteThroughMaintenanceRunsBelowTheFloorAndWithAutoVacuumFreesSpaceForWrites()
            throws Exception {
        // Deleted pages go back to the volume only with auto_vacuum (otherwise they stay in the
        // file, on its freelist): set it while there is room for the VACUUM that applies it.
        Database db = open("delete.db", withReserve(RESERVE));
        db.maintenance(c -> {
            c.createStatement().execute("PRAGMA auto_vacuum = FULL");
            return c.createStatement().execute("VACUUM");
        });
        assertThat(TestLanes.scalar(db, "PRAGMA auto_vacuum")).isEqualTo(1);
        fillToTheFloor(db);
        long rows = rows(db);
        long dbBytes = size(db.path());

        int deleted = db.maintenance(c -> c.createStatement()
                .executeUpdate("DELETE FROM blobs WHERE id > 2"));
        assertThat(deleted).as("not refused below the floor").isEqualTo(rows - 2);
        db.maintenance(c -> c.createStatement().executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")
                .next());

        assertThat(size(db.path())).as("the file shrank").isLessThan(dbBytes);
        assertThat(usable()).isGreaterThan(RESERVE);
        assertThat(db.execute("INSERT INTO blobs(v) VALUES (x'00')")).isEqualTo(1);
        assertThat(rows(db)).isEqualTo(3);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertSqliteNeverRanOutOfSpace();
    }

    @Test
    void aReserveSmallerThanAnAutocheckpointStillLeavesSqliteRoomToCheckpointAndDelete()
            throws Exception {
        // 1 MiB is accepted as a reserve, but one autocheckpoint of AUTO mode moves up to ~4 MB
        // from the WAL into the database file, after the turn that sampled the free space.
        Database db = open("small.db", withReserve(1024 * 1024));
        fillToTheFloor(db);
        long freeAtTheFloor = usable();

        Throwable delete = catchThrowable(() -> db.maintenance(c -> c.createStatement()
                .executeUpdate("DELETE FROM blobs WHERE id > 2")));
        if (delete != null) {
            failures.add(delete);
        }

        org.assertj.core.api.SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(freeAtTheFloor).as("free bytes when the reserve refused the first "
                    + "write: SQLite's autocheckpoint must not have filled the volume").isPositive();
            soft.assertThat(delete).as("the delete the reserve keeps room for").isNull();
        });
        assertSqliteNeverRanOutOfSpace();
    }

    @Test
    void aZeroReserveDisablesTheCheckAndSqliteMeetsTheFullDisk() throws Exception {
        Database db = open("unguarded.db", withReserve(0));
        Throwable full = null;
        for (int i = 0; i < 10_000 && full == null; i++) {
            try {
                db.execute("INSERT INTO blobs(v) VALUES (randomblob(?))", ROW_BYTES);
            } catch (LanesException e) {
                full = e;
            }
        }

        assertThat(full).as("without a reserve, SQLite itself finds the volume full")
                .isNotNull().isNotInstanceOf(CapacityFloorException.class);
        boolean sqliteFull = false;
        for (Throwable t = full; t != null; t = t.getCause()) {
            sqliteFull |= String.valueOf(t.getMessage()).contains("SQLITE_FULL");
        }
        assertThat(sqliteFull).as("caused by SQLITE_FULL: %s", full).isTrue();
    }

    // ------------------------------------------------------------------ helpers

    /** Runs a command and returns its exit code; its output goes to the test's log. */
    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not end");
        }
        if (p.exitValue() != 0) {
            System.err.println(String.join(" ", command) + " failed: " + out.trim());
        }
        return p.exitValue();
    }

    private static String output(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not end");
        }
        return out;
    }
}
