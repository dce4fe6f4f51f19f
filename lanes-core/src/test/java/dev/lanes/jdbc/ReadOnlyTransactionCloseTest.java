package dev.lanes.jdbc;

import static dev.lanes.TestLanes.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.ClosedException;
import dev.lanes.CloseTimeoutException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A JDBC read-only transaction holds a reader, and its snapshot, from its first statement to its
 * end. One its user leaves open does not outlive the database: {@code shutdownNow()} ends it at
 * once, and {@code close()} once its {@code closeTimeout} passed. Its reader goes back, the
 * file's lease is released (a new runtime opens the file and writes to it), and the user's next
 * statement on the connection fails with a typed {@link SQLException} saying the database closed.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReadOnlyTransactionCloseTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    private Database open(String name, DatabaseOptions options) {
        Database db = fixture.open(name, options);
        db.execute("INSERT INTO t(v) VALUES ('before')");
        return db;
    }

    /** Begins a read-only transaction on {@code c} and reads one row in it. */
    private static Statement readInTransaction(Connection c) throws SQLException {
        c.setReadOnly(true);
        c.setAutoCommit(false);
        Statement s = c.createStatement();
        try (ResultSet rs = s.executeQuery("SELECT v FROM t")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("before");
        }
        return s;
    }

    @Test
    void shutdownNowEndsAnOpenReadOnlyTransactionAtOnce() throws Exception {
        Database db = open("shutdown.db", DatabaseOptions.builder().build()); // closeTimeout 5 s
        try (Connection c = db.dataSource().getConnection();
                Statement s = readInTransaction(c)) {
            assertThat(checkouts(db)).as("the transaction holds its reader").isEqualTo(1);

            db.shutdownNow(); // completes: it threw no CloseTimeoutException

            assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
            assertThat(checkouts(db)).isZero();
            assertFileReusable(db);
            assertNextQueryFails(s, "the database was shut down");
            c.rollback(); // ends what is left of it, quietly
        }
    }

    @Test
    void closeEndsAnOpenReadOnlyTransactionOnceItsTimeoutPassed() throws Exception {
        Database db = open("close.db", DatabaseOptions.builder()
                .closeTimeout(Duration.ofMillis(200)).build());
        try (Connection c = db.dataSource().getConnection();
                Statement s = readInTransaction(c)) {
            // its user is away: the close waits its timeout for it, then ends it
            assertThatThrownBy(db::close).isInstanceOf(CloseTimeoutException.class);
            awaitTrue("the close to end the transaction",
                    () -> checkouts(db) == 0 && db.state() == DatabaseState.CLOSED);

            assertFileReusable(db);
            assertNextQueryFails(s, "closeTimeout (200 ms)");
            assertNextQueryFails(c.createStatement(), "closeTimeout (200 ms)");
        }
    }

    /** A new runtime opens the file of the closed {@code db} and writes to it. */
    private static void assertFileReusable(Database db) {
        try (Lanes next = Lanes.builder().name("next").build()) {
            Database again = next.open(db.path());
            again.execute("INSERT INTO t(v) VALUES ('after')");
            assertThat(again.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                    .isEqualTo(2);
        }
    }

    /** The next query of the ended transaction fails, typed, saying the database closed. */
    private static void assertNextQueryFails(Statement s, String why) {
        SQLException failure = catchThrowableOfType(() -> s.executeQuery("SELECT v FROM t"),
                SQLException.class);
        assertThat((Throwable) failure).isInstanceOf(SQLNonTransientConnectionException.class);
        assertThat(failure.getSQLState()).isEqualTo("08003");
        assertThat(failure.getCause()).isInstanceOf(ClosedException.class)
                .hasMessageContaining("the database closed")
                .hasMessageContaining(why)
                .hasMessageContaining("read-only transaction");
    }

    private static int checkouts(Database db) {
        return db.diagnostics().readers().currentCheckouts();
    }
}
