package dev.lanes.internal.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.CheckpointMode;
import dev.lanes.Synchronous;
import dev.lanes.internal.sql.text.PragmaTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.Function;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * SQLite's own defences on a connection opened as Lanes opens every connection ({@link
 * SqliteConnections#open}, then {@link ConnectionSettings#apply}), with Lanes' lexer out of the
 * way: the SQL goes to the driver's connection directly. Each attack is also run on a plain
 * sqlite-jdbc connection, where it works: without the defence these tests fail.
 */
@Timeout(60)
class SqliteGuardTest {
    /** Each pragma Lanes owns or that is process-wide, in the spellings SQLite accepts. */
    static final List<String> SETTINGS = List.of(
            "PRAGMA busy_timeout = 0",
            "pragma main.\"busy_timeout\"(0)",
            "/* a */ PRAGMA -- b\n [BUSY_TIMEOUT] = 0",
            "EXPLAIN PRAGMA `busy_timeout`=0",
            "PRAGMA wal_autocheckpoint = 1",
            "PRAGMA 'main'.wal_autocheckpoint(1)",
            "PRAGMA journal_mode = DELETE",
            "PRAGMA max_page_count = 1",
            "PRAGMA writable_schema = 1",
            "PRAGMA trusted_schema = 1",
            "PRAGMA schema_version = 99",
            "PRAGMA threads = 4",
            "PRAGMA query_only = 1",
            "PRAGMA soft_heap_limit = 1000",
            "PRAGMA HARD_HEAP_LIMIT(1000)",
            "PRAGMA temp_store_directory = '/tmp'",
            "PRAGMA data_store_directory = '/tmp'");

    @TempDir Path dir;

    @BeforeEach
    void guardBuilt() {
        Assumptions.assumeTrue(SqliteGuard.available(), "install gcc and libsqlite3-dev and "
                + "rebuild lanes-core: " + SqliteGuard.unavailable());
    }

    /** The writer connection, opened and set up as the runtime does. */
    private SQLiteConnection lanesWriter() throws SQLException {
        SQLiteConnection c = SqliteConnections.openWriter(dir.resolve("lanes.db"),
                Synchronous.NORMAL, Duration.ofMillis(1234), CheckpointMode.DEDICATED);
        ConnectionSettings.NONE.apply(c, ConnectionSettings.Role.WRITER);
        return c;
    }

    private Connection plain(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(name));
    }

    /** "ok", or the message SQLite refused {@code sql} with and its primary result code. */
    private static String run(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            return "ok";
        } catch (SQLException e) {
            return (e.getErrorCode() & 0xFF) + " " + e.getMessage();
        }
    }

    private static String value(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Test
    void defensiveModeKeepsSqlFromRewritingTheSchemaWhichAPlainConnectionLets() throws Exception {
        String rewrite = "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(oops' WHERE name = 't'";
        try (Connection c = plain("plain.db")) {
            run(c, "CREATE TABLE t(x)");
            assertThat(run(c, "PRAGMA writable_schema = 1")).isEqualTo("ok");
            assertThat(run(c, rewrite)).as("the attack works without the defence")
                    .isEqualTo("ok");
        }
        // defensive mode alone (the authorizer not sealed): the pragma is taken and does nothing
        try (SQLiteConnection c = (SQLiteConnection) plain("defensive.db")) {
            SqliteGuard.load(c, SqliteGuard.library());
            run(c, "CREATE TABLE t(x)");
            assertThat(run(c, "PRAGMA writable_schema = 1")).isEqualTo("ok");
            assertThat(value(c, "PRAGMA writable_schema")).isEqualTo("0");
            assertThat(run(c, rewrite)).contains("table sqlite_master may not be modified");
        }
        // on a connection Lanes opened, the authorizer refuses the pragma itself
        try (SQLiteConnection c = lanesWriter()) {
            run(c, "CREATE TABLE t(x)");
            assertThat(run(c, "PRAGMA writable_schema = 1")).startsWith("23 ")
                    .contains("not authorized");
            assertThat(run(c, rewrite)).contains("table sqlite_master may not be modified");
            assertThat(value(c, "SELECT sql FROM sqlite_schema WHERE name = 't'"))
                    .isEqualTo("CREATE TABLE t(x)");
        }
    }

    @Test
    void aShadowTableCannotBeWrittenDirectlyOnALanesConnection() throws Exception {
        String forge = "INSERT INTO ft_data(id, block) VALUES (999, x'00')";
        try (Connection c = plain("plain.db")) {
            run(c, "CREATE VIRTUAL TABLE ft USING fts5(body)");
            assertThat(run(c, forge)).as("the attack works without the defence").isEqualTo("ok");
        }
        try (SQLiteConnection c = lanesWriter()) {
            assertThat(run(c, "CREATE VIRTUAL TABLE ft USING fts5(body)")).isEqualTo("ok");
            assertThat(run(c, "INSERT INTO ft(body) VALUES ('hello world')")).isEqualTo("ok");
            assertThat(run(c, forge)).contains("table ft_data may not be modified");
            assertThat(value(c, "SELECT count(*) FROM ft WHERE ft MATCH 'hello'"))
                    .isEqualTo("1");
        }
    }

    @Test
    void sqliteRefusesEveryOwnedAndProcessWideSettingInEverySpellingAndKeepsTheValues()
            throws Exception {
        try (Connection c = plain("plain.db")) {
            assertThat(run(c, "pragma main.\"busy_timeout\"(0)")).as("taken without the defence")
                    .isEqualTo("ok");
            assertThat(value(c, "PRAGMA busy_timeout")).isEqualTo("0");
        }
        try (SQLiteConnection c = lanesWriter()) {
            String softHeapLimit = value(c, "PRAGMA soft_heap_limit");
            for (String sql : SETTINGS) {
                assertThat(run(c, sql)).as(sql).startsWith("23 ").contains("not authorized");
            }
            // every row of the table that no SQL may set, so a row added later is covered too
            for (PragmaTable.Entry e : PragmaTable.all()) {
                if (e.use() == PragmaTable.Use.OWNED || e.use() == PragmaTable.Use.PROCESS) {
                    assertThat(run(c, "PRAGMA " + e.name() + " = 1")).as(e.name())
                            .startsWith("23 ");
                }
            }
            assertThat(value(c, "PRAGMA busy_timeout")).isEqualTo("1234");
            assertThat(value(c, "PRAGMA journal_mode")).isEqualTo("wal");
            assertThat(value(c, "PRAGMA trusted_schema")).isEqualTo("0");
            assertThat(value(c, "PRAGMA soft_heap_limit")).isEqualTo(softHeapLimit);
            // what the table lets SQL do still runs
            assertThat(run(c, "PRAGMA user_version = 7")).isEqualTo("ok");
            assertThat(run(c, "PRAGMA table_info('sqlite_schema')")).isEqualTo("ok");
            assertThat(run(c, "PRAGMA wal_checkpoint(PASSIVE)")).isEqualTo("ok");
            assertThat(run(c, "PRAGMA integrity_check")).isEqualTo("ok");
        }
    }

    @Test
    void aPragmaTheTableDoesNotKnowIsRefusedBySqliteInEveryForm() throws Exception {
        try (SQLiteConnection c = lanesWriter()) {
            assertThat(run(c, "PRAGMA no_such_pragma")).startsWith("23 ");
            assertThat(run(c, "PRAGMA main.no_such_pragma = 1")).startsWith("23 ");
            assertThat(run(c, "PRAGMA pragma_list")).isEqualTo("ok");
        }
    }

    @Test
    void sqlCannotUnsealTheGuardNorLoadAnotherExtension() throws Exception {
        try (SQLiteConnection c = lanesWriter()) {
            assertThat(run(c, "SELECT lanes_guard_seal('busy_timeout', '')"))
                    .contains("not authorized");
            assertThat(run(c, "SELECT load_extension('" + SqliteGuard.library() + "', '"
                    + SqliteGuard.ENTRY_POINT + "')")).contains("not authorized");
            assertThat(run(c, "PRAGMA busy_timeout = 0")).startsWith("23 ");
        }
    }

    @Test
    void everyConnectionLanesOpensHasTrustedSchemaOffSoAnUnflaggedFunctionRunsOnlyDirectly()
            throws Exception {
        SQLiteConfig readOnly = new SQLiteConfig();
        readOnly.setReadOnly(true);
        try (SQLiteConnection writer = lanesWriter();
                SQLiteConnection reader = SqliteConnections.open(readOnly,
                        dir.resolve("lanes.db"), SqliteConnections.Limits.LOCKED_DOWN)) {
            assertThat(value(writer, "PRAGMA trusted_schema")).isEqualTo("0");
            assertThat(value(reader, "PRAGMA trusted_schema")).isEqualTo("0");
            Function.create(writer, "side_effect", new Constant(), 0, 0);
            Function.create(writer, "pure", new Constant(), 0,
                    ConnectionSettings.schemaFlags(Function.FLAG_DETERMINISTIC));
            assertThat(value(writer, "SELECT side_effect()")).isEqualTo("42");
            run(writer, "CREATE TABLE t(x)");
            run(writer, "INSERT INTO t VALUES (1)");
            run(writer, "CREATE VIEW v AS SELECT side_effect() AS y FROM t");
            assertThat(run(writer, "SELECT y FROM v")).contains("unsafe use of side_effect()");
            assertThat(run(writer, "CREATE INDEX t_pure ON t(pure())")).isEqualTo("ok");
            run(writer, "CREATE VIEW w AS SELECT pure() AS y FROM t");
            assertThat(value(writer, "SELECT y FROM w")).isEqualTo("42");
        }
        try (Connection c = plain("plain.db")) {
            Function.create(c, "side_effect", new Constant(), 0, 0);
            run(c, "CREATE VIEW v AS SELECT side_effect() AS y");
            assertThat(value(c, "SELECT y FROM v")).as("runs from the schema without the defence")
                    .isEqualTo("42");
        }
    }

    /** Each spelling above is a setting a plain connection takes (but the process-wide ones). */
    @Test
    void withoutTheGuardSqliteTakesEverySpelling() throws Exception {
        List<String> taken = new ArrayList<>();
        try (Connection c = plain("plain.db")) {
            for (String sql : SETTINGS) {
                if (!sql.contains("heap_limit") && !sql.contains("_directory")) {
                    taken.add(sql + ": " + run(c, sql));
                }
            }
        }
        assertThat(taken).allSatisfy(line -> assertThat(line).endsWith(": ok"));
    }

    private static final class Constant extends Function {
        @Override
        protected void xFunc() throws SQLException {
            result(42);
        }
    }
}
