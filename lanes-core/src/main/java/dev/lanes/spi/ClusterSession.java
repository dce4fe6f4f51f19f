package dev.lanes.spi;

import dev.lanes.Row;
import java.util.List;

/**
 * A connection to the leader of a cluster with one database open, from {@link
 * ClusterEngine#open}. Requests run one at a time, in order; Lanes uses a session from one thread
 * at a time.
 *
 * <p>A failure is a {@link ClusterException} whose {@link ClusterException#kind() kind} says
 * whether the request may have taken effect. A session never retries a request and never moves to
 * another node: once its node stops leading or its connection fails it is closed for good ({@link
 * #isOpen()} false), and Lanes opens another.
 */
public interface ClusterSession extends AutoCloseable {
    /**
     * Runs one statement that returns no rows (a write, DDL, transaction control).
     *
     * @param params values for its {@code ?} placeholders: {@code null}, {@link Long}, {@link
     *     Integer}, {@link Double}, {@link String}, {@code byte[]}, {@link Boolean} at least
     * @return the rows it changed ({@code sqlite3_changes()} after it ran)
     * @throws ClusterException when it failed
     */
    long execute(String sql, List<Object> params);

    /**
     * Runs one query and returns all its rows, detached. Values are {@code null}, {@link Long},
     * {@link Double}, {@link String} or {@code byte[]}, as SQLite stored them.
     *
     * @throws ClusterException when it failed
     */
    List<Row> query(String sql, List<Object> params);

    /**
     * {@link #query}, with the result's column names, which a query has even when it returns no
     * row. The default names the columns of the first row, so an empty result has none; an
     * engine whose protocol describes a result before its rows (dqlite's does) overrides it.
     *
     * @throws ClusterException when it failed
     */
    default Result queryWithColumns(String sql, List<Object> params) {
        List<Row> rows = query(sql, params);
        return new Result(rows.isEmpty() ? List.of() : rows.get(0).columns(), rows);
    }

    /**
     * The rows of a query and its column names.
     *
     * @param columns the column names, as SQLite names them, one per value of each row
     * @param rows the rows, detached, as {@link #query} returns them
     */
    record Result(List<String> columns, List<Row> rows) {
        public Result {
            columns = List.copyOf(columns);
        }
    }

    /** Whether the session can still take requests. */
    boolean isOpen();

    /** The node this session talks to, for messages ({@code host:port}, say). */
    String node();

    /** Closes the session; a transaction still open on it is rolled back by the server. Idempotent. */
    @Override
    void close();
}
