package dev.lanes.internal.sqlite;

import java.sql.SQLException;

/**
 * Fault points inside the writer lane, so that tests can make SQLite's rare failures happen on
 * demand (a rollback that fails, a commit that fails). The default injects nothing. Not API.
 */
public interface FaultInjector {
    /** The transaction-control steps a fault can be injected before. */
    enum Point { BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, ROLLBACK_TO }

    FaultInjector NONE = point -> {};

    /**
     * Called on the lane's thread before the step runs. Throwing makes the step fail without
     * reaching SQLite, exactly as if SQLite had refused it.
     */
    void before(Point point) throws SQLException;

    /**
     * Called on the lane's thread after the step ran and succeeded. Throwing makes a step that
     * took effect report a failure, as SQLite does when a commit's frames reached the WAL and
     * only the sync that followed failed.
     */
    default void after(Point point) throws SQLException {}
}
