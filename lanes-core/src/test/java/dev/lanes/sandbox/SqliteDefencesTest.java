package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.SqlFunction;
import dev.lanes.internal.sqlite.SqliteGuard;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConnection;

/**
 * What SQLite itself refuses on the connections of a Lanes database, whatever Lanes' lexer let
 * through: each attack runs on the driver's own connection, reached inside a write body, a
 * maintenance body and a read body through {@code unwrap(SQLiteConnection.class)}, so the
 * statement policy never sees it. The schema table is not rewritten (defensive mode), the
 * pragmas Lanes owns and the process-wide ones are not set (the authorizer), {@code
 * trusted_schema} is off, and the database and the process keep working as before.
 */
@Timeout(60)
class SqliteDefencesTest {
    @TempDir Path dir;
    Lanes lanes;
    Database db;

    @BeforeEach
    void start() {
        Assumptions.assumeTrue(SqliteGuard.available(), "install gcc and libsqlite3-dev and "
                + "rebuild lanes-core: " + SqliteGuard.unavailable());
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "defended.db", DatabaseOptions.DEFAULTS);
        db.execute("INSERT INTO t(v) VALUES ('kept')");
    }

    @AfterEach
    void stop() {
        if (lanes != null) {
            lanes.close();
        }
    }

    /** Runs each text on the raw connection; "ok" or SQLite's message for each. */
    private static SqlFunction<List<String>> raw(String... texts) {
        return c -> {
            SQLiteConnection raw = c.unwrap(SQLiteConnection.class);
            List<String> results = new ArrayList<>();
            for (String sql : texts) {
                try (Statement s = raw.createStatement()) {
                    s.execute(sql);
                    results.add("ok");
                } catch (SQLException e) {
                    results.add(e.getMessage());
                }
            }
            return results;
        };
    }

    private List<Function<SqlFunction<List<String>>, List<String>>> bodies() {
        return List.of(db::write, db::maintenance, db::read);
    }

    @Test
    void theSchemaTableIsNotRewrittenThroughTheDriversConnectionInAnyBody() {
        List<String> results = db.write(raw("PRAGMA writable_schema = 1",
                "UPDATE sqlite_schema SET sql = 'CREATE TABLE t(broken' WHERE name = 't'"));
        assertThat(results.get(0)).contains("not authorized");
        assertThat(results.get(1)).contains("may not be modified");
        results = db.maintenance(raw("PRAGMA writable_schema = ON",
                "DELETE FROM sqlite_schema WHERE name = 't'"));
        assertThat(results.get(0)).contains("not authorized");
        assertThat(results.get(1)).contains("may not be modified");
        assertThat(db.query("SELECT sql FROM sqlite_schema WHERE name = 't'").get(0).get(0))
                .isEqualTo("CREATE TABLE t(id INTEGER PRIMARY KEY, v)");
        assertHealthy(db);
    }

    @Test
    void ownedAndProcessWidePragmasAreNotSetThroughTheDriversConnectionInAnyBody() {
        String softHeapLimit = String.valueOf(db.query("PRAGMA soft_heap_limit").get(0).get(0));
        for (var body : bodies()) {
            List<String> results = body.apply(raw("PRAGMA soft_heap_limit = 1",
                    "PRAGMA \"HARD_HEAP_LIMIT\"(1)", "PRAGMA temp_store_directory = '/tmp'",
                    "PRAGMA busy_timeout = 0", "PRAGMA main.journal_mode = DELETE",
                    "PRAGMA wal_autocheckpoint = 1", "PRAGMA max_page_count = 1",
                    "PRAGMA trusted_schema = ON"));
            assertThat(results).allSatisfy(r -> assertThat(r).contains("not authorized"));
        }
        assertThat(String.valueOf(db.query("PRAGMA soft_heap_limit").get(0).get(0)))
                .isEqualTo(softHeapLimit);
        String busyTimeout = db.write(c -> scalarOn(c, "PRAGMA busy_timeout"));
        String journalMode = db.write(c -> scalarOn(c, "PRAGMA journal_mode"));
        assertThat(busyTimeout).isNotEqualTo("0");
        assertThat(journalMode).isEqualTo("wal");
        assertHealthy(db);
    }

    @Test
    void trustedSchemaIsOffOnTheWriterAndOnReaders() {
        for (var body : bodies()) {
            assertThat(body.apply(c -> List.of(scalarOn(c.unwrap(SQLiteConnection.class),
                    "PRAGMA trusted_schema")))).containsExactly("0");
        }
    }

    private static String scalarOn(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
