package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.dqlite.testing.LocalCluster;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Plain JDBC through {@code db.dataSource()} of a database on a real 3-node dqlite cluster:
 * auto-commit statements with generated keys, reads, transactions (commit, rollback, a
 * savepoint), read-only transactions, batches, metadata, and the typed refusals of what a
 * cluster does not give. Each test uses
 * its own database.
 */
@Tag("slow")
@Timeout(90)
class JdbcOnClusterTest {
    private static LocalCluster cluster;
    private static Lanes lanes;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(3);
        lanes = Lanes.builder().name("jdbc-on-cluster").maxThreads(8).build();
    }

    @AfterAll
    static void stop() {
        if (lanes != null) {
            lanes.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Database open(String name) {
        Database db = lanes.openCluster(cluster.client(), name, DatabaseOptions.builder()
                .busyTimeout(Duration.ofSeconds(10)).build());
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE, n INTEGER)");
        return db;
    }

    private static List<String> values(Database db) {
        return db.query("SELECT v FROM t ORDER BY id").stream().map(r -> r.getString("v"))
                .toList();
    }

    @Test
    void insertSelectAndUpdateInAutoCommitMode() throws SQLException {
        Database db = open("jdbc-basics");
        DataSource ds = db.dataSource();
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO t(v, n) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, "a");
            insert.setInt(2, 1);
            assertThat(insert.executeUpdate()).isEqualTo(1);
            insert.setString(1, "b");
            insert.setInt(2, 2);
            assertThat(insert.executeUpdate()).isEqualTo(1);
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong(1)).isEqualTo(2);
            }

            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE t SET n = n + 10 WHERE v = ?")) {
                update.setString(1, "a");
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT id, v, n AS total FROM t WHERE n > ? ORDER BY id")) {
                select.setInt(1, 0);
                try (ResultSet rs = select.executeQuery()) {
                    assertThat(rs.getMetaData().getColumnLabel(3)).isEqualTo("total");
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString("v")).isEqualTo("a");
                    assertThat(rs.getInt("total")).isEqualTo(11);
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong("id")).isEqualTo(2);
                    assertThat(rs.getInt("total")).isEqualTo(2);
                    assertThat(rs.next()).isFalse();
                }
            }
        }
        assertThat(values(db)).containsExactly("a", "b");
    }

    @Test
    void aTransactionCommitsAndAnotherRollsBack() throws SQLException {
        Database db = open("jdbc-tx");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            assertThat(s.executeUpdate("INSERT INTO t(v) VALUES ('kept')")).isEqualTo(1);
            Savepoint sp = c.setSavepoint("sp");
            s.executeUpdate("INSERT INTO t(v) VALUES ('undone')");
            c.rollback(sp);
            try (ResultSet rs = s.executeQuery("SELECT count(*) AS n FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("n")).isEqualTo(1); // the transaction sees its own write
            }
            c.commit();

            s.executeUpdate("INSERT INTO t(v) VALUES ('rolled back')");
            c.rollback();
        }
        assertThat(values(db)).containsExactly("kept");
    }

    @Test
    void aBatchCommitsWholeOrNotAtAll() throws SQLException {
        Database db = open("jdbc-batch");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            for (String v : List.of("a", "b", "c")) {
                insert.setString(1, v);
                insert.addBatch();
            }
            assertThat(insert.executeBatch()).containsExactly(1, 1, 1);
            insert.setString(1, "d");
            insert.addBatch();
            insert.setString(1, "a");
            insert.addBatch();
            SQLException failed = catchThrowableOfType(insert::executeBatch, SQLException.class);
            assertThat(failed.getSQLState()).startsWith("23"); // the unique constraint on 'a'
        }
        assertThat(values(db)).containsExactly("a", "b", "c");
    }

    @Test
    void whatAClusterDoesNotGiveIsRefusedTypedAndNothingRuns() throws SQLException {
        Database db = open("jdbc-refused");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            catchThrowableOfType(
                    () -> s.executeQuery("INSERT INTO t(v) VALUES ('r') RETURNING id"),
                    SQLFeatureNotSupportedException.class);
        }
        assertThat(values(db)).isEmpty();
    }

    @Test
    void aReadOnlyTransactionIsOneSnapshotOnTheLeaderBesideTheWriterLane() throws SQLException {
        Database db = open("jdbc-read-only");
        db.execute("INSERT INTO t(v, n) VALUES ('before', 1)");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertThat(count(s)).isEqualTo(1);
            // the lane is not held: a write commits on the cluster meanwhile
            db.execute("INSERT INTO t(v, n) VALUES ('during', 2)");
            assertThat(values(db)).containsExactly("before", "during");
            assertThat(count(s)).as("the snapshot of the first read").isEqualTo(1);
            SQLException write = catchThrowableOfType(
                    () -> s.executeUpdate("UPDATE t SET n = 0"), SQLException.class);
            assertThat(write.getCause()).isInstanceOf(dev.lanes.ReadOnlyViolationException.class);
            c.commit();
            assertThat(count(s)).as("a new snapshot").isEqualTo(2);
            c.rollback();
        }
        assertThat(db.query("SELECT sum(n) AS n FROM t").get(0).getLong("n")).isEqualTo(3);
        assertThat(db.diagnostics().readers().currentCheckouts()).isZero();
    }

    @Test
    void metaDataDescribesTheSchemaCommittedOnTheCluster() throws SQLException {
        Database db = open("jdbc-metadata");
        db.execute("CREATE TABLE child(id INTEGER PRIMARY KEY, t_id INTEGER NOT NULL "
                + "REFERENCES t(id), note TEXT)");
        db.execute("CREATE INDEX child_t ON child(t_id)");
        try (Connection c = db.dataSource().getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            assertThat(meta.getDatabaseProductName()).isEqualTo("SQLite");
            List<String> tables = new java.util.ArrayList<>();
            try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertThat(tables).contains("t", "child");
            List<String> columns = new java.util.ArrayList<>();
            try (ResultSet rs = meta.getColumns(null, null, "child", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("NULLABLE"));
                }
            }
            assertThat(columns).containsExactly("id 1", "t_id 0", "note 1");
            try (ResultSet rs = meta.getImportedKeys(null, null, "child")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("PKTABLE_NAME")).isEqualTo("t");
            }
        }
    }

    /**
     * dqlite names a result's columns before its rows, so an empty result has its columns; the
     * declared types, which the protocol does not carry, come from the schema; inside a
     * transaction the metadata sees the transaction's own DDL.
     */
    @Test
    void anEmptyResultHasItsColumnsWithDeclaredTypesAndATransactionSeesItsOwnSchema()
            throws SQLException {
        Database db = open("jdbc-result-metadata");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT id, v AS label, n FROM t WHERE id < 0")) {
                assertThat(rs.next()).isFalse();
                java.sql.ResultSetMetaData meta = rs.getMetaData();
                assertThat(meta.getColumnCount()).isEqualTo(3);
                assertThat(meta.getColumnLabel(2)).isEqualTo("label");
                assertThat(List.of(meta.getColumnTypeName(1), meta.getColumnTypeName(2),
                        meta.getColumnTypeName(3))).containsExactly("INTEGER", "TEXT", "INTEGER");
            }
            c.setAutoCommit(false);
            s.executeUpdate("CREATE TABLE in_tx(x VARCHAR(20))");
            List<String> tables = new java.util.ArrayList<>();
            try (ResultSet rs = c.getMetaData().getTables(null, null, "in_tx", null)) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertThat(tables).as("its own uncommitted table").containsExactly("in_tx");
            try (ResultSet rs = s.executeQuery("SELECT x FROM in_tx")) {
                assertThat(rs.getMetaData().getColumnCount()).isEqualTo(1);
                assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("VARCHAR");
            }
            c.rollback();
        }
    }

    private static long count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) AS n FROM t")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong("n");
        }
    }
}
