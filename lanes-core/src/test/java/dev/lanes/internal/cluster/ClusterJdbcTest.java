package dev.lanes.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.internal.cluster.SqliteClusterEngine.CommitFault;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
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
            catchThrowableOfType(c::getMetaData, SQLFeatureNotSupportedException.class);
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
            c.setAutoCommit(true);

            c.setReadOnly(true);
            c.setAutoCommit(false);
            SQLFeatureNotSupportedException readOnly = catchThrowableOfType(
                    () -> s.executeQuery("SELECT count(*) FROM t"),
                    SQLFeatureNotSupportedException.class);
            assertThat(readOnly.getMessage()).contains("read-only");
        }
        assertThat(count()).isZero();
        assertThat(engine.sentCount("INSERT INTO t(v) VALUES ('r') RETURNING id")).isZero();
    }
}
