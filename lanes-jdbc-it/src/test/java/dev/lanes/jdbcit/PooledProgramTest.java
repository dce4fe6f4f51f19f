package dev.lanes.jdbcit;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.lanes.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteException;

/**
 * The plain JDBC program most code is: borrow a connection, {@code setAutoCommit(false)},
 * {@code SELECT}, {@code UPDATE}, {@code commit}, retrying nothing. The same code runs on
 * HikariCP over sqlite-jdbc (WAL, busy timeout 5 s) and on {@code db.dataSource()}: on the
 * first, SQLite refuses many of the read-to-write upgrades ({@code SQLITE_BUSY}); on Lanes the
 * first statement pins the lane and none is lost.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PooledProgramTest {
    private static final int THREADS = 16;
    private static final int PER_THREAD = 50;
    private static final String SELECT = "SELECT n FROM counter WHERE id = 1";
    private static final String UPDATE = "UPDATE counter SET n = ? WHERE id = 1";

    @RegisterExtension final LanesFixture fixture = new LanesFixture();

    /** What the program's threads saw: commits, and failures by kind. */
    record Tally(long committed, Map<String, Long> failures) {
        long failed() {
            return failures.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** The program: every thread runs its transactions, counting what happened to each. */
    private Tally program(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
            s.executeUpdate("INSERT INTO counter(id, n) VALUES (1, 0)");
        }
        List<Tally> perThread = fixture.onThreads(THREADS, thread -> {
            long committed = 0;
            Map<String, Long> failures = new TreeMap<>();
            for (int i = 0; i < PER_THREAD; i++) {
                try {
                    increment(ds);
                    committed++;
                } catch (SQLException e) {
                    failures.merge(kind(e), 1L, Long::sum);
                }
            }
            return new Tally(committed, failures);
        });
        long committed = 0;
        Map<String, Long> failures = new TreeMap<>();
        for (Tally t : perThread) {
            committed += t.committed();
            t.failures().forEach((k, n) -> failures.merge(k, n, Long::sum));
        }
        return new Tally(committed, failures);
    }

    private static void increment(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try {
                long n;
                try (PreparedStatement select = c.prepareStatement(SELECT);
                        ResultSet rs = select.executeQuery()) {
                    rs.next();
                    n = rs.getLong(1);
                }
                try (PreparedStatement update = c.prepareStatement(UPDATE)) {
                    update.setLong(1, n + 1);
                    update.executeUpdate();
                }
                c.commit();
            } catch (SQLException e) {
                try {
                    c.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
    }

    private static String kind(SQLException e) {
        return e instanceof SQLiteException ? ((SQLiteException) e).getResultCode().name()
                : e.getClass().getSimpleName() + "/" + e.getSQLState();
    }

    private static long counter(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(SELECT)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theSameProgramLosesNoTransactionOnLanesAndSomeToBusyOnHikari(TestReporter reporter)
            throws Exception {
        Database db = fixture.open("lanes.db");
        Tally lanes = program(db.dataSource());
        HikariDataSource pool = fixture.hikari("hikari.db", THREADS);
        Tally hikari = program(pool);

        String figures = "Lanes: " + lanes.committed() + " committed, " + lanes.failures()
                + " failed; HikariCP + sqlite-jdbc: " + hikari.committed() + " committed, "
                + hikari.failures() + " failed (of " + THREADS * PER_THREAD + " each)";
        reporter.publishEntry("read-then-write", figures);
        System.out.println("PooledProgramTest: " + figures);

        assertThat(lanes.failures()).as("Lanes lost none").isEmpty();
        assertThat(lanes.committed()).isEqualTo(THREADS * PER_THREAD);
        assertThat(counter(db.dataSource())).isEqualTo(lanes.committed());
        // HikariCP's failures depend on timing; what holds every time is that each one either
        // committed or failed whole, and no committed increment was lost
        assertThat(hikari.committed() + hikari.failed()).isEqualTo(THREADS * PER_THREAD);
        assertThat(counter(pool)).isEqualTo(hikari.committed());
        assertThat(hikari.failures().keySet()).allMatch(k -> k.startsWith("SQLITE_BUSY"));
    }
}
