package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static dev.lanes.sandbox.Sandbox.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.SqlFunction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;

/**
 * SQL reaches nothing outside the database: {@code ATTACH} is refused on every connection unless
 * {@link DatabaseOptions.Builder#maxAttachedDatabases} allows it, {@code load_extension()} is
 * off, {@code VACUUM INTO} is refused in every body and {@code db.backup} never writes over a
 * file, and the driver's own {@code backup}/{@code restore} commands never run.
 */
@Timeout(60)
class OutsideTheDatabaseTest {
    @TempDir Path dir;
    Lanes lanes;
    Database db;
    Path elsewhere;

    @BeforeEach
    void start() {
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "inside.db", DatabaseOptions.DEFAULTS);
        db.execute("INSERT INTO t(v) VALUES ('kept')");
        elsewhere = dir.resolve("elsewhere.db");
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    /** Runs {@code sql} on the writer through the path named {@code how}. */
    void runOnWriter(String how, String sql) {
        Sandbox.runOnWriter(db, how, sql);
    }

    static Stream<String> writerPathNames() {
        return Stream.of("db.execute", "write body, execute", "write body, executeUpdate",
                "write body, prepareStatement", "write body, addBatch", "maintenance body",
                "db.executeScript", "db.executeBatch");
    }

    // ------------------------------------------------------------------ ATTACH

    @ParameterizedTest(name = "{0}")
    @MethodSource("writerPathNames")
    void attachIsRefusedOnTheWriterByDefaultNamingTheOptionAndNothingRuns(String how) {
        String sql = "ATTACH DATABASE '" + elsewhere + "' AS other";
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> runOnWriter(how, sql));
        assertThat(e).as(how).isNotNull();
        assertNothingPersisted(how, e);
        assertThat(e.getMessage()).contains("ATTACH is refused")
                .contains("DatabaseOptions.maxAttachedDatabases").contains("nothing ran");
        assertThat(elsewhere).doesNotExist();
        assertHealthy(db);
    }

    @Test
    void attachIsRefusedOnAReaderWhateverTheOption() {
        String sql = "ATTACH DATABASE '" + elsewhere + "' AS other";
        assertThat(catchThrowable(() -> db.query(sql)))
                .isInstanceOf(ReadOnlyViolationException.class);
        assertThat(catchThrowable(() -> db.read(c -> c.createStatement().execute(sql))))
                .isInstanceOf(ReadOnlyViolationException.class);
        assertThat(elsewhere).doesNotExist();
    }

    @Test
    void attachHiddenFromTheGuardIsRefusedBySqliteOnTheWriterAndOnReaders() {
        String sql = "ATTACH DATABASE '" + elsewhere + "' AS other";
        SqlFunction<String> rawAttach = c -> {
            SQLiteConnection raw = c.unwrap(SQLiteConnection.class); // the documented escape
            assertThat(raw.getDatabase().limit(SQLiteLimits.SQLITE_LIMIT_ATTACHED.getId(), -1))
                    .isZero();
            try (java.sql.Statement s = raw.createStatement()) {
                s.execute(sql);
                return "attached";
            } catch (SQLException refused) {
                return refused.getMessage();
            }
        };
        assertThat(db.write(rawAttach)).contains("too many attached databases - max 0");
        assertThat(db.maintenance(rawAttach)).contains("too many attached databases - max 0");
        assertThat(db.read(rawAttach)).contains("too many attached databases - max 0");
        assertThat(elsewhere).doesNotExist();
        assertHealthy(db);
    }

    @Test
    void attachRunsWhenTheOptionAllowsItUpToItsCount() {
        Database allowed = openWithTable(lanes, dir, "allowed.db", DatabaseOptions.builder()
                .maxAttachedDatabases(1).build());
        allowed.maintenance(c -> c.createStatement().execute("ATTACH DATABASE '" + elsewhere
                + "' AS other"));
        allowed.write(c -> c.createStatement().executeUpdate(
                "CREATE TABLE other.x(a); INSERT INTO other.x VALUES (7)"));
        assertThat(elsewhere).exists();
        // a second attachment goes beyond the count: SQLite refuses it, and the write fails typed
        WriteFailedException beyond = catchThrowableOfType(WriteFailedException.class,
                () -> allowed.write(c -> c.createStatement().execute("ATTACH ':memory:' AS m")));
        assertThat(beyond).isNotNull();
        assertThat(beyond.getCause()).hasMessageContaining("too many attached databases - max 1");
        // readers never attach, whatever the option says
        assertThat(catchThrowable(() -> allowed.query("ATTACH ':memory:' AS m")))
                .isInstanceOf(ReadOnlyViolationException.class);
        allowed.maintenance(c -> c.createStatement().execute("DETACH DATABASE other"));
        assertHealthy(allowed);
    }

    @Test
    void theAttachmentCountIsValidatedAndAnotherCountIsAnotherOpen() {
        assertThat(catchThrowable(() -> DatabaseOptions.builder().maxAttachedDatabases(126)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxAttachedDatabases").hasMessageContaining("126");
        assertThat(catchThrowable(() -> DatabaseOptions.builder().maxAttachedDatabases(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(catchThrowable(() -> lanes.open(dir.resolve("inside.db"),
                DatabaseOptions.builder().maxAttachedDatabases(2).build())))
                .hasMessageContaining("maxAttachedDatabases");
    }

    // ------------------------------------------------------------------ load_extension

    @Test
    void loadExtensionIsOffOnReadersTheWriterAndMaintenance() {
        String sql = "SELECT load_extension('/nonexistent/libevil')";
        Throwable onReader = catchThrowable(() -> db.query(sql));
        assertThat(onReader).isInstanceOf(ReadFailedException.class);
        assertThat(rootMessage(onReader)).contains("not authorized");
        Throwable inRead = catchThrowable(() -> db.read(c -> c.createStatement().execute(sql)));
        assertThat(rootMessage(inRead)).contains("not authorized");
        Throwable inWrite = catchThrowable(() -> db.write(c -> c.createStatement().execute(sql)));
        assertThat(inWrite).isInstanceOf(WriteFailedException.class);
        assertThat(rootMessage(inWrite)).contains("not authorized");
        Throwable inMaintenance = catchThrowable(() -> db.maintenance(
                c -> c.createStatement().execute(sql)));
        assertThat(inMaintenance).isInstanceOf(LanesException.class);
        assertThat(rootMessage(inMaintenance)).contains("not authorized");
        assertHealthy(db);
    }

    // ------------------------------------------------------------------ VACUUM INTO

    @ParameterizedTest(name = "{0}")
    @MethodSource("writerPathNames")
    void vacuumIntoIsRefusedInEveryBodyAndNoFileAppears(String how) {
        if (how.equals("db.execute") || how.equals("db.executeBatch")
                || how.equals("write body, addBatch")) {
            // a statement request runs inside the group's transaction, where SQLite refuses any
            // VACUUM; the point here is the guard's refusal, which these paths share with bodies
            String sql = "VACUUM INTO '" + elsewhere + "'";
            assertThat(catchThrowable(() -> runOnWriter(how, sql)))
                    .isInstanceOf(LanesException.class);
            assertThat(elsewhere).doesNotExist();
            return;
        }
        String sql = "VACUUM INTO '" + elsewhere + "'";
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> runOnWriter(how, sql));
        assertThat(e).as(how).isNotNull();
        assertThat(e.getMessage()).contains("VACUUM INTO is refused").contains("db.backup");
        assertNothingPersisted(how, e);
        assertThat(elsewhere).doesNotExist();
        assertHealthy(db);
    }

    @Test
    void vacuumIntoInALaterStatementOfATextIsRefusedToo() {
        String sql = "SELECT 1; VACUUM main INTO '" + elsewhere + "'";
        assertThat(catchThrowable(() -> db.maintenance(c -> c.createStatement()
                .executeUpdate(sql)))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("VACUUM INTO is refused");
        assertThat(catchThrowable(() -> db.read(c -> c.createStatement().executeUpdate(sql))))
                .isInstanceOf(ReadOnlyViolationException.class);
        assertThat(elsewhere).doesNotExist();
    }

    // ------------------------------------------------------------------ writer pragmas

    static Stream<org.junit.jupiter.params.provider.Arguments> writerPragmasOnEveryPath() {
        return Stream.concat(writerPathNames(), Stream.of("tx.execute", "tx.query"))
                .flatMap(how -> Stream.of("PRAGMA query_only = 1",
                "pragma main.QUERY_ONLY(true)", "PRAGMA locking_mode = EXCLUSIVE",
                "EXPLAIN PRAGMA locking_mode=exclusive", "PRAGMA synchronous = OFF",
                "pragma main.synchronous(0)")
                .map(sql -> org.junit.jupiter.params.provider.Arguments.of(how, sql)));
    }

    /**
     * Regression (found by the hostile texts of {@code HostileSqlThroughLanesTest} and {@code
     * HostileInputAtScaleTest}): a body, a statement or an interactive transaction that set {@code
     * query_only} left the writer connection refusing every later write, {@code locking_mode =
     * EXCLUSIVE} kept the readers out of the file once the writer next wrote, and {@code
     * synchronous = OFF} would have made every later acknowledged write less durable than
     * {@code DatabaseOptions.synchronous} says.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("writerPragmasOnEveryPath")
    void writerSettingPragmasAreRefusedOnEveryWriterPathAndTheWriterKeepsItsSettings(String how,
            String sql) {
        Throwable t = catchThrowable(() -> runOnWriter(how, sql));
        assertThat(t).as(how).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is refused on the writer").hasMessageContaining(
                        "nothing ran");
        assertNothingPersisted(how, (LanesException) t);
        // the writer connection kept its settings: it writes, and a reader sees the write
        // while the writer holds no lock the readers cannot share
        db.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v = 'after'")).isEqualTo(1);
        assertWriterSettingsKept();
        assertHealthy(db);
    }

    @Test
    void readingTheWritersSettingPragmasStillRuns() {
        assertWriterSettingsKept();
    }

    /** Reads the writer connection's query_only, locking_mode and synchronous in write bodies. */
    private void assertWriterSettingsKept() {
        assertThat(writerSetting("query_only")).isEqualTo("0");
        assertThat(writerSetting("locking_mode")).isEqualTo("normal");
        assertThat(writerSetting("synchronous")).as("NORMAL, as DatabaseOptions set it")
                .isEqualTo("1");
    }

    private String writerSetting(String pragma) {
        return db.write(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("PRAGMA " + pragma)) {
                rs.next();
                return rs.getString(1);
            }
        });
    }

    @Test
    void anInPlaceVacuumStillRunsInMaintenanceAndItsAttachmentSlotIsTakenBack() {
        db.maintenance(c -> c.createStatement().executeUpdate("SELECT 1; VACUUM"));
        db.maintenance(c -> c.prepareStatement("VACUUM").execute());
        int limit = db.maintenance(c -> c.unwrap(SQLiteConnection.class).getDatabase()
                .limit(SQLiteLimits.SQLITE_LIMIT_ATTACHED.getId(), -1));
        assertThat(limit).as("the slot VACUUM needed is taken back").isZero();
        assertThat(catchThrowable(() -> db.execute("ATTACH ':memory:' AS m")))
                .isInstanceOf(InvalidRequestException.class);
        assertHealthy(db);
    }

    // ------------------------------------------------------------------ db.backup

    @Test
    void backupNeverWritesOverAnExistingFileNotEvenAnEmptyOneThatSqliteWouldTake()
            throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.db"));
        // SQLite's own VACUUM INTO takes an existing empty file as its target
        Path probeTarget = Files.createFile(dir.resolve("probe-empty.db"));
        try (SQLiteConnection plain = (SQLiteConnection) new SQLiteConfig().createConnection(
                "jdbc:sqlite:" + dir.resolve("probe.db"))) {
            plain.createStatement().execute("CREATE TABLE p(a)");
            plain.createStatement().execute("VACUUM INTO '" + probeTarget + "'");
        }
        assertThat(Files.size(probeTarget)).as("SQLite wrote over the empty file").isPositive();

        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.backup(empty));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("already exists").contains("never overwrites");
        assertThat(Files.size(empty)).isZero();

        Path taken = Files.writeString(dir.resolve("taken.db"), "someone's data");
        assertThat(catchThrowable(() -> db.backup(taken)))
                .isInstanceOf(InvalidRequestException.class);
        assertThat(Files.readString(taken)).isEqualTo("someone's data");

        Path fresh = dir.resolve("fresh-backup.db");
        db.backup(fresh);
        try (SQLiteConnection copy = (SQLiteConnection) new SQLiteConfig().createConnection(
                "jdbc:sqlite:" + fresh); ResultSet rs = copy.createStatement().executeQuery(
                        "SELECT v FROM t")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("kept");
        }
    }

    // ------------------------------------------------------------------ driver commands

    @Test
    void theDriversBackupCommandIsRefusedOnTheWriterAndOnReaders() {
        for (String sql : List.of("backup to " + elsewhere, "BACKUP main TO '" + elsewhere + "'",
                "bac\u212Aup to " + elsewhere)) {
            for (SqlFunction<Object> body : List.<SqlFunction<Object>>of(
                    c -> c.createStatement().execute(sql),
                    c -> c.createStatement().executeUpdate(sql))) {
                assertRefusedDriverCommand(catchThrowable(() -> db.write(body)));
                assertRefusedDriverCommand(catchThrowable(() -> db.maintenance(body)));
                assertRefusedDriverCommand(catchThrowable(() -> db.read(body)));
            }
        }
        assertThat(elsewhere).doesNotExist();
    }

    @Test
    void theDriversRestoreCommandNeverCopiesAFileOverTheDatabase() throws Exception {
        try (SQLiteConnection evil = (SQLiteConnection) new SQLiteConfig().createConnection(
                "jdbc:sqlite:" + elsewhere)) {
            evil.createStatement().execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)");
            evil.createStatement().execute("INSERT INTO t(v) VALUES ('planted')");
        }
        String sql = "restore from " + elsewhere;
        assertRefusedDriverCommand(catchThrowable(() -> db.write(
                c -> c.createStatement().executeUpdate(sql))));
        assertRefusedDriverCommand(catchThrowable(() -> db.maintenance(
                c -> c.createStatement().execute(sql))));
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v = 'planted'")).isZero();
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v = 'kept'")).isEqualTo(1);
        assertHealthy(db);
    }

    private static void assertRefusedDriverCommand(Throwable t) {
        assertThat(t).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("the driver's");
        assertThat(((LanesException) t).outcome()).isIn(WriteOutcome.NOT_STARTED,
                WriteOutcome.ROLLED_BACK);
    }

    /**
     * A refused statement request never started; a body that met a refusal ran until it, so it
     * rolled back whole. Either way nothing of it persisted.
     */
    private static void assertNothingPersisted(String how, LanesException e) {
        assertThat(e.outcome()).as(how).isEqualTo(how.equals("db.execute")
                ? WriteOutcome.NOT_STARTED : e.outcome() == WriteOutcome.NOT_STARTED
                        ? WriteOutcome.NOT_STARTED : WriteOutcome.ROLLED_BACK);
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return String.valueOf(c.getMessage());
    }
}
