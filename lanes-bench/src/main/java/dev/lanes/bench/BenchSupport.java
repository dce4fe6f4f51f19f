package dev.lanes.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.sqlite.SQLiteConfig;

/**
 * What every benchmark shares: a fresh directory per trial, the one table, and the two ways in
 * (a {@link Database} of a {@link Lanes} runtime, and a raw sqlite-jdbc connection).
 *
 * <p>Both ways run the same pragmas: WAL, {@code synchronous=NORMAL}, {@code busy_timeout=5000}
 * and {@code foreign_keys=ON}. The raw connection stays in JDBC autocommit mode, as most
 * applications leave it, so each raw write is its own one-statement commit. Unless a benchmark
 * says otherwise it also keeps the driver's other defaults (it fetches generated keys after each
 * insert), the way {@code lanes bench} configures its baseline.
 */
final class BenchSupport {
    /** The table every benchmark reads and writes. */
    static final String CREATE_TABLE =
            "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)";
    static final String INSERT = "INSERT INTO t(v) VALUES (?)";
    static final String SELECT_BY_ID = "SELECT id, v FROM t WHERE id = ?";
    static final int BUSY_TIMEOUT_MS = 5000;

    private BenchSupport() {}

    /** A fresh directory under the system's temp directory. */
    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory("lanes-bench-" + prefix + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory made by {@link #tempDir}; best effort. */
    static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp directory is not worth failing a run over
        }
    }

    /** The options of every Lanes database here: the defaults, with the pragmas spelled out. */
    static DatabaseOptions lanesOptions() {
        return DatabaseOptions.builder()
                .synchronous(Synchronous.NORMAL)
                .busyTimeout(Duration.ofMillis(BUSY_TIMEOUT_MS))
                .build();
    }

    /** Opens {@code file} through {@code lanes}, creates the table and inserts {@code rows}. */
    static Database openLanes(Lanes lanes, Path file, int rows) {
        Database db = lanes.open(file, lanesOptions());
        db.execute(CREATE_TABLE);
        if (rows > 0) {
            db.write(conn -> {
                insertRows(conn, rows);
                return null;
            });
        }
        return db;
    }

    /**
     * A raw sqlite-jdbc connection to {@code file} with the same pragmas, in autocommit mode,
     * holding the table and {@code rows} rows.
     *
     * @param generatedKeys the driver's {@code jdbc.get_generated_keys}; its default is on
     */
    static Connection openJdbc(Path file, int rows, boolean generatedKeys) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        config.setGetGeneratedKeys(generatedKeys);
        try {
            Connection conn = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (var s = conn.createStatement()) {
                s.execute(CREATE_TABLE);
            }
            if (rows > 0) {
                conn.setAutoCommit(false);
                insertRows(conn, rows);
                conn.commit();
                conn.setAutoCommit(true);
            }
            return conn;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    private static void insertRows(Connection conn, int rows) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(INSERT)) {
            for (int i = 1; i <= rows; i++) {
                ps.setString(1, "value-" + i);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static void close(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            throw new IllegalStateException("close failed: " + e.getMessage(), e);
        }
    }
}
