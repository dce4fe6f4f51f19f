package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOptions;
import java.util.concurrent.CompletableFuture;

/**
 * One request on a writer lane and its eventual outcome.
 *
 * <p>The lane thread records the outcome ({@link #succeed} or {@link #fail}) during the turn and
 * delivers it to the future only after the turn has released the lane ({@link #deliver()}), so
 * that callbacks a caller chained on the future never run while the lane is held.
 */
public final class WriteRequest {
    /** What the request asks the lane to do. */
    enum Kind {
        /** A body inside the group's transaction, isolated by a savepoint when grouped. */
        BODY,
        /** One statement inside the group's transaction; SQLite isolates a failed statement. */
        STATEMENT,
        /** A body without the transaction wrap, alone in its turn. */
        TOP_LEVEL,
        /** Opens an interactive transaction and pins the lane to it. */
        TX_BEGIN,
        /** One step of the pinned interactive transaction; see {@link Step}. */
        TX_STEP,
        /** Opens the connection (and runs the initializer) if it is not open yet. */
        OPEN,
        /** Opens the outer transaction that holds later writes until uncork. */
        CORK,
        /** Commits the outer transaction opened by cork. */
        UNCORK,
        /** Closes the connection; always the last request a lane runs. */
        CLOSE
    }

    /** What a {@link Kind#TX_STEP} does. */
    enum Step { EXECUTE, QUERY, RUN, COMMIT, ROLLBACK, EXPIRE }

    final Kind kind;
    final SqlFunction<?> body;
    final String sql;
    final Object[] args;
    final WriteOptions options;
    final InteractiveTransaction tx;
    final Step step;
    /** For {@link Kind#CLOSE}: roll back held work (shutdownNow) instead of committing it. */
    final boolean discard;
    public final CompletableFuture<Object> future = new CompletableFuture<>();
    final long enqueuedAt;
    /** How many times the body has started; bounded replays read it. Lane thread only. */
    int runs;
    /**
     * The platform thread blocked on this request that may be handed the lane to lead the turn
     * that runs it; null for asynchronous and virtual-thread callers. Set before admission.
     */
    public volatile Thread waiter;
    /** Set, under the lane's lock, when the lane was handed to {@link #waiter}. */
    volatile boolean leadGranted;
    /**
     * Completed to wake {@link #waiter}: when its outcome is delivered or the lane is handed to
     * it. The waiter replaces a completed one before it checks again. A future, not a bare
     * unpark, so that no stray permit is ever left on the caller's thread.
     */
    public volatile CompletableFuture<Void> wake;
    // stage timings, written by the lane (depth under its lock, the rest by the holder)
    int depthAtEntry;
    int groupSize;
    long startedAt;
    long acquireNanos;
    long bodyNanos;
    long commitNanos;
    // the recorded outcome; lane thread only until deliver()
    private Object result;
    private LanesException failure;
    private boolean recorded;

    private WriteRequest(Kind kind, SqlFunction<?> body, String sql, Object[] args,
            WriteOptions options) {
        this(kind, body, sql, args, options, null, null);
    }

    private WriteRequest(Kind kind, SqlFunction<?> body, String sql, Object[] args,
            WriteOptions options, InteractiveTransaction tx, Step step) {
        this.kind = kind;
        this.body = body;
        this.sql = sql;
        this.args = args;
        this.options = options;
        this.tx = tx;
        this.step = step;
        this.discard = kind == Kind.CLOSE && sql != null;
        this.enqueuedAt = System.nanoTime();
    }

    public static WriteRequest txBegin(InteractiveTransaction tx, WriteOptions admission) {
        return new WriteRequest(Kind.TX_BEGIN, null, null, null, admission, tx, null);
    }

    /** A step; for an internal {@link Step#ROLLBACK}, {@code sql} carries the reason. */
    static WriteRequest txStep(InteractiveTransaction tx, Step step, SqlFunction<?> body,
            String sql, Object[] args) {
        return new WriteRequest(Kind.TX_STEP, body, sql, args, tx.admission(), tx, step);
    }

    static WriteRequest open() {
        return new WriteRequest(Kind.OPEN, null, null, null, WriteOptions.DEFAULTS);
    }

    static WriteRequest cork() {
        return new WriteRequest(Kind.CORK, null, null, null, WriteOptions.DEFAULTS);
    }

    static WriteRequest uncork() {
        return new WriteRequest(Kind.UNCORK, null, null, null, WriteOptions.DEFAULTS);
    }

    public static WriteRequest body(WriteOptions options, SqlFunction<?> body) {
        return new WriteRequest(Kind.BODY, body, null, null, options);
    }

    public static WriteRequest statement(String sql, Object[] args) {
        return new WriteRequest(Kind.STATEMENT, null, sql, args, WriteOptions.DEFAULTS);
    }

    public static WriteRequest topLevel(SqlFunction<?> body) {
        return new WriteRequest(Kind.TOP_LEVEL, body, null, null, WriteOptions.DEFAULTS);
    }

    static WriteRequest close(boolean discardHeldWork) {
        return new WriteRequest(Kind.CLOSE, null, discardHeldWork ? "discard" : null, null,
                WriteOptions.DEFAULTS);
    }

    /** The metrics operation this request counts as. */
    dev.lanes.MetricsListener.Operation operation() {
        switch (kind) {
            case TOP_LEVEL:
                return dev.lanes.MetricsListener.Operation.MAINTENANCE;
            case TX_BEGIN:
            case TX_STEP:
                return dev.lanes.MetricsListener.Operation.TRANSACTION;
            default:
                return dev.lanes.MetricsListener.Operation.WRITE;
        }
    }

    /** Whether the request is a user's write whose stages are observed. */
    boolean observed() {
        return kind == Kind.BODY || kind == Kind.STATEMENT || kind == Kind.TOP_LEVEL
                || kind == Kind.TX_STEP;
    }

    boolean inTransaction() {
        return kind == Kind.BODY || kind == Kind.STATEMENT;
    }

    void succeed(Object value) {
        result = value;
        failure = null;
        recorded = true;
    }

    void fail(LanesException e) {
        result = null;
        failure = e;
        recorded = true;
    }

    boolean recorded() {
        return recorded;
    }

    /** The recorded failure, or null. */
    LanesException failure() {
        return failure;
    }

    /** Forgets a recorded outcome before the request runs again in a fresh group. */
    void reset() {
        result = null;
        failure = null;
        recorded = false;
    }

    /** Completes the future with the recorded outcome, and wakes a waiter parked on it. */
    void deliver() {
        if (failure != null) {
            future.completeExceptionally(failure);
        } else {
            future.complete(result);
        }
        CompletableFuture<Void> w = wake;
        if (w != null) {
            w.complete(null);
        }
    }

    /** A short name for messages: the label, the statement, or the kind. */
    String describe() {
        if (options.label().isPresent()) {
            return "'" + options.label().get() + "'";
        }
        if (sql != null) {
            return "'" + (sql.length() > 80 ? sql.substring(0, 77) + "..." : sql) + "'";
        }
        switch (kind) {
            case TOP_LEVEL:
                return "a maintenance request";
            case TX_BEGIN:
            case TX_STEP:
                return "an interactive transaction";
            default:
                return "a write body";
        }
    }
}
