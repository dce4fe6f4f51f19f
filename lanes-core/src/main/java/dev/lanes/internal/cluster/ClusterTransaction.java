package dev.lanes.internal.cluster;

import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Transaction;
import dev.lanes.internal.guard.Refusals;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Transaction} of a cluster database: the lane's interactive transaction, with the
 * refusals a cluster adds before anything is queued ({@code run(body)}, which needs a JDBC
 * connection; several statements in one call, which the engine would run all; a write that
 * returns rows). Thread-safe as the lane's transaction is.
 */
final class ClusterTransaction implements Transaction {
    private final String name;
    private final Transaction tx;

    ClusterTransaction(String name, Transaction tx) {
        this.name = name;
        this.tx = tx;
    }

    @Override
    public int execute(String sql, Object... args) {
        Objects.requireNonNull(sql, "sql");
        Refusals.severalStatements(name, "tx.execute", sql);
        ClusterSql.refuseRows(name, "tx.execute", sql);
        return tx.execute(sql, args);
    }

    @Override
    public List<Row> query(String sql, Object... args) {
        Objects.requireNonNull(sql, "sql");
        Refusals.severalStatements(name, "tx.query", sql);
        return tx.query(sql, args);
    }

    @Override
    public <T> T run(SqlFunction<T> body) {
        Objects.requireNonNull(body, "body");
        throw ClusterWriterConnection.bodyRefused(name);
    }

    @Override
    public void commit() {
        tx.commit();
    }

    @Override
    public void rollback() {
        tx.rollback();
    }

    @Override
    public boolean isOpen() {
        return tx.isOpen();
    }

    @Override
    public void close() {
        tx.close();
    }
}
