package dev.lanes.internal.sql;

import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;

/**
 * A read-only transaction held across calls, as a JDBC connection's read-only transaction needs:
 * every query in it sees the state committed when its first one ran, and nothing it runs can
 * write. A local database holds one on a reader ({@code reader.ReadSnapshot}), a cluster database
 * on one of its read sessions ({@code cluster.ReadSessionTransaction}).
 *
 * <p>Used by one thread at a time, as a JDBC connection is.
 */
public interface ReadTransaction extends AutoCloseable {
    /**
     * One query of the transaction, with its columns' metadata; its caller admitted it. A local
     * database stops it inside SQLite once {@code options}' timeout passed ({@link
     * dev.lanes.DeadlineExceededException}).
     */
    ResultData query(String sql, Object[] args, ReadOptions options);

    /** A read body on the transaction's guarded JDBC connection (metadata, say). */
    <T> T run(SqlFunction<T> body);

    /**
     * Sets, releases or rolls back to a savepoint inside the transaction; {@code sql} is the
     * savepoint statement, its name checked by who built it.
     */
    void savepoint(String sql);

    /** Ends the transaction and gives back what it held. Idempotent. */
    @Override
    void close();
}
