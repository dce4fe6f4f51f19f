package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import dev.lanes.MetricsListener;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOptions;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Timer;
import java.util.concurrent.CompletableFuture;

/**
 * One request on a writer lane and its eventual outcome. The kinds form a closed family, so that
 * the lane's dispatch names every one of them:
 *
 * <ul>
 *   <li>{@link GroupWrite}s run inside the group's transaction: a {@link BodyWrite} (a caller's
 *       body, isolated by a savepoint when grouped) or a {@link StatementWrite} (one statement,
 *       which SQLite isolates by itself);
 *   <li>a {@link Maintenance} body runs alone, without the transaction wrap;
 *   <li>a {@link TransactionBegin} pins the lane to an interactive transaction, whose {@link
 *       TransactionStep}s then run ahead of the queue;
 *   <li>{@link LaneCommand}s steer the lane itself: open, cork, uncork, close.
 * </ul>
 *
 * <h2>Concurrency</h2>
 * The lane's holder records the outcome ({@link #succeed}, {@link #fail}) during the turn and
 * delivers it ({@link #deliver()}) only after the turn released the lane, so that callbacks a
 * caller chained on the future never run while the lane is held. Stage timings and the run count
 * are written by the holder (the queue depth under the lane's lock) and read after delivery.
 * The fields of the leader hand-off are volatile: {@link #waiter} is set before admission, {@link
 * #leadGranted} under the lane's lock, {@link #wake} by the waiter before it checks again. The
 * tracing fields ({@link #traced}, {@link #trace}) are set by the submitting thread before
 * admission and read, and {@code traced} cleared, by whoever reports the outcome (see {@link
 * WriteTelemetry#completed}); admission under the lane's lock orders the two.
 */
public abstract sealed class WriteRequest
        permits WriteRequest.GroupWrite, WriteRequest.Maintenance, WriteRequest.TransactionBegin,
        WriteRequest.TransactionStep, WriteRequest.LaneCommand {

    final CompletableFuture<Object> future = new CompletableFuture<>();
    final WriteOptions options;
    final long enqueuedAt;
    /** How many times the request has started; bounded replays read it. Holder only. */
    int runs;
    /**
     * The platform thread blocked on this request that may be handed the lane to lead the turn
     * that runs it; null for asynchronous and virtual-thread callers.
     */
    volatile Thread waiter;
    /** Set, under the lane's lock, when the lane was handed to {@link #waiter}. */
    volatile boolean leadGranted;
    /**
     * Completed to wake {@link #waiter}: when its outcome is delivered or the lane is handed to
     * it. The waiter replaces a completed one before it checks again. A future, not a bare
     * unpark, so that no stray permit is ever left on the caller's thread.
     */
    volatile CompletableFuture<Void> wake;
    // stage timings
    int depthAtEntry;
    int groupSize;
    long startedAt;
    long acquireNanos;
    long bodyNanos;
    long commitNanos;
    /**
     * How long it may wait in the queue for a turn to take it before it is withdrawn unrun
     * ({@link WriterLane#runAndWait(WriteRequest, boolean, java.time.Duration)}); 0 for no limit.
     * Set by its caller before admission.
     */
    long startTimeoutNanos;
    /**
     * The lane's turn in which its holder queued it, from inside a body of the same lane (set
     * under the lane's lock at admission); 0 when anyone else queued it. Its future then refuses
     * to be waited for on the holder ({@link OwnLaneFuture}), and {@link OwnLaneWatch} withdraws
     * it when that turn's holder stays parked.
     */
    long queuedInTurn;
    /** The timer task that withdraws it, armed when it was queued. */
    volatile Timer.Scheduled startExpiry;
    /**
     * The operation {@code requestStarted} bracketed it as, or null when it is not bracketed (no
     * metrics listener, a lane command, or its {@code requestCompleted} was reported already).
     */
    MetricsListener.Operation traced;
    /** What the listener's {@code requestStarted} returned for it. */
    Object trace;
    // the recorded outcome; holder only until deliver()
    private Object result;
    private LanesException failure;
    private boolean recorded;

    private WriteRequest(WriteOptions options, long enqueuedAt) {
        this.options = options;
        this.enqueuedAt = enqueuedAt;
    }

    /** A request's body or statement, run once by the lane's holder. */
    interface Body {
        Object run() throws Throwable;
    }

    /** What one run of a body gave: its value, or what it threw (then {@code value} is null). */
    record Ran(Object value, Throwable failure) {}

    /**
     * Runs {@code body} once for this request: counts the run ({@link #runs}), times it ({@link
     * #bodyNanos}) and returns what it gave or threw, whatever it threw. Holder only.
     */
    Ran runOnce(Clock clock, Body body) {
        runs++;
        long start = clock.nanoTime();
        Object value = null;
        Throwable failure = null;
        try {
            value = body.run();
        } catch (Throwable t) {
            failure = t;
        }
        bodyNanos = clock.nanoTime() - start;
        return new Ran(value, failure);
    }

    /** Arms the leader hand-off for a platform caller that will block on the outcome. */
    void waitedForBy(Thread caller) {
        wake = new CompletableFuture<>();
        waiter = caller;
    }

    /** From submission until its turn began; read once the outcome arrived. */
    public long waitedNanos() {
        return startedAt - enqueuedAt;
    }

    /** How long its body or statement ran; read once the outcome arrived. */
    public long executedNanos() {
        return bodyNanos;
    }

    /** The future the caller waits on; completed only by {@link #deliver()}. */
    public CompletableFuture<Object> future() {
        return future;
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

    /** Whether this is a user's write whose stages are observed and reported. */
    boolean observed() {
        return true;
    }

    /** The metrics operation this request counts as. */
    abstract MetricsListener.Operation operation();

    /** The statement kind the metrics report: the first keyword of its SQL, or {@code BODY}. */
    String statementKind() {
        return "BODY";
    }

    /** A short name for messages: the label, the statement, or the kind. */
    /**
     * Whether this request is one statement (not a body), so that a refusal before SQLite ran
     * it leaves it not started.
     */
    final boolean singleStatement() {
        return this instanceof StatementWrite || this instanceof Execute
                || this instanceof Query;
    }

    final String describe() {
        return options.label().map(label -> "'" + label + "'").orElseGet(this::describeKind);
    }

    abstract String describeKind();

    private static String quoted(String sql) {
        return "'" + (sql.length() > 80 ? sql.substring(0, 77) + "..." : sql) + "'";
    }

    // ------------------------------------------------------------------ the kinds

    /** A request that runs inside the group's transaction. */
    public abstract static sealed class GroupWrite extends WriteRequest
            permits BodyWrite, StatementWrite {
        GroupWrite(WriteOptions options, long enqueuedAt) {
            super(options, enqueuedAt);
        }

        @Override
        MetricsListener.Operation operation() {
            return MetricsListener.Operation.WRITE;
        }
    }

    /** A caller's body; isolated by a savepoint when it shares its transaction. */
    public static final class BodyWrite extends GroupWrite {
        final SqlFunction<?> body;

        BodyWrite(WriteOptions options, SqlFunction<?> body, long enqueuedAt) {
            super(options, enqueuedAt);
            this.body = body;
        }

        /** The caller's body. */
        public SqlFunction<?> body() {
            return body;
        }

        @Override
        String describeKind() {
            return "a write body";
        }
    }

    /** One statement; SQLite undoes a failed statement by itself, so it needs no savepoint. */
    public static final class StatementWrite extends GroupWrite {
        final StatementShape shape;
        final Object[] args;
        final Returns returns;

        StatementWrite(StatementShape shape, Object[] args, Returns returns, long enqueuedAt) {
            super(WriteOptions.DEFAULTS, enqueuedAt);
            this.shape = shape;
            this.args = args;
            this.returns = returns;
        }

        /** The statement's SQL. */
        public String sql() {
            return shape.sql();
        }

        /** The statement's shape, admitted before the request was made. */
        public StatementShape shape() {
            return shape;
        }

        /** Its parameters (the request's own array: not to be changed). */
        public Object[] args() {
            return args;
        }

        /** What it returns to its caller. */
        public Returns returns() {
            return returns;
        }

        @Override
        String statementKind() {
            return shape.firstKeyword();
        }

        @Override
        String describeKind() {
            return quoted(shape.sql());
        }
    }

    /** A body without the transaction wrap, alone in its turn ({@code VACUUM}, checkpoints). */
    static final class Maintenance extends WriteRequest {
        final SqlFunction<?> body;
        /** Asked for by the database itself, not a caller: not counted as a commit. */
        final boolean background;

        Maintenance(SqlFunction<?> body, long enqueuedAt) {
            this(body, enqueuedAt, false);
        }

        Maintenance(SqlFunction<?> body, long enqueuedAt, boolean background) {
            super(WriteOptions.DEFAULTS, enqueuedAt);
            this.body = body;
            this.background = background;
        }

        @Override
        MetricsListener.Operation operation() {
            return MetricsListener.Operation.MAINTENANCE;
        }

        @Override
        String describeKind() {
            return "a maintenance request";
        }
    }

    /** Opens an interactive transaction and pins the lane to it. */
    static final class TransactionBegin extends WriteRequest {
        final InteractiveTransaction tx;

        TransactionBegin(InteractiveTransaction tx, WriteOptions admission, long enqueuedAt) {
            super(admission, enqueuedAt);
            this.tx = tx;
        }

        @Override
        boolean observed() {
            return false;
        }

        @Override
        MetricsListener.Operation operation() {
            return MetricsListener.Operation.TRANSACTION;
        }

        @Override
        String describeKind() {
            return "an interactive transaction";
        }
    }

    /** One step of the pinned interactive transaction; it runs ahead of the queue. */
    abstract static sealed class TransactionStep extends WriteRequest
            permits Execute, Query, Run, Savepoint, Commit, Rollback, Expire {
        final InteractiveTransaction tx;

        TransactionStep(InteractiveTransaction tx, long enqueuedAt) {
            super(tx.admission(), enqueuedAt);
            this.tx = tx;
        }

        @Override
        MetricsListener.Operation operation() {
            return MetricsListener.Operation.TRANSACTION;
        }

        @Override
        String describeKind() {
            return "an interactive transaction";
        }

        /** Whether the step ends the transaction, so that it succeeds when the end came first. */
        boolean ends() {
            return false;
        }
    }

    /** {@code tx.execute}: one statement, and what it returns. */
    static final class Execute extends TransactionStep {
        final StatementShape shape;
        final Object[] args;
        final Returns returns;
        /** Its query timeout ({@link StepDeadline}); 0 for none. */
        final long timeoutNanos;

        Execute(InteractiveTransaction tx, StatementShape shape, Object[] args, Returns returns,
                long timeoutNanos, long enqueuedAt) {
            super(tx, enqueuedAt);
            this.shape = shape;
            this.args = args;
            this.returns = returns;
            this.timeoutNanos = timeoutNanos;
        }

        @Override
        String statementKind() {
            return shape.firstKeyword();
        }

        @Override
        String describeKind() {
            return quoted(shape.sql());
        }
    }

    /** {@code tx.query}: one query, its rows. */
    static final class Query extends TransactionStep {
        final StatementShape shape;
        final Object[] args;

        Query(InteractiveTransaction tx, StatementShape shape, Object[] args, long enqueuedAt) {
            super(tx, enqueuedAt);
            this.shape = shape;
            this.args = args;
        }

        @Override
        String statementKind() {
            return shape.firstKeyword();
        }

        @Override
        String describeKind() {
            return quoted(shape.sql());
        }
    }

    /** {@code tx.run}: a body, isolated by a savepoint inside the transaction. */
    static final class Run extends TransactionStep {
        final SqlFunction<?> body;

        Run(InteractiveTransaction tx, SqlFunction<?> body, long enqueuedAt) {
            super(tx, enqueuedAt);
            this.body = body;
        }
    }

    /** A savepoint statement of the transaction (JDBC's {@code setSavepoint}…). */
    public static final class Savepoint extends TransactionStep {
        /** The statement, its name checked and quoted by who asks for it. */
        final String sql;

        Savepoint(InteractiveTransaction tx, String sql, long enqueuedAt) {
            super(tx, enqueuedAt);
            this.sql = sql;
        }

        /** The statement. */
        public String sql() {
            return sql;
        }
    }

    /** {@code tx.commit()}. */
    static final class Commit extends TransactionStep {
        Commit(InteractiveTransaction tx, long enqueuedAt) {
            super(tx, enqueuedAt);
        }
    }

    /** A rollback, asked for by the caller or by the lane (a shutdown), with its reason. */
    static final class Rollback extends TransactionStep {
        final String reason;

        Rollback(InteractiveTransaction tx, String reason, long enqueuedAt) {
            super(tx, enqueuedAt);
            this.reason = reason;
        }

        /** Whether the caller asked for it ({@code rollback()}, {@code close()}). */
        boolean byCaller() {
            return InteractiveTransaction.ROLLBACK_CALLED.equals(reason);
        }

        @Override
        boolean ends() {
            return true;
        }
    }

    /** The idle check of the transaction: rolls it back if it sat idle past its timeout. */
    static final class Expire extends TransactionStep {
        Expire(InteractiveTransaction tx, long enqueuedAt) {
            super(tx, enqueuedAt);
        }

        @Override
        boolean ends() {
            return true;
        }
    }

    /** A request that steers the lane itself; never observed as a user's write. */
    abstract static sealed class LaneCommand extends WriteRequest permits Open, Cork, Uncork, Close {
        LaneCommand(long enqueuedAt) {
            super(WriteOptions.DEFAULTS, enqueuedAt);
        }

        @Override
        boolean observed() {
            return false;
        }

        @Override
        MetricsListener.Operation operation() {
            return MetricsListener.Operation.WRITE;
        }

        @Override
        String describeKind() {
            return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Opens the connection (and runs the initializer) if it is not open yet. */
    static final class Open extends LaneCommand {
        Open(long enqueuedAt) {
            super(enqueuedAt);
        }
    }

    /** Opens the outer transaction that holds later writes until uncork. */
    static final class Cork extends LaneCommand {
        Cork(long enqueuedAt) {
            super(enqueuedAt);
        }
    }

    /** Commits the outer transaction opened by cork. */
    static final class Uncork extends LaneCommand {
        Uncork(long enqueuedAt) {
            super(enqueuedAt);
        }
    }

    /** Closes the connection; always the last request a lane runs. */
    static final class Close extends LaneCommand {
        /** Roll back held work (shutdownNow) instead of committing it (close). */
        final boolean discardHeldWork;

        Close(boolean discardHeldWork, long enqueuedAt) {
            super(enqueuedAt);
            this.discardHeldWork = discardHeldWork;
        }
    }
}
