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
 *
 * <p>Event methods take primitives, enums and strings the runtime already holds, so a call
 * allocates nothing. Gauge methods ({@link PoolGauges}, {@link DatabaseGauges}) are read when a
 * meter is read (a scrape), for every open database: they must not run SQL or take a lock that
 * a turn holds. A gauge method added after the first release has a default that returns a
 * negative number (or {@code null}) meaning "not reported by this runtime"; a binding shows it
 * as missing rather than as zero.
 *
 * <h2>Requests</h2>
 * Every request (a write, read, maintenance request, or interactive transaction) is bracketed
 * by exactly one {@link #requestStarted} on the thread that submits it and exactly one {@link
 * #requestCompleted} once its outcome is known, whichever thread runs it and whether it was
 * refused at admission, failed or committed. The object {@code requestStarted} returns is handed
 * back unchanged to {@code requestCompleted}, so a listener can carry what it started (a tracing
 * span: a span cannot be back-dated, and its parent is the submitting thread's current one).
 */
public interface MetricsListener {
    /** Does nothing. */
    MetricsListener NONE = new MetricsListener() {};

    /** What a measured command was. */
    enum Operation {
        /** A write: a statement, a body, a batch or a script on the writer lane. */
        WRITE,
        /** A read on a reader connection. */
        READ,
        /** A maintenance request, or a checkpoint, on the writer lane outside a transaction. */
        MAINTENANCE,
        /** An interactive transaction, from {@code BEGIN} to its end. */
        TRANSACTION
    }

    /**
     * How a request ended. Writes, maintenance requests and interactive transactions end in one
     * of the four write outcomes ({@link WriteOutcome} plus {@code COMMITTED}); reads end in
     * {@code SUCCEEDED} or {@code FAILED}.
     */
    enum Outcome {
        /** {@code COMMIT} returned (for maintenance: the request ran to its end). */
        COMMITTED,
        /** It ran, and nothing of it persisted ({@link WriteOutcome#ROLLED_BACK}). */
        ROLLED_BACK,
        /** It never reached SQLite ({@link WriteOutcome#NOT_STARTED}), refusals included. */
        NOT_STARTED,
        /** It may have persisted ({@link WriteOutcome#UNKNOWN}); the writer is poisoned. */
        UNKNOWN,
        /** A read returned its result. */
        SUCCEEDED,
        /** A read failed, whatever the reason (admission timeout, deadline, SQL error…). */
        FAILED
    }

    /** SQLite's checkpoint modes, as {@code PRAGMA wal_checkpoint(...)} takes them. */
    enum CheckpointType {
        /** Copies what it can without waiting for readers or writers. */
        PASSIVE,
        /** Waits for the writer, then copies everything readers allow. */
        FULL,
        /** As {@code FULL}, then waits for readers so that the WAL starts over. */
        RESTART,
        /** As {@code RESTART}, then truncates the WAL file to zero bytes. */
        TRUNCATE
    }

    /** Who ran a checkpoint. */
    enum CheckpointTrigger {
        /**
         * The runtime, on the writer connection, for a database in {@link CheckpointMode#AUTO}.
         * SQLite's own autocheckpoint inside a {@code COMMIT} is invisible through sqlite-jdbc
         * and is not reported.
         */
        AUTO,
        /** The background checkpointer of a database in {@link CheckpointMode#DEDICATED}. */
        DEDICATED,
        /** {@link Database#checkpoint()}. */
        MANUAL
    }

    /**
     * Gauges of the runtime: its shared pool, its connections. Read when the meter is read (see
     * the class comment): no SQL, no lock a turn holds.
     */
    interface PoolGauges {
        /** Pool threads alive now. */
        int liveThreads();

        /** Pool threads running a turn now. */
        int busyThreads();

        /** Databases waiting for a pool thread now. */
        int runnable();

        /** The cap on pool threads ({@code maxThreads}); -1 when not reported. */
        default int maxThreads() {
            return -1;
        }

        /**
         * SQLite connections open in the runtime now, of every kind (writers, readers,
         * checkpointers, backups), as {@link RuntimeDiagnostics#openConnections()}; -1 when not
         * reported.
         */
        default int openConnections() {
            return -1;
        }

        /**
         * The connection budget ({@link Lanes.Builder#maxOpenConnections(int)}); 0 when there is
         * no cap, -1 when not reported.
         */
        default int connectionBudget() {
            return -1;
        }
    }

    /**
     * Gauges of one database. Read when the meter is read, for every open database (see the
     * class comment): no SQL, no lock a turn holds.
     */
    interface DatabaseGauges {
        /** Writes waiting in the queue now. */
        int queueDepth();

        /** Whether the writer refuses work after an unverifiable commit or rollback. */
        boolean writerPoisoned();

        /** Whether an interactive transaction is open now. */
        boolean transactionOpen();

        /**
         * The {@code -wal} file's size in bytes, 0 when there is none; at most one {@code stat}
         * (a value the runtime sampled recently will do), never SQL. -1 when not reported.
         */
        default long walBytes() {
            return -1;
        }

        /** Reader connections checked out by reads now; -1 when not reported. */
        default int readersInUse() {
            return -1;
        }

        /** Reads waiting for a reader connection now; -1 when not reported. */
        default int readersWaiting() {
            return -1;
        }

        /**
         * Free bytes on the database's volume as the latest write turn sampled them (the disk
         * reserve check), without sampling again; -1 before the first sample, when the reserve
         * is off ({@code diskReserveBytes} 0), or when not reported.
         */
        default long freeBytes() {
            return -1;
        }

        /** {@link DatabaseOptions#diskReserveBytes()}; -1 when not reported. */
        default long diskReserveBytes() {
            return -1;
        }

        /** The database's lifecycle state now; {@code null} when not reported. */
        default DatabaseState state() {
            return null;
        }
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

    /**
     * A request waited {@code nanos} before its turn: in the queue, and for room in it when it
     * found the queue full.
     */
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

    // ------------------------------------------------------------------ since the operations issue

    /**
     * A request was submitted: called on the submitting thread before admission, so a refusal
     * at admission is bracketed too. For an interactive transaction, called by {@link
     * Database#begin()} before it waits for the writer.
     *
     * @param label the request's {@link WriteOptions#label()}, or {@code null}
     * @return an object the runtime hands back to {@link #requestCompleted}, unchanged, or
     *     {@code null}; the default returns {@code null} and the runtime then keeps nothing
     */
    default Object requestStarted(String db, Operation operation, String label) {
        return null;
    }

    /**
     * A request's outcome is known: called once for each {@link #requestStarted}, on the thread
     * that learned the outcome, before the caller sees it (so a trace's span ends before the
     * caller's does). For a group, called for each of its requests once the group's {@code
     * COMMIT} returned or the group failed; for an interactive transaction, when its commit or
     * rollback (explicit, by close, or by the idle timeout) ended.
     *
     * @param started what {@link #requestStarted} returned for this request
     * @param label the request's label, or {@code null}
     * @param outcome how it ended
     * @param failure the exception the caller gets when it failed (a {@link LanesException},
     *     whose {@link LanesException#code()} says why), else {@code null}
     * @param replayed whether its body ran again after a neighbour ended its group's transaction
     * @param groupSize requests in the transaction that committed (or failed) it; 1 for reads,
     *     maintenance and interactive transactions; 0 when it never reached a group
     * @param queueWaitNanos from submission until its turn began (for a transaction: until it
     *     held the writer); 0 when it never began
     * @param totalNanos from submission until the outcome was known
     */
    default void requestCompleted(Object started, String db, Operation operation, String label,
            Outcome outcome, Throwable failure, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {}

    /**
     * A checkpoint ran ({@code PRAGMA wal_checkpoint}), taking {@code nanos}. A background
     * checkpoint that escalates (a {@code PASSIVE} one left frames behind, a {@code RESTART}
     * follows) reports each run.
     *
     * @param walFrames frames in the WAL, as SQLite reported them; -1 when it failed or the
     *     database is not in WAL mode
     * @param checkpointedFrames frames now in the database file; -1 likewise
     * @param busy whether SQLite reported it could not finish for a lock
     * @param failed whether it threw (then {@code walFrames} and {@code checkpointedFrames} are
     *     -1)
     */
    default void checkpoint(String db, CheckpointType type, CheckpointTrigger trigger, long nanos,
            int walFrames, int checkpointedFrames, boolean busy, boolean failed) {}

    /**
     * A read's wait for a reader connection ended after {@code waitNanos} (0 when one was free
     * at once), with a reader ({@code acquired}) or without one (it timed out, its deadline
     * passed, it was cancelled, the database closed).
     */
    default void readerCheckout(String db, long waitNanos, boolean acquired) {}

    /**
     * The connection budget closed the idle database's {@code connections} connections to make
     * room for another database's; the database stays open and reopens them on its next use.
     */
    default void connectionsEvicted(String db, int connections) {}

    /**
     * A database whose connections were evicted reopened its writer connection on its next use,
     * taking {@code nanos} (open, pragmas, identity check).
     */
    default void connectionReopened(String db, long nanos) {}

    /**
     * A write turn was refused at the disk reserve ({@link CapacityFloorException}): {@code
     * freeBytes} were free, at or below {@code floorBytes} (the reserve plus the WAL a
     * checkpoint may move into the database file). Called once per refused turn; each refused
     * request also ends {@link Outcome#NOT_STARTED} with {@link ErrorCode#CAPACITY_FLOOR}.
     */
    default void diskFloorRefused(String db, long freeBytes, long floorBytes) {}

    /**
     * A change notification reached one subscriber {@code lagNanos} after the {@code COMMIT} of
     * the oldest commit it covers returned (changes are coalesced). Called on the notification
     * thread, before the subscriber's callback runs.
     */
    default void changeDelivered(String db, long lagNanos) {}
}
