package dev.lanes.internal.cluster;

import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Transaction;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.writer.InteractiveTransaction;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Transaction} of a cluster database: the lane's interactive transaction, whose
 * statements a cluster's policy admits before anything is queued ({@link
 * StatementPolicy#CLUSTER_WRITER} for {@code execute}: no rows come back from a write there; the
 * body policy for {@code query}, whose rows are read); {@code run(body)} runs the body on a JDBC
 * connection inside the transaction ({@link BodyJdbc}). Thread-safe as the lane's transaction is.
 */
final class ClusterTransaction implements Transaction {
    private final ClusterDatabase db;
    private final InteractiveTransaction tx;

    ClusterTransaction(ClusterDatabase db, InteractiveTransaction tx) {
        this.db = db;
        this.tx = tx;
    }

    @Override
    public int execute(String sql, Object... args) {
        return (Integer) tx.execute(admitted(StatementPolicy.CLUSTER_WRITER, sql), args,
                Returns.COUNT, null);
    }

    @Override
    public List<Row> query(String sql, Object... args) {
        admitted(StatementPolicy.WRITE_BODY, sql);
        return tx.query(sql, args);
    }

    private StatementShape admitted(StatementPolicy policy, String sql) {
        Objects.requireNonNull(sql, "sql");
        StatementShape shape = db.shapes().of(sql);
        policy.admit(db.name(), shape, db.options().maxAttachedDatabases());
        return shape;
    }

    @Override
    public <T> T run(SqlFunction<T> body) {
        return tx.run(body);
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
