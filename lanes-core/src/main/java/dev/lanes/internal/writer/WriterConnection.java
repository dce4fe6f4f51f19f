package dev.lanes.internal.writer;

import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.StatementShape;
import java.sql.SQLException;
import java.util.List;

/**
 * The writer connection of one lane: what {@link GroupCommit} needs ({@link LaneConnection}),
 * and what the rest of the lane needs besides: the statements of an interactive transaction, the
 * transaction a cork nests it in, maintenance bodies, the initializer, and its close. {@link
 * SqliteWriterConnection} is the one on a local SQLite file.
 *
 * <p>Confinement: used only by the thread that holds the lane's turn.
 */
public interface WriterConnection extends LaneConnection, WriterLane.Releasable, AutoCloseable {
    /** {@code SAVEPOINT} standing in for an interactive transaction's {@code BEGIN} in a cork. */
    void beginNested() throws SQLException;

    /** Releases the nested transaction into the cork's. */
    void releaseNested() throws SQLException;

    /** Undoes the nested transaction; the cork's transaction stays open. */
    void rollBackNested() throws SQLException;

    /** One statement; its update count (0 for one that changes no rows). */
    int update(String sql, Object[] args) throws SQLException;

    /** One query, bounded by {@code maxResultBytes}. */
    List<Row> query(String sql, Object[] args) throws SQLException;

    /**
     * One statement, admitted by its caller, returning what {@code returns} says (see {@link
     * Returns}).
     */
    Object execute(StatementShape shape, Object[] args, Returns returns)
            throws SQLException;

    /** A savepoint statement of an interactive transaction, run as it is. */
    void savepointStatement(String sql) throws SQLException;

    /**
     * A body on a guarded connection. A refusal of the guard that the body swallowed still fails
     * it; one a library wrapped in its own exception is what the caller sees.
     *
     * @param inTransaction whether the body runs inside the lane's transaction
     * @param vacuumCheck refuses an in-place VACUUM without headroom; null inside a transaction
     */
    Object runGuarded(SqlFunction<?> body, boolean inTransaction, Runnable vacuumCheck)
            throws Exception;

    /** The initializer; an exception it throws is what the open fails with. */
    Object runInitializer(SqlFunction<?> initializer) throws Exception;

    /** Whether a transaction is open now. */
    boolean inTransaction() throws SQLException;

    /**
     * Stops the statement running now ({@code sqlite3_interrupt}), from any thread, without
     * blocking; a no-op when none runs. A cluster's statement runs on its leader, which this
     * does not reach: there it is a no-op too.
     */
    void interrupt();

    @Override
    void close() throws SQLException;
}
