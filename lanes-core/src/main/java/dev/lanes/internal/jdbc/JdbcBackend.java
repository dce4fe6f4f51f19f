package dev.lanes.internal.jdbc;

import dev.lanes.Database;
import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.WriteTransaction;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import java.time.Duration;
import java.util.List;

/**
 * What a JDBC connection needs of its database, beyond the public {@link Database}: queries that
 * keep their columns' metadata, writes that return keys or rows, and the two kinds of
 * transaction. The engine and the cluster database implement it; the data source knows neither.
 */
public interface JdbcBackend {
    /** The database's name, for messages. */
    String name();

    Database database();

    /** The runtime's statement shapes, by which the data source finds each text's once. */
    Shapes shapes();

    /** How many databases SQL may attach ({@code DatabaseOptions.maxAttachedDatabases}). */
    int attachLimit();

    /**
     * The policy of a statement on the writer: {@link StatementPolicy#WRITE_BODY} when its rows
     * are read, {@link StatementPolicy#WRITER} when they are not; a cluster's own otherwise.
     */
    default StatementPolicy writePolicy(boolean readsRows) {
        return readsRows ? StatementPolicy.WRITE_BODY : StatementPolicy.WRITER;
    }

    /**
     * A query in auto-commit mode: on a reader (on the lane while corked), with metadata. {@code
     * shape} is one statement this data source admitted as a read; it is not admitted again;
     * {@code sql} is what runs (the shape's text, or the connection's rewrite of it). Returns the
     * first page as {@code paging} bounds it; a backend that streams sets {@link Paging#rest}
     * when rows remain (holding the reader for them), one that does not returns the whole result
     * and leaves it null ({@code paging}'s rest is null when this is called). A backend may leave out the declared types when {@link
     * Paging#declaredTypes()} is false (the data source finds them on a reader if they are
     * asked for); one that gives them anyway is right too.
     */
    ResultData queryData(ReadOptions options, StatementShape shape, String sql, Object[] args,
            Paging paging);

    /**
     * One statement the data source admitted ({@link #writePolicy}), as a write on the lane in
     * auto-commit mode; returns what {@code returns} says.
     *
     * @param startTimeout how long the write may wait for the lane to take it; past it, it is
     *     withdrawn unrun ({@code NOT_STARTED}); null for no limit. Once taken it runs to its end.
     */
    Object write(StatementShape shape, Object[] args, Returns returns, Duration startTimeout);

    /**
     * A batch as one atomic write request, as {@code db.executeBatch}, with {@code
     * startTimeout} as in {@link #write}.
     */
    int[] executeBatch(List<dev.lanes.Statement> batch, Duration startTimeout);

    /**
     * Begins a read-write transaction pinned on the lane, as {@code db.begin()}, with {@code
     * startTimeout} for the {@code BEGIN} as in {@link #write}.
     */
    WriteTransaction begin(Duration startTimeout);

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
