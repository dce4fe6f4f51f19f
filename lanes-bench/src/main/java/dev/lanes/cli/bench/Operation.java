package dev.lanes.cli.bench;

/**
 * One request that a bench thread repeats as fast as the system under test answers it: an
 * insert, a point read, a read-then-write transaction. An operation belongs to the thread that
 * opened it ({@link Workload#open}), so it may hold that thread's own connection and prepared
 * statements; the thread closes it after the run.
 */
interface Operation extends AutoCloseable {

    /**
     * Performs the request once and returns once the system answered. Failures are thrown, and
     * the workload counts them by kind; the thread then goes on.
     *
     * @return the kind of request it was ({@code "read"}, {@code "write"}…), a constant string,
     *     under which its latency is also recorded
     */
    String run() throws Exception;

    /** Releases what the thread opened; by default nothing. Never interrupted. */
    @Override
    default void close() throws java.sql.SQLException {}
}
