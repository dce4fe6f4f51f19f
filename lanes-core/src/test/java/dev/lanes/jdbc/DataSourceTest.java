package dev.lanes.jdbc;

import static dev.lanes.jdbc.JdbcFixture.count;
import static dev.lanes.jdbc.JdbcFixture.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code db.dataSource()}: statements become requests of the database, auto-commit reads run on
 * readers and writes on the lane, {@code setAutoCommit(false)} pins the lane or takes one reader
 * snapshot, savepoints work, and a thread that holds the lane cannot wait for itself.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DataSourceTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    @Test
    void autoCommitReadsRunOnReadersAndWritesOnTheLane() throws Exception {
        Database db = fixture.open("auto.db");
        DataSource ds = db.dataSource();
        assertThat(db.dataSource()).as("one per database").isSameAs(ds);
        long readsBefore = db.diagnostics().readers().acquisitions();
        long writesBefore = db.diagnostics().writer().counters().committed();
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            assertThat(c.getAutoCommit()).isTrue();
            insert.setString(1, "a");
            assertThat(insert.executeUpdate()).isEqualTo(1);
            insert.setString(1, "b");
            assertThat(insert.executeUpdate()).isEqualTo(1);
            try (PreparedStatement q = c.prepareStatement("SELECT v FROM t ORDER BY id");
                    ResultSet rs = q.executeQuery()) {
                List<String> values = new ArrayList<>();
                while (rs.next()) {
                    values.add(rs.getString("v"));
                }
                assertThat(values).containsExactly("a", "b");
            }
        }
        assertThat(db.diagnostics().writer().counters().committed() - writesBefore)
                .as("each insert one request on the lane").isEqualTo(2);
        assertThat(db.diagnostics().readers().acquisitions() - readsBefore)
                .as("the select ran on a reader").isEqualTo(1);
        assertThat(ds.unwrap(Database.class)).isSameAs(db);
        try (Connection c = ds.getConnection()) {
            assertThat(c.unwrap(Database.class)).isSameAs(db);
        }
    }

    @Test
    void aReadWriteTransactionCommitsWhatItDidAndRollsBackOnCloseWithoutCommit()
            throws Exception {
        Database db = fixture.open("tx.db");
        db.execute("INSERT INTO t(v) VALUES ('counter')");
        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            assertThat(db.isTransactionOpen()).as("nothing taken before the first statement")
                    .isFalse();
            long n = scalar(c, "SELECT count(*) FROM t");
            assertThat(db.isTransactionOpen()).as("the first statement pinned the lane").isTrue();
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t(v) VALUES ('in-tx')");
            }
            assertThat(scalar(c, "SELECT count(*) FROM t")).as("reads see the transaction's "
                    + "own writes").isEqualTo(n + 1);
            assertThat(count(db, "in-tx")).as("not visible outside before commit").isZero();
            c.commit();
            assertThat(db.isTransactionOpen()).isFalse();
            assertThat(count(db, "in-tx")).isEqualTo(1);

            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t(v) VALUES ('dropped')");
            }
            c.rollback();
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t(v) VALUES ('closed-without-commit')");
            }
        }
        assertThat(count(db, "dropped")).isZero();
        assertThat(count(db, "closed-without-commit")).as("close without commit rolls back")
                .isZero();
        assertThat(db.isTransactionOpen()).isFalse();
    }

    @Test
    void aReadOnlyTransactionIsOneSnapshotOnAReaderAndRefusesWrites() throws Exception {
        Database db = fixture.open("ro.db");
        db.execute("INSERT INTO t(v) VALUES ('before')");
        try (Connection c = db.dataSource().getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertThat(scalar(c, "SELECT count(*) FROM t")).isEqualTo(1);
            db.execute("INSERT INTO t(v) VALUES ('after')"); // the lane is not pinned
            assertThat(db.isTransactionOpen()).as("a read-only transaction pins nothing")
                    .isFalse();
            assertThat(scalar(c, "SELECT count(*) FROM t")).as("one snapshot for the whole "
                    + "transaction").isEqualTo(1);
            SQLException refused = catchThrowableOfType(SQLException.class, () -> {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO t(v) VALUES ('never')");
                }
            });
            assertThat((Throwable) refused).isInstanceOf(SQLNonTransientException.class);
            assertThat(refused.getCause()).isInstanceOf(ReadOnlyViolationException.class);
            c.commit();
            assertThat(scalar(c, "SELECT count(*) FROM t")).as("the next transaction sees the "
                    + "later write").isEqualTo(2);
            c.rollback();
        }
        assertThat(count(db, "never")).isZero();
    }

    @Test
    void savepointsRollBackPartOfATransaction() throws Exception {
        Database db = fixture.open("sp.db");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('kept')");
            Savepoint sp = c.setSavepoint();
            s.executeUpdate("INSERT INTO t(v) VALUES ('undone')");
            c.rollback(sp);
            Savepoint named = c.setSavepoint("nested");
            assertThat(named.getSavepointName()).isEqualTo("nested");
            s.executeUpdate("INSERT INTO t(v) VALUES ('released')");
            c.releaseSavepoint(named);
            c.commit();
        }
        assertThat(count(db, "kept")).isEqualTo(1);
        assertThat(count(db, "undone")).isZero();
        assertThat(count(db, "released")).isEqualTo(1);
    }

    @Test
    void generatedKeysAndReturningRowsComeFromTheWriter() throws Exception {
        Database db = fixture.open("keys.db");
        db.execute("INSERT INTO t(v) VALUES ('first')");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)",
                        Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, "second");
            assertThat(insert.executeUpdate()).isEqualTo(1);
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong(1)).isEqualTo(2);
            }
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("INSERT INTO t(v) VALUES ('third') "
                            + "RETURNING id, v")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong("id")).isEqualTo(3);
                assertThat(rs.getString("v")).isEqualTo("third");
            }
            c.setAutoCommit(false);
            insert.setString(1, "in-tx");
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong(1)).as("a key inside a transaction").isEqualTo(4);
            }
            c.commit();
        }
        assertThat(count(db, "third")).isEqualTo(1);
    }

    @Test
    void aBatchIsOneAtomicRequest() throws Exception {
        Database db = fixture.open("batch.db");
        db.execute("CREATE UNIQUE INDEX t_v ON t(v)");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            for (String v : List.of("x", "y", "z")) {
                insert.setString(1, v);
                insert.addBatch();
            }
            assertThat(insert.executeBatch()).containsExactly(1, 1, 1);
            for (String v : List.of("p", "x")) { // x again: the batch fails whole
                insert.setString(1, v);
                insert.addBatch();
            }
            SQLException e = catchThrowableOfType(SQLException.class, insert::executeBatch);
            assertThat((Throwable) e).isInstanceOf(SQLIntegrityConstraintViolationException.class);
            assertThat(e.getCause()).isInstanceOf(LanesException.class);
            assertThat(((LanesException) e.getCause()).outcome())
                    .isEqualTo(WriteOutcome.ROLLED_BACK);
        }
        assertThat(count(db, "p")).as("nothing of the failed batch persisted").isZero();
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(3);
    }

    @Test
    void aThreadHoldingThePinnedTransactionCannotWaitForItself() throws Exception {
        Database db = fixture.open("self.db");
        try (Connection c = db.dataSource().getConnection();
                Connection other = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t(v) VALUES ('pinned')");
            }
            InvalidRequestException direct = catchThrowableOfType(InvalidRequestException.class,
                    () -> db.execute("INSERT INTO t(v) VALUES ('deadlock')"));
            assertThat(direct).isNotNull();
            assertThat(direct.getMessage()).contains("this thread holds an open transaction on "
                    + "self.db");
            assertThat(direct.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);

            SQLException viaOther = catchThrowableOfType(SQLException.class, () -> {
                try (Statement s = other.createStatement()) {
                    s.executeUpdate("INSERT INTO t(v) VALUES ('deadlock')");
                }
            });
            assertThat((Throwable) viaOther).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThat(viaOther.getCause()).isInstanceOf(InvalidRequestException.class);

            other.setAutoCommit(false);
            SQLException requiresNew = catchThrowableOfType(SQLException.class, () -> {
                try (Statement s = other.createStatement()) {
                    s.executeUpdate("INSERT INTO t(v) VALUES ('deadlock')");
                }
            });
            assertThat((Throwable) requiresNew).as("a second transaction from the same thread")
                    .isNotNull();
            assertThat(requiresNew.getCause()).isInstanceOf(InvalidRequestException.class);

            // Another thread's write simply waits for the transaction, as writes always do.
            CountDownLatch submitted = new CountDownLatch(1);
            CompletableFuture<Integer> fromElsewhere = CompletableFuture.supplyAsync(() -> {
                submitted.countDown();
                return db.execute("INSERT INTO t(v) VALUES ('waited')");
            });
            assertThat(submitted.await(JdbcFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
            c.commit();
            assertThat(fromElsewhere.get(JdbcFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                    .isEqualTo(1);
        }
        assertThat(count(db, "pinned")).isEqualTo(1);
        assertThat(count(db, "deadlock")).isZero();
        assertThat(count(db, "waited")).isEqualTo(1);
    }

    @Test
    void metadataSeesTheTransactionsOwnSchemaAndReportsSerializable() throws Exception {
        Database db = fixture.open("meta.db");
        try (Connection c = db.dataSource().getConnection()) {
            assertThat(c.getTransactionIsolation())
                    .isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            assertThat(c.isValid(1)).isTrue();
            assertThat(tables(c.getMetaData())).contains("t");
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE created_in_tx(x INTEGER)");
            }
            assertThat(tables(c.getMetaData())).as("inside the transaction")
                    .contains("created_in_tx");
            assertThat(c.getMetaData().getConnection()).isSameAs(c);
            c.rollback();
            assertThat(tables(c.getMetaData())).doesNotContain("created_in_tx");
        }
    }

    private static List<String> tables(DatabaseMetaData meta) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME"));
            }
        }
        return names;
    }

    @Test
    void whatJdbcLetsADriverRefuseIsRefusedNotIgnored() throws Exception {
        Database db = fixture.open("refused.db");
        try (Connection c = db.dataSource().getConnection()) {
            assertThatThrownBy(() -> c.prepareCall("CALL x()")).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.createArrayOf("INTEGER", new Object[0])).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE,
                            ResultSet.CONCUR_READ_ONLY)).isInstanceOf(SQLFeatureNotSupportedException.class);
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
                assertThatThrownBy(() -> rs.updateInt(1, 2)).isInstanceOf(SQLFeatureNotSupportedException.class);
                assertThatThrownBy(rs::previous).isInstanceOf(SQLException.class);
            }
            SQLException control = catchThrowableOfType(SQLException.class, () -> {
                try (Statement s = c.createStatement()) {
                    s.execute("BEGIN");
                }
            });
            assertThat((Throwable) control).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThat(control.getCause()).isInstanceOf(InvalidRequestException.class);
        }
    }
}
