package dev.lanes.internal.jdbc;

import dev.lanes.SqlFunction;
import dev.lanes.internal.jdbc.JdbcSavepoint.Op;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.WriteTransaction;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import java.util.List;

/**
 * The transaction of a {@link LogicalConnection} in manual-commit mode. It takes nothing until
 * its first statement ({@link #begin}); then it is either pinned on the writer lane (read-write,
 * {@code BEGIN IMMEDIATE} as {@code db.begin()}) or one snapshot on a reader (read-only, where
 * writes are refused), until {@link #end} commits or rolls it back. Savepoints work in both.
 *
 * <h2>Invariants</h2>
 * At most one of {@code transaction} and {@code snapshot} is non-null: both null before the first
 * statement and after the end. {@code savepoints} counts the unnamed savepoints of the current
 * transaction and restarts at its end. Not thread-safe: owned by one connection, whose user is
 * one thread at a time; the lane pins the transaction to its caller and refuses a second thread.
 */
final class LogicalTransaction {
    private final JdbcBackend db;
    /** The open read-write transaction, pinned on the lane; null when none. */
    private WriteTransaction transaction;
    /** The open read-only transaction, one snapshot; null when none. */
    private ReadTransaction snapshot;
    private int savepoints;

    LogicalTransaction(JdbcBackend db) {
        this.db = db;
    }

    /** Whether a transaction began and has not ended. */
    boolean isOpen() {
        return transaction != null || snapshot != null;
    }

    /**
     * Begins the transaction at its first statement, as the mode says; no-op when open. Within
     * {@code timeout}: the wait for a reader, or for the lane to take the {@code BEGIN}; a begin
     * not started by then never ran.
     */
    void begin(boolean readOnly, QueryTimeout timeout) {
        if (isOpen()) {
            return;
        }
        if (readOnly) {
            snapshot = db.snapshot(timeout.read());
        } else {
            transaction = db.begin(timeout.start());
        }
    }

    /**
     * Runs one statement inside the begun transaction: on its snapshot (answering {@code
     * last_insert_rowid()} and {@code changes()} from {@code functions}), else on the pinned
     * lane, with rows when it is a read.
     */
    Execution run(StatementShape shape, Object[] args, boolean read, Returns returns,
            ConnectionFunctions functions, QueryTimeout timeout) {
        if (snapshot != null) {
            ResultData own = functions.answer(shape);
            return Execution.ofRows(own != null ? own
                    : snapshot.query(functions.substituted(shape), args, timeout.read()));
        }
        return Execution.of(transaction.execute(shape, args, read ? Returns.ROWS : returns,
                timeout.start()));
    }

    /**
     * Runs a batch statement by statement inside the begun transaction; its counts. Each is
     * admitted first as one statement that returns no rows: in a read-only transaction, where a
     * batch may neither write nor return rows, every statement is refused.
     */
    int[] runBatch(List<dev.lanes.Statement> batch, QueryTimeout timeout) {
        StatementPolicy policy = snapshot != null ? StatementPolicy.READ_BATCH
                : db.writePolicy(false);
        StatementShape[] shapes = new StatementShape[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            shapes[i] = db.shapes().of(batch.get(i).sql());
            policy.admit(db.name(), shapes[i], db.attachLimit(), "statement " + i
                    + " of the batch");
        }
        int[] counts = new int[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            Object[] args = batch.get(i).args().toArray();
            if (snapshot != null) {
                // returns no rows, writes nothing
                snapshot.query(shapes[i].sql(), args, timeout.read());
            } else {
                counts[i] = (Integer) transaction.execute(shapes[i], args, Returns.COUNT,
                        timeout.start());
            }
        }
        return counts;
    }

    /** Runs a metadata body on the transaction's connection; null means none is open. */
    <T> T runOnConnection(SqlFunction<T> body) {
        return transaction != null ? transaction.run(body) : snapshot.run(body);
    }

    /** Sets a savepoint, beginning the transaction first; {@code name} null for an unnamed one. */
    JdbcSavepoint savepoint(String name, boolean readOnly, QueryTimeout timeout) {
        begin(readOnly, timeout);
        JdbcSavepoint sp = name != null ? JdbcSavepoint.named(name)
                : JdbcSavepoint.unnamed(++savepoints);
        savepointStep(Op.SET, sp);
        return sp;
    }

    /** Sets, rolls back to or releases a savepoint of the open transaction. */
    void savepointStep(Op op, JdbcSavepoint savepoint) {
        String sql = savepoint.sql(op);
        if (snapshot != null) {
            snapshot.savepoint(sql);
        } else {
            transaction.savepoint(sql);
        }
    }

    /**
     * Commits or rolls back what is open and returns to "not begun", also when the end fails
     * (the lane or the reader has released it then).
     */
    void end(boolean commit) {
        WriteTransaction tx = transaction;
        ReadTransaction s = snapshot;
        transaction = null;
        snapshot = null;
        savepoints = 0;
        if (tx != null) {
            if (commit) {
                tx.commit();
            } else {
                tx.rollback();
            }
        }
        if (s != null) {
            s.close();
        }
    }

    /** A word for the connection's {@code toString}. */
    String describe() {
        return transaction != null ? ", in a transaction"
                : snapshot != null ? ", in a read-only transaction" : ", manual commit";
    }
}
