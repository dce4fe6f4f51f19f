package dev.lanes.internal.jdbc;

import dev.lanes.Database;
import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.Refusals;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.writer.InteractiveTransaction;
import dev.lanes.internal.writer.WriteRequest.Returns;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a JDBC connection needs of its database, beyond the public {@link Database}: queries that
 * keep their columns' metadata, writes that return keys or rows, and the two kinds of
 * transaction. The engine and the cluster database implement it; the data source knows neither.
 */
public interface JdbcBackend {
    /** The database's name, for messages. */
    String name();

    Database database();

    /**
     * A query in auto-commit mode: on a reader (on the lane while corked), with metadata. {@code
     * sql} is one statement this data source classified read-only ({@link SqlShape#read}); it is
     * not classified again. Returns the first page as {@code paging} bounds it; a backend that
     * streams sets {@link Paging#rest} when rows remain (holding the reader for them), one that
     * does not returns the whole result and leaves it null ({@code paging}'s rest is null when
     * this is called). A backend may leave out the declared types when {@link
     * Paging#declaredTypes()} is false (the data source finds them on a reader if they are
     * asked for); one that gives them anyway is right too.
     */
    ResultData queryData(ReadOptions options, String sql, Object[] args, Paging paging);

    /**
     * One statement as a write on the lane, in auto-commit mode, refused first when it may not
     * run; returns what {@code returns} says.
     *
     * @param startTimeout how long the write may wait for the lane to take it; past it, it is
     *     withdrawn unrun ({@code NOT_STARTED}); null for no limit. Once taken it runs to its end.
     */
    Object write(String sql, Object[] args, Returns returns, Duration startTimeout);

    /** Where an auto-commit statement was, as its refusals name it. */
    String AUTO_COMMIT_STATEMENT = "a JDBC statement (use setAutoCommit(false) and commit() for "
            + "a transaction)";

    /**
     * Refuses, before anything is queued, what one auto-commit statement given to {@link #write}
     * may not be, on every backend: transaction control (the connection's own calls do that) and
     * several statements in one text.
     */
    static void refuseInAutoCommit(String database, String sql) {
        Objects.requireNonNull(sql, "sql");
        Refusals.transactionControl(database, AUTO_COMMIT_STATEMENT, sql);
        Refusals.severalStatements(database, AUTO_COMMIT_STATEMENT, sql);
    }

    /**
     * A batch as one atomic write request, as {@code db.executeBatch}, with {@code
     * startTimeout} as in {@link #write}.
     */
    int[] executeBatch(List<dev.lanes.Statement> batch, Duration startTimeout);

    /**
     * Begins a read-write transaction pinned on the lane, as {@code db.begin()}, with {@code
     * startTimeout} for the {@code BEGIN} as in {@link #write}.
     */
    InteractiveTransaction begin(Duration startTimeout);

    /**
     * Opens a read-only transaction: one snapshot (on a reader, or a cluster's read session),
     * admitted within {@code options}.
     */
    ReadTransaction snapshot(ReadOptions options);

    /**
     * Runs a {@code DatabaseMetaData} body on a JDBC connection that has the database's schema:
     * for a connection outside a transaction, and inside one too when {@link
     * #metaDataInTransaction()} is false. Locally a reader, as {@code db.read}.
     */
    default <T> T metaData(SqlFunction<T> body) throws Exception {
        return database().read(body);
    }

    /**
     * Whether metadata inside a transaction runs on the transaction's own connection, so that a
     * schema its migration just created is visible. False on a cluster, which has no JDBC
     * connection: there {@link #metaData} answers from the committed schema.
     */
    default boolean metaDataInTransaction() {
        return true;
    }
}
