package dev.lanes.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.internal.cluster.SqliteClusterEngine.CommitFault;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dataSource()} of a cluster database, on the engine whose sessions are local SQLite
 * connections with planted faults: the outcome rules hold through JDBC (an uncertain commit
 * resolved committed returns normally, an unresolvable one is SQLState 40003), generated keys
 * come from the lane's session, and what a cluster cannot do is refused typed before anything
 * runs. The same calls on a real dqlite cluster are in lanes-dqlite's {@code JdbcOnClusterTest}.
 */
@Timeout(60)
class ClusterJdbcTest {
    @TempDir
    Path dir;
    private Lanes lanes;
    private SqliteClusterEngine engine;
    private Database db;
    private DataSource ds;

    @BeforeEach
    void open() {
        lanes = Lanes.builder().name("cluster-jdbc-test").maxThreads(4).build();
        engine = new SqliteClusterEngine(dir);
        db = lanes.openCluster(engine, "app", DatabaseOptions.builder()
                .busyTimeout(Duration.ofSeconds(2)).build());
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
        ds = db.dataSource();
    }

    @AfterEach
    void close() {
        lanes.close();
    }

    private long count() {
        return db.query("SELECT count(*) AS n FROM t").get(0).getLong("n");
    }

    @Test
    void anInsertGivesItsGeneratedKeyAndLastInsertRowidAnswersIt() throws SQLException {
        db.execute("INSERT INTO t(v) VALUES ('first')");
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)",
                        Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, "second");
            assertThat(insert.executeUpdate()).isEqualTo(1);
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong(1)).isEqualTo(2);
            }
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT last_insert_rowid()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(2);
            }
        }
    }

    /**
     * An insert whose generated key could not be read after it ran was reported rolled back,
     * while its row stayed in the group's transaction, which committed it; inside a transaction
     * the row stayed there too, and the commit committed it.
     */
    /**
     * In auto-commit mode the failed insert alone is undone; in a transaction the whole
     * transaction is rolled back (a savepoint around every key-reading insert would cost two
     * round trips each, for a failure that only a fault causes), and its commit says so.
     */
    @Test
    void anInsertWhoseKeyReadFailsLeavesNoRowInAutoCommitModeOrInATransaction()
            throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO t(v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            engine.refuseNextStatement("last_insert_rowid");
            insert.setString(1, "auto");
            SQLException auto = catchThrowableOfType(insert::executeUpdate, SQLException.class);
            assertThat(((dev.lanes.LanesException) auto.getCause()).outcome())
                    .isEqualTo(dev.lanes.WriteOutcome.ROLLED_BACK);
            assertThat(count()).as("nothing of the failed insert").isZero();

            c.setAutoCommit(false);
            insert.setString(1, "before");
            assertThat(insert.executeUpdate()).isEqualTo(1);
            engine.refuseNextStatement("last_insert_rowid");
            insert.setString(1, "failed");
            SQLException inTx = catchThrowableOfType(insert::executeUpdate, SQLException.class);
            assertThat(((dev.lanes.LanesException) inTx.getCause()).outcome())
                    .isEqualTo(dev.lanes.WriteOutcome.ROLLED_BACK);
            assertThat((Throwable) catchThrowableOfType(c::commit, SQLException.class))
                    .as("the transaction was rolled back whole")
                    .isInstanceOf(java.sql.SQLTransactionRollbackException.class);
            c.rollback();
            insert.setString(1, "after");
            assertThat(insert.executeUpdate()).isEqualTo(1);
            c.commit();
        }
        assertThat(db.query("SELECT v FROM t ORDER BY id").stream().map(r -> r.getString("v")))
                .as("the rolled-back transaction left nothing").containsExactly("after");
    }

    @Test
    void aCommitThatAppliedBeforeTheConnectionDroppedReturnsItsCountOnce() throws SQLException {
        engine.failNextCommit(CommitFault.APPLIED_THEN_DROPPED);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO t(v) VALUES ('once')")).isEqualTo(1);
        }
        assertThat(count()).isEqualTo(1);
        assertThat(engine.sentCount("INSERT INTO t(v) VALUES ('once')")).isEqualTo(1);
    }

    @Test
    void aCommitThatCannotBeResolvedIsCompletionUnknown() throws SQLException {
        engine.failNextCommit(CommitFault.DROPPED_BEFORE);
        engine.unreachable();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            SQLException unknown = catchThrowableOfType(
                    () -> s.executeUpdate("INSERT INTO t(v) VALUES ('lost')"), SQLException.class);
            assertThat(unknown.getSQLState()).isEqualTo("40003");
        }
    }

    @Test
    void aTransactionCommitsRollsBackAndRollsBackToASavepoint() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('kept')");
            Savepoint sp = c.setSavepoint();
            s.executeUpdate("INSERT INTO t(v) VALUES ('undone')");
            c.rollback(sp);
            try (ResultSet rs = s.executeQuery("SELECT v FROM t ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("v")).isEqualTo("kept");
                assertThat(rs.next()).isFalse();
            }
            assertThat(count()).isZero(); // not committed yet: the read sessions do not see it
            c.commit();
            s.executeUpdate("INSERT INTO t(v) VALUES ('rolled back')");
            c.rollback();
        }
        assertThat(db.query("SELECT v FROM t").stream().map(r -> r.getString("v")))
                .containsExactly("kept");
    }

    @Test
    void aBatchIsOneAtomicWrite() throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            insert.setString(1, "a");
            insert.addBatch();
            insert.setString(1, "b");
            insert.addBatch();
            assertThat(insert.executeBatch()).containsExactly(1, 1);
            insert.setString(1, "c");
            insert.addBatch();
            insert.setString(1, "a");
            insert.addBatch();
            catchThrowableOfType(insert::executeBatch,
                    SQLIntegrityConstraintViolationException.class); // 'a' is taken: all undone
        }
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void whatAClusterCannotDoIsRefusedTypedAndNothingRuns() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            catchThrowableOfType(
                    () -> s.executeQuery("INSERT INTO t(v) VALUES ('r') RETURNING id"),
                    SQLFeatureNotSupportedException.class);

            catchThrowableOfType(
                    () -> s.executeUpdate("INSERT INTO t(v) VALUES ('u') RETURNING id"),
                    SQLFeatureNotSupportedException.class);
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('in tx')");
            SQLException inTx = catchThrowableOfType(
                    () -> s.executeUpdate("INSERT INTO t(v) VALUES ('x') RETURNING id"),
                    SQLException.class);
            assertThat(inTx.getSQLState()).isEqualTo("0A000");
            try (ResultSet rs = s.executeQuery("SELECT count(*) AS n FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("n")).isEqualTo(1); // the refusal left the transaction open
            }
            c.rollback();
        }
        assertThat(count()).isZero();
        assertThat(engine.sentCount("INSERT INTO t(v) VALUES ('r') RETURNING id")).isZero();
    }

    private static long countIn(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) AS n FROM t")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong("n");
        }
    }

    @Test
    void aReadOnlyTransactionReadsOneSnapshotOnAReadSessionAndHoldsNoWriteBack()
            throws SQLException {
        db.execute("INSERT INTO t(v) VALUES ('before')");
        try (Connection c = ds.getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertThat(countIn(c)).isEqualTo(1);
            assertThat(db.diagnostics().readers().currentCheckouts()).isEqualTo(1);

            // the lane is free: an auto-commit write commits while the snapshot is open
            db.execute("INSERT INTO t(v) VALUES ('during')");
            assertThat(count()).isEqualTo(2);
            assertThat(countIn(c)).as("the snapshot of the first statement").isEqualTo(1);

            Savepoint sp = c.setSavepoint();
            assertThat(countIn(c)).isEqualTo(1);
            c.rollback(sp);

            try (Statement s = c.createStatement()) {
                SQLException write = catchThrowableOfType(
                        () -> s.executeUpdate("INSERT INTO t(v) VALUES ('refused')"),
                        SQLException.class);
                assertThat(write.getCause()).isInstanceOf(dev.lanes.ReadOnlyViolationException.class);
            }
            assertThat(engine.sentCount("INSERT INTO t(v) VALUES ('refused')")).isZero();
            assertThat(countIn(c)).as("a refused write leaves the snapshot open").isEqualTo(1);

            c.commit();
            assertThat(db.diagnostics().readers().currentCheckouts()).isZero();
            assertThat(countIn(c)).as("the next transaction's snapshot").isEqualTo(2);
            c.rollback();
        }
        assertThat(db.diagnostics().readers().currentCheckouts()).isZero();
        assertThat(engine.sentCount("ROLLBACK")).as("each snapshot ends with one").isEqualTo(2);
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void aReadOnlyTransactionWhoseSessionDropsAfterItsFirstReadFailsTheRestAndTheNextOneWorks()
            throws SQLException {
        db.execute("INSERT INTO t(v) VALUES ('one')");
        try (Connection c = ds.getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertThat(countIn(c)).isEqualTo(1);

            engine.dropNextStatement("SELECT v FROM t");
            try (Statement s = c.createStatement()) {
                SQLException lost = catchThrowableOfType(() -> s.executeQuery("SELECT v FROM t"),
                        SQLException.class);
                assertThat(lost.getCause()).isInstanceOf(dev.lanes.ReadFailedException.class);
                assertThat(((dev.lanes.LanesException) lost.getCause()).outcome())
                        .isEqualTo(dev.lanes.WriteOutcome.NOT_STARTED);
                assertThat(lost.getMessage()).contains("snapshot");
                // no other session may answer inside what was one snapshot
                SQLException after = catchThrowableOfType(() -> countIn(c), SQLException.class);
                assertThat(after.getMessage()).contains("snapshot");
            }
            c.rollback();
            assertThat(db.diagnostics().readers().currentCheckouts()).isZero();

            db.execute("INSERT INTO t(v) VALUES ('two')");
            assertThat(countIn(c)).isEqualTo(2);
            c.commit();
        }
        assertThat(db.diagnostics().readers().currentCheckouts()).isZero();
    }

    @Test
    void aReadOnlyTransactionsFirstReadRunsOnceMoreWhenItsSessionDroppedBeforeAnySnapshot()
            throws SQLException {
        db.execute("INSERT INTO t(v) VALUES ('one')");
        try (Connection c = ds.getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            engine.dropNextStatement("SELECT count(*) AS n FROM t");
            assertThat(countIn(c)).isEqualTo(1);
            assertThat(engine.sentCount("BEGIN")).as("one per session tried").isEqualTo(2);
            c.commit();
        }
        assertThat(db.diagnostics().readers().currentCheckouts()).isZero();
    }

    @Test
    void readOnlyTransactionsShareTheReadSessionsAndOneBeyondThemWaitsItsTimeoutUnrun()
            throws Exception {
        Database small = lanes.openCluster(engine, "small", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(Duration.ofMillis(200)).build());
        small.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
        try (Connection holder = small.dataSource().getConnection();
                Connection second = small.dataSource().getConnection()) {
            holder.setReadOnly(true);
            holder.setAutoCommit(false);
            assertThat(countIn(holder)).isZero();
            second.setReadOnly(true);
            second.setAutoCommit(false);
            SQLException refused = catchThrowableOfType(() -> countIn(second), SQLException.class);
            assertThat((Throwable) refused).isInstanceOf(java.sql.SQLTransientException.class);
            assertThat(refused.getCause()).isInstanceOf(dev.lanes.AdmissionTimeoutException.class);
            holder.commit();
            assertThat(countIn(second)).isZero();
            second.commit();
        }
        assertThat(small.diagnostics().readers().currentCheckouts()).isZero();
    }

    private static List<String> tables(DatabaseMetaData meta) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE", "VIEW"})) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
            }
        }
        return names;
    }

    @Test
    void metaDataDescribesTheClusterDatabasesCommittedSchema() throws SQLException {
        db.execute("CREATE TABLE child(id INTEGER PRIMARY KEY AUTOINCREMENT, t_id INTEGER NOT NULL"
                + " REFERENCES t(id), note TEXT DEFAULT 'none')");
        db.execute("CREATE INDEX child_t ON child(t_id)");
        db.execute("CREATE VIEW named AS SELECT v FROM t WHERE v IS NOT NULL");
        db.execute("CREATE TRIGGER child_note AFTER INSERT ON child BEGIN SELECT 1; END");
        db.execute("INSERT INTO t(v) VALUES ('row')");
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            assertThat(meta.getConnection()).isSameAs(c);
            assertThat(meta.getDatabaseProductName()).isEqualTo("SQLite");
            // the lane's ledger of group ids is a table of the database too
            assertThat(tables(meta)).containsExactlyInAnyOrder("t:TABLE", "child:TABLE",
                    "named:VIEW", GroupLedger.TABLE + ":TABLE");
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = meta.getColumns(null, null, "child", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME")
                            + " " + rs.getInt("NULLABLE") + " " + rs.getString("COLUMN_DEF"));
                }
            }
            assertThat(columns).containsExactly("id INTEGER 1 null", "t_id INTEGER 0 null",
                    "note TEXT 1 'none'");
            try (ResultSet rs = meta.getImportedKeys(null, null, "child")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("PKTABLE_NAME")).isEqualTo("t");
                assertThat(rs.getString("FKCOLUMN_NAME")).isEqualTo("t_id");
            }
            List<String> indexes = new ArrayList<>();
            try (ResultSet rs = meta.getIndexInfo(null, null, "child", false, false)) {
                while (rs.next()) {
                    indexes.add(rs.getString("INDEX_NAME"));
                }
            }
            assertThat(indexes).contains("child_t");

            // a later schema change shows in the next call
            db.execute("CREATE TABLE later(x)");
            assertThat(tables(meta)).contains("later:TABLE");
        }
        assertThat(count()).isEqualTo(1);
    }

    /**
     * Flyway and Hibernate introspect the schema their migration just created, before it
     * commits: inside a cluster transaction the metadata described the committed schema, so a
     * table created in it did not show until the commit.
     */
    @Test
    void metaDataInsideATransactionDescribesItsOwnUncommittedSchema() throws Exception {
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE in_tx(x VARCHAR(20) NOT NULL)");
            }
            assertThat(tables(meta)).as("its own DDL").contains("in_tx:TABLE");
            try (ResultSet rs = meta.getColumns(null, null, "in_tx", "%")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("x");
                assertThat(rs.getString("TYPE_NAME")).isEqualTo("VARCHAR");
            }
            java.util.concurrent.ExecutorService other =
                    java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                List<String> elsewhere = other.submit(() -> {
                    try (Connection c2 = ds.getConnection()) {
                        return tables(c2.getMetaData());
                    }
                }).get(30, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(elsewhere).as("another thread sees the committed schema")
                        .doesNotContain("in_tx:TABLE").contains("t:TABLE");
            } finally {
                other.shutdown();
            }
            c.rollback();
            assertThat(tables(meta)).as("rolled back").doesNotContain("in_tx:TABLE");

            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE kept(x)");
            }
            c.commit();
            c.setAutoCommit(true);
            assertThat(tables(meta)).contains("kept:TABLE");
        }
    }

    /**
     * A query's metadata on a cluster came from its rows: an empty result had no columns, so
     * Spring's and Hibernate's row mappers found none, and every declared type was unknown.
     */
    @Test
    void aQuerysMetaDataNamesItsColumnsWhenEmptyAndGivesDeclaredTypes() throws SQLException {
        db.execute("CREATE TABLE typed(id INTEGER PRIMARY KEY, name VARCHAR(10), at DATETIME, "
                + "flag BOOLEAN)");
        db.execute("INSERT INTO typed(name, at, flag) VALUES ('a', 0, 1)");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT id, name AS label, at, flag, 1 + 1 AS two "
                    + "FROM typed WHERE id < 0")) {
                assertThat(rs.next()).isFalse();
                java.sql.ResultSetMetaData meta = rs.getMetaData();
                assertThat(meta.getColumnCount()).as("an empty result's columns").isEqualTo(5);
                assertThat(meta.getColumnLabel(2)).isEqualTo("label");
                assertThat(typeNames(meta)).containsExactly("INTEGER", "VARCHAR", "DATETIME",
                        "BOOLEAN", "NUMERIC");
            }
            try (ResultSet rs = s.executeQuery("SELECT name, at FROM typed")) {
                assertThat(rs.next()).isTrue();
                assertThat(typeNames(rs.getMetaData())).as("declared, not the values' classes")
                        .containsExactly("VARCHAR", "DATETIME");
            }
            c.setReadOnly(true);
            c.setAutoCommit(false);
            try (ResultSet rs = s.executeQuery("SELECT name FROM typed WHERE id < 0")) {
                assertThat(typeNames(rs.getMetaData())).as("in a read-only transaction")
                        .containsExactly("VARCHAR");
            }
            c.commit();
            c.setReadOnly(false);
            try (Statement ddl = c.createStatement()) {
                ddl.executeUpdate("CREATE TABLE fresh(d DECIMAL(5, 2))");
            }
            try (ResultSet rs = s.executeQuery("SELECT d FROM fresh")) {
                assertThat(rs.getMetaData().getColumnCount()).isEqualTo(1);
                assertThat(typeNames(rs.getMetaData())).as("a table of the transaction's own")
                        .containsExactly("DECIMAL");
            }
            c.rollback();
        }
    }

    private static List<String> typeNames(java.sql.ResultSetMetaData meta) throws SQLException {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            names.add(meta.getColumnTypeName(i));
        }
        return names;
    }

    @Test
    void metaDataFromAVirtualThreadRunsTheCopyOnAPlatformThread() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 21,
                "virtual threads need JDK 21+");
        java.util.concurrent.ExecutorService virtual = (java.util.concurrent.ExecutorService)
                java.util.concurrent.Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                        .invoke(null);
        try {
            java.util.concurrent.Future<List<String>> seen = virtual.submit(() -> {
                try (Connection c = ds.getConnection()) {
                    return tables(c.getMetaData());
                }
            });
            assertThat(seen.get(30, java.util.concurrent.TimeUnit.SECONDS))
                    .containsExactlyInAnyOrder("t:TABLE", GroupLedger.TABLE + ":TABLE");
        } finally {
            virtual.shutdown();
        }
    }

    @Test
    void metaDataAfterTheDatabaseClosedFailsTyped() throws SQLException {
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            assertThat(tables(meta)).contains("t:TABLE");
            db.close();
            SQLException closed = catchThrowableOfType(() -> tables(meta), SQLException.class);
            assertThat(closed.getCause()).isInstanceOf(dev.lanes.LanesException.class);
        }
    }
}
