package dev.lanes.internal.writer;

import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.spi.CommitFence;
import java.sql.SQLException;
import java.util.Set;

/**
 * The writer connection as {@link GroupCommit} sees it: the transaction steps of a turn, a watch
 * that tells whether a request ended the transaction under the lane, and the running of one
 * member of a group. {@link WriterConnection} implements it on SQLite; the group-commit tests
 * implement it without SQLite; a cluster database implements it on a replicated engine.
 *
 * <p>Confinement: used only by the thread that holds the lane's turn.
 */
public interface LaneConnection {
    /**
     * {@code BEGIN IMMEDIATE}, retried while another connection holds the write lock, every
     * attempt drawing on one {@code busyTimeout} budget.
     *
     * @throws BusyTimeout when the lock stayed taken for the whole budget
     * @throws SQLException when {@code BEGIN} failed for another reason
     */
    void beginImmediate() throws SQLException, BusyTimeout;

    /**
     * {@code COMMIT}.
     *
     * @throws CommitNotApplied when the commit is proven not applied and its writes may run
     *     again (a cluster's resolution of an uncertain commit); the transaction is over
     * @throws SQLException when it failed otherwise; {@link #rolledBackAfterFailedCommit} then
     *     says whether it certainly did not persist
     */
    void commit() throws SQLException;

    /**
     * Ends the transaction after its {@code COMMIT} failed, and says whether it certainly did not
     * persist (rolled back, verified); false means its outcome is unknown.
     */
    boolean rolledBackAfterFailedCommit(SQLException failure);

    /**
     * Rolls back the transaction, if one is open, and verifies the connection is outside any.
     * Never throws.
     *
     * @return whether the connection is verified to be outside any transaction
     */
    boolean rollbackVerified();

    /** {@code SAVEPOINT} around one request inside the transaction. */
    void savepoint() throws SQLException;

    /** {@code RELEASE} of the request's savepoint: it stays in the transaction. */
    void releaseSavepoint() throws SQLException;

    /** Undoes the request back to its savepoint, and releases it; the transaction stays open. */
    void rollBackToSavepoint() throws SQLException;

    /** Starts watching for the end of the transaction; see {@link Watch}. */
    Watch watch();

    /** Runs one member of a group: its statement, or its body on a guarded connection. */
    Object run(GroupWrite request) throws Exception;

    /**
     * Runs the database's commit fence inside the open transaction, just before {@code COMMIT},
     * on the connection a body would get there; throws what the fence threw.
     */
    void beforeCommit(CommitFence fence) throws Exception;

    /** Rows changed since the last successful {@link #beginImmediate()}. */
    long changesSinceBegin() throws SQLException;

    /** The tables changed since the last {@link #beginImmediate()}; the caller takes the set. */
    Set<String> takeChangedTables();

    /** Records the tables each transaction changes from now on, or stops recording them. */
    void trackTables(boolean track);

    /**
     * A {@code COMMIT} that is proven not applied: nothing of the transaction persisted, the
     * transaction is over, and its writes may run again in a fresh one. A local SQLite connection
     * never throws it; a cluster connection does when it resolved an uncertain commit (the
     * leader was lost during it) and found it not applied. Group commit then replays the group's
     * writes, as after a neighbour ended the transaction; elsewhere it counts as rolled back.
     */
    final class CommitNotApplied extends SQLException {
        private static final long serialVersionUID = 1L;

        public CommitNotApplied(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What happened to the transaction since {@link #watch()}. */
    interface Watch {
        /** Whether the transaction ended (committed or rolled back) since the watch began. */
        boolean ended();

        /** Whether anything committed since the watch began. */
        boolean committed();

        /** Whether the first end since the watch began was a commit. */
        boolean firstEndWasCommit();
    }
}
