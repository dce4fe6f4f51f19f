package dev.lanes;

import java.time.Duration;

/**
 * The metrics SPI: the runtime reports what happens to a listener installed with {@link
 * Lanes.Builder#metrics(MetricsListener)}. {@code lanes-micrometer} binds it to Micrometer; the
 * default does nothing and costs a call to an empty method.
 *
 * <p>Methods are called on the runtime's threads, often with a writer lane held: they must be
 * cheap, non-blocking and must not throw (a throwing listener is logged and ignored). Database
 * names are file names, made unique per runtime. Durations are in nanoseconds.
 */
public interface MetricsListener {
    /** Does nothing. */
    MetricsListener NONE = new MetricsListener() {};

    /** What a measured command was. */
    enum Operation { WRITE, READ, MAINTENANCE, TRANSACTION }

    /** Gauges of the runtime's shared pool, read when the meter is read. */
    interface PoolGauges {
        int liveThreads();

        int busyThreads();

        int runnable();
    }

    /** Gauges of one database, read when the meter is read. */
    interface DatabaseGauges {
        int queueDepth();

        boolean writerPoisoned();

        boolean transactionOpen();
    }

    /** The runtime started; its pool gauges can be bound. */
    default void runtimeStarted(PoolGauges pool) {}

    /** A database opened; its gauges can be bound until {@link #databaseClosed}. */
    default void databaseOpened(String db, DatabaseGauges gauges) {}

    /**
     * A database closed, taking {@code nanos}. When {@code close()} gave up waiting, this is
     * called twice: first with {@code timedOut} true when the caller stopped waiting, then with
     * false when the close really completed.
     */
    default void databaseClosed(String db, long nanos, boolean timedOut) {}

    /** A request waited {@code nanos} in the queue before its turn. */
    default void queueWait(String db, long nanos) {}

    /**
     * A command ran for {@code nanos}.
     *
     * @param statementKind the first keyword of its SQL ({@code INSERT}, {@code SELECT}, …) after
     *     comments, or {@code BODY} for a function body
     */
    default void command(String db, Operation operation, boolean inTransaction,
            String statementKind, long nanos, boolean success) {}

    /**
     * A transaction committed: a group of {@code size} writes, or an interactive transaction
     * ({@code size} 1); it lasted {@code nanos} from {@code BEGIN} to the end of {@code COMMIT}.
     */
    default void groupCommitted(String db, int size, long nanos) {}

    /**
     * A request that was admitted failed with this code. Refusals at admission (overloaded,
     * closed, poisoned, invalid) are thrown to the caller and not reported here, except
     * overloads, which {@link #overload} counts.
     */
    default void error(String db, ErrorCode code) {}

    /** A write was refused because the queue was full. */
    default void overload(String db) {}

    /** A turn failed with an unexpected error (a defect); the thread went on. */
    default void crash(String db) {}

    /**
     * A database was still open when its {@link Lanes} runtime was garbage-collected without
     * {@link Lanes#close()}.
     */
    default void uncleanClose(String db) {}

    /** A group held writes slower than the slow-write threshold; {@code total} is the slowest. */
    default void slowWrite(String db, Duration total) {}

    /** The runtime closed; pool gauges can be unbound. */
    default void runtimeClosed() {}
}
