package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static dev.lanes.sandbox.Sandbox.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DeadlineExceededException;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The data source's statements end, and end typed, whatever a caller hands them. */
@Timeout(60)
class DataSourceEndsTest {
    @TempDir Path dir;
    Lanes lanes;
    Database db;

    @BeforeEach
    void start() {
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "ends.db", DatabaseOptions.DEFAULTS);
        db.execute("INSERT INTO t(v) VALUES ('kept')");
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    @Test
    void aMillionParametersSetOneByOneLeaveThePreparedStatementUsable() throws Exception {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("SELECT ?")) {
            for (int i = 1; i <= 1_000_000; i++) {
                s.setInt(i, i);
            }
            s.clearParameters();
            s.setString(1, "after a million");
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("after a million");
            }
        }
        assertHealthy(db);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"INSERT INTO t(v) VALUES (?)", "SELECT ?",
            "UPDATE t SET v = ? WHERE 0", "PRAGMA user_version = 7"})
    void aPreparedBatchInAReadOnlyTransactionIsRefusedTypedAndWritesNothing(String sql)
            throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            PreparedStatement s = c.prepareStatement(sql);
            if (sql.contains("?")) {
                s.setString(1, "batched");
            }
            s.addBatch();
            Throwable t = catchThrowable(s::executeBatch);

            assertThat(t).as(sql).isInstanceOf(SQLException.class);
            assertThat(((SQLException) t).getSQLState()).isNotNull();
            LanesException e = Sandbox.lanesFailure(t);
            assertThat(e).isNotNull();
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getMessage()).contains("statement 0 of the batch");
            c.rollback();
        }
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);
        assertThat(scalar(db, "PRAGMA user_version")).isZero();
        assertHealthy(db);
    }

    @Test
    void anEmptyBatchInAReadOnlyTransactionRunsNothingAndEnds() throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertThat(c.createStatement().executeBatch()).isEmpty();
            assertThat(c.prepareStatement("SELECT 1").executeBatch()).isEmpty();
            c.commit();
        }
        assertHealthy(db);
    }

    /** A query that never returns: it counts rows without end. */
    static final String RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
            + "FROM c) SELECT count(*) FROM c";

    @ParameterizedTest(name = "{0}")
    @ValueSource(booleans = {false, true})
    void aRunawayQueryInAReadOnlyTransactionEndsAtItsQueryTimeoutAndTheConnectionGoesOn(
            boolean prepared) throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            java.sql.Statement s = prepared ? c.prepareStatement(RUNAWAY) : c.createStatement();
            s.setQueryTimeout(1);

            Throwable t = catchThrowable(() -> {
                if (prepared) {
                    ((PreparedStatement) s).executeQuery();
                } else {
                    s.executeQuery(RUNAWAY);
                }
            });

            assertThat(t).isInstanceOf(SQLTimeoutException.class);
            assertThat(Sandbox.lanesFailure(t)).isInstanceOf(DeadlineExceededException.class)
                    .hasMessageContaining("deadline");
            c.rollback();
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(1);
            }
            c.commit();
        }
        assertHealthy(db);
    }

    @Test
    void aRunawayQueryInAReadWriteTransactionEndsAtItsQueryTimeoutAndFreesTheWriter()
            throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('in-tx')");
            java.sql.Statement s = c.createStatement();
            s.setQueryTimeout(1);

            Throwable t = catchThrowable(() -> s.executeQuery(RUNAWAY));

            assertThat(t).isInstanceOf(SQLTimeoutException.class);
            assertThat(Sandbox.lanesFailure(t)).isInstanceOf(DeadlineExceededException.class)
                    .hasMessageContaining("query timeout")
                    .hasMessageContaining("stays open");
            // the query changed nothing: the transaction goes on and commits what it wrote
            c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('after')");
            c.commit();
        }
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(3);
        assertHealthy(db);
    }

    @Test
    void aRunawayWriteInAReadWriteTransactionIsStoppedAndRollsTheTransactionBack()
            throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('in-tx')");
            PreparedStatement s = c.prepareStatement("INSERT INTO t(v) WITH RECURSIVE "
                    + "c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT 'runaway' FROM c");
            s.setQueryTimeout(1);

            Throwable t = catchThrowable(s::executeUpdate);

            assertThat(t).isInstanceOf(SQLTimeoutException.class);
            LanesException f = Sandbox.lanesFailure(t);
            assertThat(f).isInstanceOf(DeadlineExceededException.class)
                    .hasMessageContaining("query timeout");
            assertThat(f.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            c.rollback();
        }
        // nothing of the transaction stays, and the writer takes the next write
        db.execute("INSERT INTO t(v) VALUES ('next')");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(2);
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v IN ('in-tx', 'runaway')")).isZero();
        assertHealthy(db);
    }
}
