package dev.lanes.internal.writer;

import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sql.SqlText;
import dev.lanes.internal.util.Threads;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Transaction;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.writer.WriteRequest.Step;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;

/**
 * A {@link Transaction}: a handle whose every call becomes one step on the writer lane it pins.
 *
 * <p>Concurrency: {@link #state} and {@link #endReason} are written only under the lane's lock
 * (by the lane), so admission of a step and the end of the transaction cannot interleave; they
 * are volatile so that {@link #isOpen()} reads them without the lock. Activity stamps are written
 * by the lane's holder and read by the idle timer.
 */
public final class InteractiveTransaction implements Transaction {
    enum State { PENDING, OPEN, COMMITTED, ROLLED_BACK, UNKNOWN }

    private final WriterLane lane;
    private final String name;
    private final WriteOptions admission;
    final Duration idleTimeout;
    volatile State state = State.PENDING;
    volatile String endReason;
    volatile long openedAtNanos;
    volatile long lastActivityNanos;
    volatile int statements;
    /** The pending idle check; guarded by the lane's lock. */
    ScheduledFuture<?> idleCheck;

    public InteractiveTransaction(WriterLane lane, String name, TransactionOptions options,
            Duration defaultIdleTimeout) {
        this.lane = lane;
        this.name = name;
        this.admission = options.admission();
        this.idleTimeout = options.idleTimeout().orElse(defaultIdleTimeout);
    }

    WriteOptions admission() {
        return admission;
    }

    @Override
    public int execute(String sql, Object... args) {
        return (Integer) step(Step.EXECUTE, null, checked(sql), args == null ? new Object[0] : args);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Row> query(String sql, Object... args) {
        return (List<Row>) step(Step.QUERY, null, checked(sql), args == null ? new Object[0] : args);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T run(SqlFunction<T> body) {
        return (T) step(Step.RUN, Objects.requireNonNull(body, "body"), null, null);
    }

    @Override
    public void commit() {
        step(Step.COMMIT, null, null, null);
    }

    @Override
    public void rollback() {
        if (state == State.OPEN) {
            try {
                step(Step.ROLLBACK, null, null, null);
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

    private String checked(String sql) {
        Objects.requireNonNull(sql, "sql");
        String keyword = SqlText.transactionControl(sql);
        if (keyword != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": transaction "
                    + "control (" + keyword + ") is refused inside a transaction; use commit() or "
                    + "rollback()", null);
        }
        return sql;
    }

    private Object step(Step step, SqlFunction<?> body, String sql, Object[] args) {
        WriteRequest r = WriteRequest.txStep(this, step, body, sql, args);
        lane.submitStep(r, !Threads.currentIsVirtual());
        try {
            return r.future.join();
        } catch (CompletionException e) {
            throw DatabaseImpl.rethrow(e.getCause());
        }
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
            case ROLLED_BACK:
            default:
                return new WriteFailedException(WriteOutcome.ROLLED_BACK, name + ": the "
                        + "transaction was rolled back (" + endReason + ")", null);
        }
    }

    /** Age and statements, for diagnostics. */
    long ageNanos() {
        long opened = openedAtNanos;
        return opened == 0 ? 0 : System.nanoTime() - opened;
    }
}
