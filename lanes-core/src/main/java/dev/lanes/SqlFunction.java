package dev.lanes;

import java.sql.Connection;

/**
 * A unit of work that runs on a Lanes connection.
 *
 * <p>Write bodies receive a guarded connection that is already inside the lane's transaction:
 * issue statements, never transaction control. A write body may run more than once when a
 * neighbour in its commit group ends the shared transaction (see {@link WriteOptions#replayable()}),
 * so it must not have outside effects that cannot repeat.
 *
 * @param <T> what the body returns
 */
@FunctionalInterface
public interface SqlFunction<T> {
    /**
     * Runs the body.
     *
     * @param connection a guarded connection, valid only during this call and only on this thread
     * @return the body's result, handed to the caller after the work committed
     * @throws Exception any failure; the request then rolls back alone
     */
    T apply(Connection connection) throws Exception;
}
