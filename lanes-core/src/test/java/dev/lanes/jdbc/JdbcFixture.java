package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.MetricsListener;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A runtime and one database with a table {@code t(id INTEGER PRIMARY KEY, v TEXT)}, opened per
 * test and closed after it, for the data-source tests. Every wait is bounded by {@link #WAIT}.
 */
final class JdbcFixture implements AfterEachCallback {
    static final Duration WAIT = Duration.ofSeconds(30);

    private Path dir;
    private Lanes lanes;
    private Database db;

    Database open(String name, DatabaseOptions options) {
        return open(name, options, MetricsListener.NONE);
    }

    /** {@link #open(String, DatabaseOptions)} in a runtime that reports to {@code metrics}. */
    Database open(String name, DatabaseOptions options, MetricsListener metrics) {
        try {
            dir = java.nio.file.Files.createTempDirectory("lanes-jdbc");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        lanes = Lanes.builder().name("jdbc").maxThreads(8).metrics(metrics).build();
        db = lanes.open(dir.resolve(name), options);
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        return db;
    }

    Database open(String name) {
        return open(name, DatabaseOptions.builder().build());
    }

    Lanes lanes() {
        return lanes;
    }

    @Override
    public void afterEach(ExtensionContext context) throws java.io.IOException {
        if (lanes != null) {
            lanes.close();
        }
        if (dir != null) {
            try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
                for (Path p : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    java.nio.file.Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The rows of {@code t} whose {@code v} is {@code value}, read through {@code db.query}. */
    static long count(Database db, String value) {
        return db.query("SELECT count(*) AS n FROM t WHERE v = ?", value).get(0).getLong("n");
    }

    /**
     * Inside a SQL function: waits (bounded by {@link #WAIT}) until the test opens {@code
     * release}, failing the statement if it never does or the wait is interrupted.
     */
    static void awaitInFunction(java.util.concurrent.CountDownLatch release) throws SQLException {
        try {
            if (!release.await(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                throw new SQLException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", e);
        }
    }

    /** One long from a one-row, one-column query through a JDBC connection. */
    static long scalar(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).as("a row from %s", sql).isTrue();
            return rs.getLong(1);
        }
    }

    static Connection connect(DataSource ds) throws SQLException {
        return ds.getConnection();
    }
}
