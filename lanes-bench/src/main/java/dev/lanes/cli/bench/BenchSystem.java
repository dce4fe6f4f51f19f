package dev.lanes.cli.bench;

import java.sql.SQLException;

/**
 * One system under test: a way to insert a bench row that the workload calls from its writer
 * threads. Every implementation starts from a fresh database file, creates {@link #CREATE_TABLE}
 * itself, and gives its connections the same pragmas (WAL, the run's synchronous level, a busy
 * timeout of {@link #BUSY_TIMEOUT_MS} ms, foreign keys on), so that only the way writes reach
 * SQLite differs.
 */
interface BenchSystem extends AutoCloseable {
    String CREATE_TABLE = "CREATE TABLE bench(id INTEGER PRIMARY KEY, payload TEXT)";
    String INSERT = "INSERT INTO bench(payload) VALUES (?)";
    String COUNT_ROWS = "SELECT count(*) AS n FROM bench";
    int BUSY_TIMEOUT_MS = 5000;

    /** The name shown in results: {@code lanes}, {@code hikari} or {@code raw}. */
    String name();

    /** Inserts one row and returns once it committed; failures are thrown, not hidden. */
    void insert(String payload) throws Exception;

    /** How many rows the table holds, to check that every acknowledged insert is there. */
    long countRows() throws Exception;

    // narrower than AutoCloseable's Exception: closing never throws InterruptedException
    @Override
    void close() throws SQLException;
}
