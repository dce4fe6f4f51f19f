package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.CheckpointResult;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.dqlite.testing.LocalCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backup}, {@code maintenance} and {@code checkpoint} of a database on a real 3-node dqlite
 * cluster: a backup is an ordinary SQLite file with the same schema and exactly the same values
 * (also those dqlite would send as another type, and text with a NUL), refuses an existing
 * target and leaves nothing when it fails; maintenance runs in auto-commit on the leader and
 * reports what committed; {@code PRAGMA wal_checkpoint}, which aborts libdqlite 1.11's leader at
 * its next write, is refused, and {@code checkpoint()} runs none and says so. Each test uses its
 * own database and ends with every node up.
 */
@Tag("slow")
@Timeout(120)
class ClusterMaintenanceTest {
    private static LanesOnCluster on;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        on = LanesOnCluster.start("cluster-maintenance");
    }

    @AfterAll
    static void stop() {
        if (on != null) {
            on.close();
        }
    }

    private static Database open(String name, DatabaseOptions.Builder options) {
        return on.open(name, options);
    }

    private static Database open(String name) {
        return open(name, DatabaseOptions.builder());
    }

    /** Tables of every kind, values of every type (some where dqlite would convert them). */
    private static void fill(Database db) {
        db.executeScript("CREATE TABLE v(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, "
                + "b BLOB, d DATETIME, f BOOLEAN, n);"
                + "CREATE TABLE plain(x TEXT);"
                + "CREATE TABLE seq(id INTEGER PRIMARY KEY AUTOINCREMENT, x);"
                + "CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID;"
                + "CREATE TABLE many(x INTEGER);"
                + "CREATE INDEX v_s ON v(s);"
                + "CREATE VIEW big AS SELECT id, i FROM v WHERE i > 1000;"
                + "CREATE TRIGGER seq_log AFTER INSERT ON seq BEGIN "
                + "INSERT INTO plain(x) VALUES ('trigger ' || new.id); END;");
        db.execute("INSERT INTO v VALUES (1, ?, ?, ?, ?, NULL, NULL, NULL)", Long.MAX_VALUE,
                0.1 + 0.2, "plain text, ünïcødé, 😀", new byte[] {0, 1, (byte) 0xff});
        db.execute("INSERT INTO v VALUES (7, ?, ?, ?, ?, 1.5, 'yes', 2.0)", Long.MIN_VALUE,
                -1e300, "", new byte[0]);
        db.execute("INSERT INTO v(id, s, d, f, n) VALUES (9, 'nul' || char(0) || 'inside', "
                + "'2024-05-01 12:30:00', 1, x'cafe')");
        db.execute("INSERT INTO plain(rowid, x) VALUES (42, 'rowid 42'), (5, 'rowid 5')");
        db.execute("INSERT INTO seq(x) VALUES ('a'), ('b'), ('c')");
        db.execute("DELETE FROM seq WHERE id = 3"); // the sequence stays at 3
        db.execute("INSERT INTO kv VALUES ('b', 2), ('a', 1.5)");
        db.execute("INSERT INTO many(x) WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL "
                + "SELECT n + 1 FROM c WHERE n < 700) SELECT n * n FROM c");
        db.execute("PRAGMA user_version = 7");
    }

    /**
     * Every value of every table as {@code typeof:hex} (exact for each type, a NUL included; a
     * REAL in 17 digits, which tell every double apart whatever SQLite renders it), with the
     * rowid where there is one; read the same way on the cluster and on the copy.
     */
    private static final List<String> CONTENT = List.of(
            "SELECT id, " + exact("i", "r", "s", "b", "d", "f", "n") + " FROM v ORDER BY id",
            "SELECT rowid, " + exact("x") + " FROM plain ORDER BY rowid",
            "SELECT id, " + exact("x") + " FROM seq ORDER BY id",
            "SELECT " + exact("k", "v") + " FROM kv ORDER BY k",
            "SELECT rowid, " + exact("x") + " FROM many ORDER BY rowid",
            "SELECT name, seq FROM sqlite_sequence ORDER BY name",
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                    + "ORDER BY name",
            "SELECT id, i FROM big ORDER BY id");

    private static String exact(String... columns) {
        return String.join(", ", Stream.of(columns)
                .map(c -> "typeof(" + c + ") || ':' || CASE typeof(" + c + ") WHEN 'real' "
                        + "THEN printf('%!.17g', " + c + ") ELSE hex(" + c + ") END").toList());
    }

    @Test
    void aBackupIsAnOrdinarySqliteFileWithTheSameSchemaAndExactlyTheSameValues()
            throws Exception {
        Database db = open("backup");
        fill(db);
        Path target = dir.resolve("copy.db");

        db.backup(target);

        try (Connection copy = DriverManager.getConnection("jdbc:sqlite:" + target)) {
            for (String sql : CONTENT) {
                List<List<Object>> onCluster = new ArrayList<>();
                db.query(sql).forEach(r -> {
                    List<Object> values = new ArrayList<>();
                    for (int i = 0; i < r.size(); i++) {
                        values.add(r.get(i));
                    }
                    onCluster.add(values);
                });
                assertThat(rows(copy, sql)).as(sql).isEqualTo(onCluster).isNotEmpty();
            }
            List<List<Object>> v = rows(copy, "SELECT i, r, s, b FROM v WHERE id = 1");
            assertThat(v.get(0).get(0)).isEqualTo(Long.MAX_VALUE);
            assertThat(v.get(0).get(1)).isEqualTo(0.1 + 0.2);
            assertThat(v.get(0).get(2)).isEqualTo("plain text, ünïcødé, 😀");
            assertThat((byte[]) v.get(0).get(3)).containsExactly(0, 1, 0xff);
            assertThat(rows(copy, "SELECT hex(s) FROM v WHERE id = 9").get(0).get(0))
                    .isEqualTo(hex("nul\0inside"));
            assertThat(rows(copy, "SELECT i, typeof(d), typeof(f), n FROM v WHERE id = 7"))
                    .containsExactly(List.of(Long.MIN_VALUE, "real", "text", 2.0));
            assertThat(rows(copy, "SELECT count(*) FROM many")).containsExactly(List.of(700L));
            assertThat(rows(copy, "PRAGMA user_version")).containsExactly(List.of(7L));
            assertThat(rows(copy, "PRAGMA journal_mode")).containsExactly(List.of("delete"));
            assertThat(rows(copy, "PRAGMA integrity_check")).containsExactly(List.of("ok"));
            // the trigger came along, after the rows (it did not fire while they were copied)
            copy.createStatement().execute("INSERT INTO seq(x) VALUES ('d')");
            assertThat(rows(copy, "SELECT max(id) FROM seq")).containsExactly(List.of(4L));
            assertThat(rows(copy, "SELECT count(*) FROM plain")).containsExactly(List.of(6L));
        }
        assertThat(siblings(target)).containsExactly("copy.db");
        db.execute("INSERT INTO v(id) VALUES (100)");
        assertThat(on.cluster.nodes()).allMatch(LocalCluster.Node::alive);
    }

    @Test
    void aBackupRefusesAnExistingTargetAndLeavesNothingWhenItFails() throws Exception {
        Database db = open("backup-failures", DatabaseOptions.builder().maxResultBytes(4096));
        db.execute("CREATE TABLE t(b BLOB)");
        Path existing = Files.writeString(dir.resolve("existing.db"), "mine");

        InvalidRequestException refused = catchThrowableOfType(() -> db.backup(existing),
                InvalidRequestException.class);
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(refused.getMessage()).contains("already exists");
        assertThat(Files.readString(existing)).isEqualTo("mine");

        db.execute("INSERT INTO t VALUES (zeroblob(3000))");
        db.execute("INSERT INTO t VALUES (zeroblob(3000))"); // a page past maxResultBytes
        Path target = dir.resolve("failed.db");
        LanesException failed = catchThrowableOfType(() -> db.backup(target),
                LanesException.class);
        assertThat(failed.getMessage()).contains("maxResultBytes");
        assertThat(siblings(target)).containsExactly("existing.db");
        assertThat(on.cluster.nodes()).allMatch(LocalCluster.Node::alive);
    }

    @Test
    void maintenanceRunsInAutoCommitOnTheLeaderAndReportsWhatCommitted() {
        Database db = open("maintenance");
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        db.execute("INSERT INTO t(v) VALUES ('a'), ('b'), ('c')");

        int ran = db.maintenance(c -> {
            c.createStatement().executeUpdate("CREATE INDEX t_v ON t(v)");
            c.createStatement().executeUpdate("ANALYZE");
            c.createStatement().executeUpdate("VACUUM"); // refused by SQLite in a transaction
            try (ResultSet rs = c.createStatement().executeQuery(
                    "SELECT count(*) FROM sqlite_master WHERE name = 't_v'")) {
                rs.next();
                return rs.getInt(1); // the body sees what it committed
            }
        });
        assertThat(ran).isEqualTo(1);
        assertThat(db.query("SELECT count(*) AS n FROM sqlite_stat1").get(0).getLong("n"))
                .isPositive();

        // the leader refuses the second statement: the first had committed on its own
        WriteFailedException partly = catchThrowableOfType(() -> db.maintenance(c -> {
            c.createStatement().executeUpdate("CREATE INDEX t_id ON t(id)");
            return c.createStatement().executeUpdate("CREATE INDEX nowhere ON missing(x)");
        }), WriteFailedException.class);
        assertThat(partly.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(partly).hasStackTraceContaining("no such table");
        assertThat(db.query("SELECT name FROM sqlite_master WHERE name = 't_id'")).hasSize(1);

        // refused by Lanes before anything is sent, whatever the JDBC call
        for (String call : List.of("update", "query")) {
            InvalidRequestException refused = catchThrowableOfType(() -> db.maintenance(c ->
                    call.equals("update")
                            ? c.createStatement().executeUpdate("PRAGMA wal_checkpoint(TRUNCATE)")
                            : c.createStatement().executeQuery("PRAGMA wal_checkpoint")),
                    InvalidRequestException.class);
            assertThat(refused.getMessage()).as(call)
                    .contains("PRAGMA wal_checkpoint is refused on a cluster database");
        }
        db.execute("INSERT INTO t(v) VALUES ('after')"); // the leader's next write
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(4);
        assertThat(on.cluster.nodes()).allMatch(LocalCluster.Node::alive);
    }

    @Test
    void checkpointRunsNoneAndSaysSo() {
        Database db = open("checkpoint");
        db.execute("CREATE TABLE t(v)");
        db.execute("INSERT INTO t VALUES (1)");

        CheckpointResult result = db.checkpoint();

        assertThat(result).isEqualTo(new CheckpointResult(false, -1, -1));
        // had it checkpointed through a session, the leader would abort at this write
        db.execute("INSERT INTO t VALUES (2)");
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
        assertThat(on.cluster.nodes()).allMatch(LocalCluster.Node::alive);
    }

    private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    Object value = rs.getObject(i);
                    row.add(value instanceof Integer n ? Long.valueOf(n) : value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            b.append(String.format("%02X", x));
        }
        return b.toString();
    }

    private static List<String> siblings(Path file) throws Exception {
        try (Stream<Path> files = Files.list(file.getParent())) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
