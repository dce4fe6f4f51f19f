package dev.lanes.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pragmas Lanes owns on the writer and the process-wide ones are refused on every writer path,
 * in every spelling, before SQLite applies them: {@code busy_timeout = 0} once stayed on the
 * writer for every later request (SQLite applies it while it prepares, so even a failed request
 * left it), {@code wal_autocheckpoint}, {@code journal_mode}, {@code max_page_count} and {@code
 * writable_schema} reached the writer, and {@code soft_heap_limit}, {@code hard_heap_limit} and
 * {@code temp_store_directory} changed every database of the process. After each refusal the
 * writer's settings and the process's are as they were. Reading a setting still runs.
 */
@Timeout(120)
class OwnedPragmaTest {
    /** Each owned or process-wide pragma, in the spellings SQLite accepts. */
    static final List<String> TEXTS = List.of(
            "PRAGMA busy_timeout = 0",
            "pragma main.\"busy_timeout\"(0)",
            "/* a */ PRAGMA -- b\n [busy_timeout] = 0",
            "EXPLAIN PRAGMA `busy_timeout`=0",
            "PRAGMA wal_autocheckpoint = 1",
            "PRAGMA 'main'.wal_autocheckpoint(1)",
            "PRAGMA journal_mode = DELETE",
            "PRAGMA max_page_count = 1",
            "PRAGMA writable_schema = 1",
            "PRAGMA trusted_schema = 1",
            "PRAGMA schema_version = 99",
            "PRAGMA threads = 4",
            "PRAGMA count_changes = 1",
            "PRAGMA soft_heap_limit = 1000",
            "PRAGMA HARD_HEAP_LIMIT(1000)",
            "PRAGMA temp_store_directory = '/tmp'");

    static final List<String> PATHS = List.of("db.execute", "write body, execute",
            "write body, executeUpdate", "write body, prepareStatement", "write body, addBatch",
            "maintenance body", "db.executeScript", "db.executeBatch", "tx.execute", "tx.query",
            "dataSource, autocommit", "dataSource, transaction");

    static Path dir;
    static Lanes lanes;
    static Database db;
    static Map<String, Object> writerBefore;
    static Map<String, Object> processBefore;

    @BeforeAll
    static void open() throws Exception {
        dir = Files.createTempDirectory("owned-pragmas");
        lanes = Sandbox.runtime();
        db = Sandbox.openWithTable(lanes, dir, "owned.db", DatabaseOptions.DEFAULTS);
        writerBefore = writerSettings();
        processBefore = processSettings();
    }

    @AfterAll
    static void close() {
        if (lanes != null) {
            lanes.close();
        }
    }

    static Stream<Arguments> cases() {
        return PATHS.stream().flatMap(how -> TEXTS.stream().map(sql -> Arguments.of(how, sql)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void anOwnedOrProcessWidePragmaIsRefusedBeforeSqliteAppliesIt(String how, String sql)
            throws Exception {
        Throwable t = catchThrowable(() -> run(how, sql));
        LanesException e = Sandbox.lanesFailure(t);
        assertThat(e).as("%s: %s", how, t).isInstanceOf(InvalidRequestException.class);
        // a body's transaction ends rolled back when its statement was refused
        assertThat(e.outcome()).isIn(WriteOutcome.NOT_STARTED, how.contains("body")
                ? WriteOutcome.ROLLED_BACK : WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("owned.db").contains("nothing ran")
                .containsAnyOf("is refused on the writer", "process-wide");
        assertThat(writerSettings()).as("the writer's settings after %s", sql)
                .isEqualTo(writerBefore);
        assertThat(processSettings()).as("the process's settings after %s", sql)
                .isEqualTo(processBefore);
        Sandbox.assertHealthy(db);
    }

    @Test
    void readingTheSettingsStillRunsOnTheWriterAndOnReaders() {
        assertThat(writerSettings()).containsEntry("journal_mode", "wal");
        assertThat(db.query("PRAGMA journal_mode").get(0).get(0)).isEqualTo("wal");
        assertThat(db.query("PRAGMA soft_heap_limit")).hasSize(1);
        assertThat(db.query("PRAGMA main.busy_timeout")).hasSize(1);
    }

    /** The writer connection's settings that Lanes owns, read in a write body. */
    private static Map<String, Object> writerSettings() {
        return db.write(c -> read(c, "busy_timeout", "wal_autocheckpoint", "journal_mode",
                "max_page_count", "writable_schema", "trusted_schema", "schema_version",
                "threads", "count_changes", "query_only", "locking_mode", "synchronous"));
    }

    /** The process-wide settings, read on a reader. */
    private static Map<String, Object> processSettings() {
        return db.read(c -> read(c, "soft_heap_limit", "hard_heap_limit",
                "temp_store_directory"));
    }

    private static Map<String, Object> read(Connection c, String... pragmas)
            throws SQLException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String p : pragmas) {
            try (ResultSet rs = c.createStatement().executeQuery("PRAGMA " + p)) {
                values.put(p, rs.next() ? rs.getObject(1) : null);
            }
        }
        return values;
    }

    private static void run(String how, String sql) throws SQLException {
        switch (how) {
            case "dataSource, autocommit":
                try (Connection c = db.dataSource().getConnection()) {
                    c.createStatement().execute(sql);
                }
                break;
            case "dataSource, transaction":
                try (Connection c = db.dataSource().getConnection()) {
                    c.setAutoCommit(false);
                    try {
                        c.createStatement().execute(sql);
                    } finally {
                        c.rollback();
                    }
                }
                break;
            default:
                Sandbox.runOnWriter(db, how, sql);
        }
    }
}
