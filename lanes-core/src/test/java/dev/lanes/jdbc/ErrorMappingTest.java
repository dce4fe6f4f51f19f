package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SQL exceptions of the data source carry what exception translators (Spring's, Hibernate's)
 * decide by: the subclass and the SQLState. Each test here pins a case a real library
 * mistranslated.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ErrorMappingTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    /**
     * Spring's translation turned a duplicate primary key into a plain {@code
     * DataIntegrityViolationException}: it knows a duplicate key by SQLState 23505 (or by
     * MySQL's, Oracle's and SQL Server's codes with 23000), and the data source said 23000 with
     * SQLite's code 19.
     */
    @Test
    void springSawNoDuplicateKey_aUniqueOrPrimaryKeyViolationIsSqlState23505() throws Exception {
        Database db = fixture.open("dup.db");
        db.execute("CREATE TABLE u(id INTEGER PRIMARY KEY, email TEXT UNIQUE, "
                + "n INTEGER NOT NULL CHECK (n >= 0))");
        db.execute("INSERT INTO u(id, email, n) VALUES (1, 'a', 0)");
        try (Connection c = db.dataSource().getConnection()) {
            SQLException pk = refused(c, "INSERT INTO u(id, email, n) VALUES (1, 'b', 0)");
            assertThat(pk.getSQLState()).as("a duplicate primary key").isEqualTo("23505");
            SQLException unique = refused(c, "INSERT INTO u(id, email, n) VALUES (2, 'a', 0)");
            assertThat(unique.getSQLState()).as("a duplicate unique value").isEqualTo("23505");
            assertThat(refused(c, "INSERT INTO u(id, email, n) VALUES (3, 'c', NULL)")
                    .getSQLState()).as("NOT NULL is no duplicate").isEqualTo("23000");
            assertThat(refused(c, "INSERT INTO u(id, email, n) VALUES (4, 'd', -1)")
                    .getSQLState()).as("CHECK is no duplicate").isEqualTo("23000");
            assertThat(pk.getErrorCode()).as("SQLite's primary code, as the driver gives it")
                    .isEqualTo(19);

            c.setAutoCommit(false);
            SQLException inTransaction = refused(c, "INSERT INTO u(id, email, n) VALUES (1, 'e', 0)");
            assertThat(inTransaction.getSQLState()).as("inside a pinned transaction")
                    .isEqualTo("23505");
            c.rollback();
        }
        assertThat(db.query("SELECT count(*) AS n FROM u").get(0).getLong("n")).isEqualTo(1);
    }

    /**
     * An {@code INSERT … RETURNING} whose rows are too large fails after SQLite inserted them:
     * the rows are in the group's transaction, so reporting the write rolled back was honest only
     * once the transaction is rolled back too. Writes beside it in the group are run again.
     */
    @Test
    void aReturningWriteWhoseRowsAreTooLargeIsRolledBackWholeNotLeftInTheGroup() throws Exception {
        Database db = fixture.open("returning.db", dev.lanes.DatabaseOptions.builder()
                .maxResultBytes(1_000).build());
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            SQLException tooLarge = catchThrowableOfType(SQLException.class, () -> s.executeQuery(
                    "INSERT INTO t(v) SELECT hex(randomblob(600)) FROM (SELECT 1 UNION ALL "
                            + "SELECT 2) RETURNING v"));
            assertThat((Throwable) tooLarge).as("too large a result").isNotNull();
            LanesException cause = (LanesException) tooLarge.getCause();
            assertThat(cause.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(cause).hasRootCauseInstanceOf(dev.lanes.ResultTooLargeException.class);
        }
        assertThat(db.execute("INSERT INTO t(v) VALUES ('after')")).isEqualTo(1);
        assertThat(db.query("SELECT count(*) AS n, max(v) AS v FROM t").get(0))
                .as("nothing of the rolled-back write").satisfies(r -> {
                    assertThat(r.getLong("n")).isEqualTo(1);
                    assertThat(r.getString("v")).isEqualTo("after");
                });
    }

    /**
     * Spring translated {@code REQUIRES_NEW} on the database whose lane the thread's outer
     * transaction pins into a {@code BadSqlGrammarException} ("bad SQL grammar [UPDATE …]"),
     * hiding the reason: the refusal was a {@code SQLSyntaxErrorException}. Nothing is wrong with
     * the SQL; the call is not supported, which Spring calls {@code
     * InvalidDataAccessApiUsageException}.
     */
    @Test
    void springCalledRequiresNewBadGrammar_aRefusedCallIsFeatureNotSupported() throws Exception {
        Database db = fixture.open("refused.db");
        try (Connection outer = db.dataSource().getConnection();
                Connection inner = db.dataSource().getConnection()) {
            outer.setAutoCommit(false);
            try (Statement s = outer.createStatement()) {
                s.executeUpdate("INSERT INTO t(v) VALUES ('outer')");
            }
            inner.setAutoCommit(false);
            SQLException selfWait = catchThrowableOfType(SQLException.class, () -> {
                try (Statement s = inner.createStatement()) {
                    s.executeUpdate("INSERT INTO t(v) VALUES ('inner')");
                }
            });
            assertThat((Throwable) selfWait).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThat(selfWait.getSQLState()).isEqualTo("0A000");
            assertThat(selfWait.getMessage()).contains("this thread holds an open transaction");
            assertThat(selfWait.getCause()).isInstanceOf(InvalidRequestException.class);
            outer.commit();

            SQLException control = catchThrowableOfType(SQLException.class, () -> {
                try (Statement s = inner.createStatement()) {
                    s.execute("COMMIT");
                }
            });
            assertThat((Throwable) control).as("transaction control as SQL text")
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThat(control.getSQLState()).isEqualTo("0A000");
            inner.rollback();
        }
        assertThat(JdbcFixture.count(db, "outer")).isEqualTo(1);
        assertThat(JdbcFixture.count(db, "inner")).isZero();
    }

    private static SQLException refused(Connection c, String sql) {
        SQLException e = catchThrowableOfType(SQLException.class, () -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate(sql);
            }
        });
        assertThat((Throwable) e).as(sql).isInstanceOf(SQLIntegrityConstraintViolationException.class);
        assertThat(((LanesException) e.getCause()).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        return e;
    }
}
