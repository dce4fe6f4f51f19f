package dev.lanes.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.LanesException;
import dev.lanes.ResultTooLargeException;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Inside a pinned transaction ({@code db.begin()}, or a JDBC connection with autocommit off), a
 * statement that fails after SQLite already changed rows (an {@code INSERT … RETURNING} whose
 * rows outgrow {@code maxResultBytes}) leaves the transaction exactly as before it, as a failure
 * of SQLite's own does. Before the fix its rows stayed in the transaction and the commit that
 * followed committed them. When the undo itself fails, the transaction ends as a failed rollback
 * does: rolled back when that is verified, unknown (and the writer poisoned) when not.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PinnedStatementUndoTest {
    /** Inserts two rows of 1,200 bytes each and returns them: more than the 1,000 allowed. */
    private static final String TOO_LARGE = "INSERT INTO t(v) SELECT hex(randomblob(600)) FROM "
            + "(SELECT 1 UNION ALL SELECT 2) RETURNING v";

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;
    PlantedFaults faults;

    @BeforeEach
    void start() {
        db = runtime.open("undo.db", DatabaseOptions.builder().maxResultBytes(1_000).build());
        faults = PlantedFaults.on(db);
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    }

    /** The committed rows' values in order, each cut to 10 characters (a large one shows). */
    private String committed() {
        return db.query("SELECT group_concat(substr(v, 1, 10), ',') AS v FROM "
                + "(SELECT v FROM t ORDER BY id)").get(0).getString("v");
    }

    @Test
    void aReturningWriteWhoseRowsAreTooLargeLeavesNothingInABegunTransaction() {
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('before')");
            LanesException e = catchThrowableOfType(LanesException.class,
                    () -> tx.query(TOO_LARGE));
            assertThat((Throwable) e).as("too large a result").isNotNull()
                    .hasRootCauseInstanceOf(ResultTooLargeException.class);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(tx.isOpen()).as("the statement undid itself, not the transaction")
                    .isTrue();
            assertThat(tx.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                    .as("inside the transaction").isEqualTo(1);
            tx.execute("INSERT INTO t(v) VALUES ('after')");
            tx.commit();
        }
        assertThat(committed()).as("committed: only the statements that succeeded")
                .isEqualTo("before,after");
    }

    @Test
    void aReturningWriteWhoseRowsAreTooLargeLeavesNothingInAJdbcTransaction() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('before')");
            SQLException e = catchThrowableOfType(SQLException.class,
                    () -> s.executeQuery(TOO_LARGE));
            assertThat((Throwable) e).as("too large a result").isNotNull()
                    .hasRootCauseInstanceOf(ResultTooLargeException.class);
            assertThat(((LanesException) e.getCause()).outcome())
                    .isEqualTo(WriteOutcome.ROLLED_BACK);
            s.executeUpdate("INSERT INTO t(v) VALUES ('after')");
            c.commit();
        }
        assertThat(committed()).as("committed: only the statements that succeeded")
                .isEqualTo("before,after");
    }

    @Test
    void aFailedUndoRollsTheWholeTransactionBackAndSaysSo() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('before')");
        faults.fail(FaultInjector.Point.ROLLBACK_TO);

        LanesException e = catchThrowableOfType(LanesException.class, () -> tx.query(TOO_LARGE));

        faults.clear();
        assertThat((Throwable) e).isNotNull()
                .hasRootCauseInstanceOf(ResultTooLargeException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(tx.isOpen()).as("only a rollback of the whole could undo it").isFalse();
        WriteFailedException commit = catchThrowableOfType(WriteFailedException.class,
                tx::commit);
        assertThat(commit.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                .as("nothing of the transaction").isZero();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.execute("INSERT INTO t(v) VALUES ('next')")).isEqualTo(1);
    }

    @Test
    void aFailedUndoInAJdbcTransactionFailsItsCommitRolledBack() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('before')");
            faults.fail(FaultInjector.Point.ROLLBACK_TO);
            SQLException e = catchThrowableOfType(SQLException.class,
                    () -> s.executeQuery(TOO_LARGE));
            faults.clear();
            assertThat((Throwable) e).isNotNull();
            SQLException commit = catchThrowableOfType(SQLException.class, c::commit);
            assertThat((Throwable) commit).as("the transaction was rolled back under the caller")
                    .isInstanceOf(SQLTransactionRollbackException.class);
        }
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                .as("nothing of the transaction").isZero();
    }

    @Test
    void anUndoAndARollbackThatBothFailEndTheTransactionUnknownAndPoisonTheWriter() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('before')");
        faults.fail(FaultInjector.Point.ROLLBACK_TO, FaultInjector.Point.ROLLBACK);

        LanesException e = catchThrowableOfType(LanesException.class, () -> tx.query(TOO_LARGE));

        assertThat((Throwable) e).isNotNull();
        assertThat(e.outcome()).as("never a guess").isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(tx.isOpen()).isFalse();
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
        WriterPoisonedException refused = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('refused')"));
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
    }

    @Test
    void readsAndPlainWritesInsideTheTransactionSetNoSavepoint() {
        // A read cannot change rows, so it runs bare: a SAVEPOINT that failed would fail it.
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('kept')");
            faults.fail(FaultInjector.Point.SAVEPOINT);
            assertThat(tx.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(1);
            assertThat(tx.execute("INSERT INTO t(v) VALUES ('plain')")).isEqualTo(1);
            faults.clear();
            tx.commit();
        }
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
    }

    @Test
    void jdbcReadsAndPlainWritesInsideATransactionSetNoSavepoint() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t(v) VALUES ('kept')");
            faults.fail(FaultInjector.Point.SAVEPOINT);
            try (java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(1);
            }
            try (java.sql.PreparedStatement p = c.prepareStatement(
                    "UPDATE t SET v = ? WHERE v = 'kept'")) {
                p.setString(1, "updated");
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            faults.clear();
            c.commit();
        }
        assertThat(committed()).isEqualTo("updated");
    }
}
