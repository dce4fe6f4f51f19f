package dev.lanes.internal.writer;

import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Transaction;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.WriteTransaction;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.Threads;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Transaction}: a handle whose every call becomes one step on the writer lane it pins
 * (see {@link PinnedTransaction}).
 *
 * <p>Concurrency: {@link #state}, {@link #endReason}, {@link #endedBy} and {@link #idleCheck}
 * are written only by {@link LaneState}, under its lock, so admission of a step and the end of
 * the transaction cannot interleave; state and reason are volatile so that {@link #isOpen()}
 * reads them without the lock. Activity stamps and {@link #running} are written by the lane's
 * holder and read by the idle check.
 */
public final class InteractiveTransaction implements Transaction, WriteTransaction {
    /** {@code COMMITTING}: released into a {@link SharedCommit}, it waits for its COMMIT. */
    enum State { PENDING, OPEN, COMMITTING, COMMITTED, ROLLED_BACK, UNKNOWN }

    /** The reason of a rollback the caller asked for, which is an outcome and not a failure. */
    static final String ROLLBACK_CALLED = "rollback() was called";

    private final WriterLane lane;
    private final String name;
    private final Clock clock;
    private final WriteOptions admission;
    /**
     * The thread that began it. While it is open, a write from this thread that waits would wait
     * for the transaction, which waits for this thread: the lane refuses it at once.
     */
    final Thread owner = Thread.currentThread();
    final Duration idleTimeout;
    volatile State state = State.PENDING;
    volatile String endReason;
    volatile long openedAtNanos;
    volatile long lastActivityNanos;
    volatile int statements;
    Timer.Scheduled idleCheck;
    /**
     * The request that began it, which carries its tracing: the transaction is one request to
     * the metrics listener, from {@code begin()} to its end. Set before admission.
     */
    WriteRequest begun;
    /**
     * The step during which it ended; its delivery reports the transaction's outcome. Written
     * under the lane's lock by the holder that ran the step, read by that same thread.
     */
    TransactionStep endedBy;
    /** The step running now, or the last one that ran. Turn only. */
    TransactionStep running;
    /**
     * Whether it runs inside its own savepoint of a {@link SharedCommit}'s open transaction.
     * Turn only.
     */
    boolean grouped;
    /** What its steps gave, to run it again in a {@link SharedCommit}. Turn only. */
    final StepLog log = new StepLog();

    InteractiveTransaction(WriterLane lane, String name, Clock clock, TransactionOptions options,
            Duration defaultIdleTimeout) {
        this.lane = lane;
        this.name = name;
        this.clock = clock;
        this.admission = options.admission();
        this.idleTimeout = options.idleTimeout().orElse(defaultIdleTimeout);
    }

    WriteOptions admission() {
        return admission;
    }

    @Override
    public int execute(String sql, Object... args) {
        return step(new WriteRequest.Execute(this, admitted(StatementPolicy.WRITER, sql),
                argsOf(args), Returns.COUNT, 0, clock.nanoTime()));
    }

    /** One statement its caller admitted (a JDBC caller, a cluster's transaction). */
    @Override
    public Object execute(StatementShape shape, Object[] args, Returns returns,
            Duration timeout) {
        return step(new WriteRequest.Execute(this, shape, argsOf(args), returns,
                timeout == null ? 0 : Math.max(1, timeout.toNanos()), clock.nanoTime()));
    }

    @Override
    public void savepoint(String sql) {
        step(new WriteRequest.Savepoint(this, sql, clock.nanoTime()));
    }

    @Override
    public List<Row> query(String sql, Object... args) {
        return step(new WriteRequest.Query(this, admitted(StatementPolicy.WRITE_BODY, sql),
                argsOf(args), clock.nanoTime()));
    }

    @Override
    public <T> T run(SqlFunction<T> body) {
        return step(new WriteRequest.Run(this, Objects.requireNonNull(body, "body"),
                clock.nanoTime()));
    }

    @Override
    public void commit() {
        step(new WriteRequest.Commit(this, clock.nanoTime()));
        lane.setup().acknowledge();
    }

    @Override
    public void rollback() {
        if (state == State.OPEN) {
            try {
                step(new WriteRequest.Rollback(this, ROLLBACK_CALLED, clock.nanoTime()));
            } catch (LanesException e) {
                if (e.outcome() != WriteOutcome.ROLLED_BACK) {
                    throw e;
                }
                // it ended (idle timeout, shutdown) between the check and the step: rolled back
            }
        }
    }

    @Override
    public boolean isOpen() {
        return state == State.OPEN;
    }

    @Override
    public void close() {
        rollback();
    }

    private static Object[] argsOf(Object[] args) {
        return args == null ? new Object[0] : args;
    }

    /** The shape of {@code sql}, admitted by {@code policy} before anything is queued. */
    private StatementShape admitted(StatementPolicy policy, String sql) {
        Objects.requireNonNull(sql, "sql");
        LaneSetup setup = lane.setup();
        StatementShape shape = setup.shapes().of(sql);
        policy.admit(name, shape, setup.options().maxAttachedDatabases());
        return shape;
    }

    private <T> T step(TransactionStep r) {
        lane.submitStep(r, !Threads.currentIsVirtual());
        return Failures.join(r.ticket.future);
    }

    /** Why a step cannot run: the transaction is not open. Called under the lane's lock. */
    LanesException notOpen() {
        switch (state) {
            case COMMITTED:
                return new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": the transaction already committed", null);
            case UNKNOWN:
                return new WriteFailedException(WriteOutcome.UNKNOWN, name + ": the transaction "
                        + "ended and whether it persisted is unknown (" + endReason + ")", null);
            case PENDING:
                return new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": the transaction has not begun", null);
            case COMMITTING:
                return new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": the transaction is committing", null);
            case ROLLED_BACK:
            default:
                return new WriteFailedException(WriteOutcome.ROLLED_BACK, name + ": the "
                        + "transaction was rolled back (" + endReason + ")", null);
        }
    }

    /** How long it has been open, for diagnostics. */
    long ageNanos() {
        long opened = openedAtNanos;
        return opened == 0 ? 0 : clock.nanoTime() - opened;
    }
}
