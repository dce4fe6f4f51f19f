package dev.lanes.internal.writer;

import dev.lanes.MetricsListener;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOptions;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.StatementShape;
import java.util.concurrent.CompletableFuture;

/**
 * One request on a writer lane: an immutable command, which says what to run, with its {@link
 * Ticket} (how its caller waits for it) and its {@link Stages} (what its runs did, written by the
 * lane's holder). The kinds form a closed family, so that the lane's dispatch names every one of
 * them:
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
 * <p>Every field of a kind is final, set when the request is made (its options, its body or
 * statement and parameters, the transaction it steps), so that any thread that sees the request
 * may read its command; what changes as it waits and runs lives in the ticket and the stages,
 * whose documentation states who writes what.
 */
public abstract sealed class WriteRequest
        permits WriteRequest.GroupWrite, WriteRequest.Maintenance, WriteRequest.TransactionBegin,
        WriteRequest.TransactionStep, WriteRequest.LaneCommand {

    final WriteOptions options;
    /** The future, the leader hand-off, the start deadline and the telemetry bracket. */
    final Ticket ticket;
    /** The run count, the stage timings and the recorded outcome; written by the holder. */
    final Stages stages = new Stages();

    private WriteRequest(WriteOptions options, long enqueuedAt) {
        this.options = options;
        this.ticket = new Ticket(enqueuedAt);
    }

    /** From submission until its turn began; read once the outcome arrived. */
    public long waitedNanos() {
        return stages.startedAt - ticket.enqueuedAt;
    }

    /** How long its body or statement ran; read once the outcome arrived. */
    public long executedNanos() {
        return stages.bodyNanos;
    }

    /** The future the caller waits on; completed only by {@link #deliver()}. */
    public CompletableFuture<Object> future() {
        return ticket.future;
    }

    /** Completes the future with the recorded outcome, and wakes a waiter parked on it. */
    void deliver() {
        stages.deliver(ticket);
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

    /**
     * Whether this request is one statement (not a body), so that a refusal before SQLite ran
     * it leaves it not started.
     */
    final boolean singleStatement() {
        return this instanceof StatementWrite || this instanceof Execute
                || this instanceof Query;
    }

    /** A short name for messages: the label, the statement, or the kind. */
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
