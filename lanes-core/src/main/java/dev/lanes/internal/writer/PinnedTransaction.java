package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.notify.TransactionStateListeners;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.writer.InteractiveTransaction.State;
import dev.lanes.internal.writer.WriteRequest.Commit;
import dev.lanes.internal.writer.WriteRequest.Execute;
import dev.lanes.internal.writer.WriteRequest.Expire;
import dev.lanes.internal.writer.WriteRequest.Query;
import dev.lanes.internal.writer.WriteRequest.Rollback;
import dev.lanes.internal.writer.WriteRequest.Run;
import dev.lanes.internal.writer.WriteRequest.TransactionBegin;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interactive transaction a writer lane is pinned to: {@code db.begin()} runs {@code BEGIN
 * IMMEDIATE} and pins the lane, its steps run in order on the writer connection ahead of the
 * queue, other writes wait behind it, and no thread is held between its steps. An idle timeout
 * rolls it back, so a forgotten transaction cannot stall the database forever.
 *
 * <p>A failed step leaves the transaction as it was before the step, as SQLite's statement
 * journal does for a statement's own failure: a step that can fail after SQLite changed rows (a
 * body, a write with {@code RETURNING}) runs inside a savepoint and is rolled back to it; other
 * statements run bare. When that undo fails, or an insert whose key is read after it fails on
 * that read (it runs bare: see {@link #mayFailAfterChanging}), only the rollback of the whole
 * transaction undoes the step, and the transaction ends as a failed rollback says: rolled back
 * when verified, else unknown, the writer poisoned.
 *
 * <p>While corked, the transaction is a savepoint inside the cork's outer transaction, and its
 * commit releases the savepoint into the cork.
 *
 * <h2>Concurrency</h2>
 * Made per turn by the lane's holder, with what its steps need; it reaches no lane. Which
 * transaction pins the lane, and each transaction's state and idle check, are {@link
 * LaneState}'s, changed under its lock ({@link LaneState#pin}, {@link LaneState#unpin}), so that
 * admitting a step and ending the transaction cannot interleave. The holder notes the step
 * running on the transaction ({@code running}, turn only), so that its end names the step it
 * ended in. The idle check runs on the timer: it only queues an {@link Expire} step (and
 * schedules the lane), which the holder then runs.
 */
final class PinnedTransaction {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    private final String name;
    private final LaneState state;
    private final LaneTransaction transaction;
    private final Cork cork;
    private final SharedCommit shared;
    private final WriteTelemetry telemetry;
    private final Clock clock;
    private final Timer timer;
    private final TransactionStateListeners listeners;
    /** Takes the steps that end with the transaction, for delivery after the turn. */
    private final Consumer<WriteRequest> afterTurn;

    PinnedTransaction(String name, LaneState state, LaneTransaction transaction, Cork cork,
            SharedCommit shared, WriteTelemetry telemetry, Clock clock, Timer timer,
            TransactionStateListeners listeners, Consumer<WriteRequest> afterTurn) {
        this.name = name;
        this.state = state;
        this.transaction = transaction;
        this.cork = cork;
        this.shared = shared;
        this.telemetry = telemetry;
        this.clock = clock;
        this.timer = timer;
        this.listeners = listeners;
        this.afterTurn = afterTurn;
    }

    /**
     * Runs {@code BEGIN IMMEDIATE} and pins the lane; corked, or joining a shared commit's open
     * transaction, a savepoint.
     */
    void begin(TransactionBegin r, WriterConnection c, CommitObserver observer) {
        InteractiveTransaction tx = r.tx;
        if (cork.corked() || shared.open()) {
            if (cork.corked() && !cork.outerOpen()) {
                if (!transaction.begin(c, List.of(r))) {
                    return;
                }
                cork.outerOpened();
            }
            try {
                c.beginNested();
            } catch (SQLException e) {
                r.stages.fail(new WriteFailedException(WriteOutcome.NOT_STARTED, name
                        + ": SAVEPOINT for the transaction failed (" + e.getMessage() + ")", e));
                return;
            }
            tx.grouped = !cork.corked();
        } else {
            c.trackTables(observer.tracksTables());
            if (!transaction.begin(c, List.of(r))
                    || !transaction.aboveFloor(c, List.of(r), true)) {
                return;
            }
        }
        long now = clock.nanoTime();
        tx.openedAtNanos = now;
        tx.lastActivityNanos = now;
        state.pin(tx);
        listeners.changed(true);
        r.stages.succeed(tx);
    }

    /** Runs one step of the pinned transaction. */
    void step(TransactionStep r, WriterConnection c, CommitObserver observer) {
        InteractiveTransaction tx = r.tx;
        tx.running = r;
        if (state.pinned() != tx) {
            r.stages.fail(tx.notOpen());
            return;
        }
        if (r instanceof Expire) {
            expire(tx, c);
            r.stages.succeed(null);
        } else if (r instanceof Rollback) {
            rollBack(tx, c, ((Rollback) r).reason);
            if (tx.state == State.UNKNOWN) {
                r.stages.fail(tx.notOpen());
            } else {
                r.stages.succeed(null);
            }
        } else if (r instanceof Commit) {
            commit(tx, r, c, observer);
        } else {
            runStatement(tx, r, c);
        }
    }

    private void expire(InteractiveTransaction tx, WriterConnection c) {
        long idle = clock.nanoTime() - tx.lastActivityNanos;
        if (idle >= tx.idleTimeout.toNanos()) {
            log.warn("{}: rolling back an interactive transaction idle for {} ms "
                    + "(transactionIdleTimeout {} ms)", name,
                    TimeUnit.NANOSECONDS.toMillis(idle),
                    tx.idleTimeout.toMillis());
            rollBack(tx, c, "it sat idle for more than " + tx.idleTimeout.toMillis() + " ms");
        }
    }

    /**
     * A statement or body of the transaction. A step that can fail after SQLite changed rows
     * runs inside its own savepoint (see {@link #mayFailAfterChanging}), so that its failure
     * leaves the transaction as it was before the step, as a failure of SQLite's own does.
     */
    private void runStatement(InteractiveTransaction tx, TransactionStep r, WriterConnection c) {
        StepDeadline deadline = r instanceof Execute
                ? StepDeadline.arm(c, ((Execute) r).timeoutNanos, timer) : null;
        LaneTransaction.Isolated run = transaction.runMember(c, r, mayFailAfterChanging(r),
                () -> run(r, c));
        Throwable failure = run.failure();
        if (deadline != null && deadline.disarm() && failure != null) {
            failure = deadline.exceeded(failure);
            tx.log.forget(); // run again without its deadline, it might not end
        }
        SQLException step = run.stepFailure();
        if (run.how() != LaneTransaction.Isolation.SAVEPOINT_FAILED) {
            tx.lastActivityNanos = clock.nanoTime();
            tx.statements++;
        }
        switch (run.how()) {
            case DONE:
                tx.log.done(r, run.value());
                r.stages.succeed(run.value());
                break;
            case ENDED:
                endedInside(tx, r, c, failure, run.watch());
                break;
            case SAVEPOINT_FAILED:
                tx.log.forget();
                r.stages.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name
                        + ": SAVEPOINT failed (" + step.getMessage() + "); the transaction stays "
                        + "open", step));
                break;
            case RELEASE_FAILED:
                r.stages.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name + ": RELEASE "
                        + "failed (" + step.getMessage() + ")", step));
                rollBack(tx, c, "RELEASE failed: " + step.getMessage());
                break;
            case UNDO_FAILED:
                LanesException f = rolledBackWhole(tx, r, c, "ROLLBACK TO failed: "
                        + step.getMessage(), failure);
                f.addSuppressed(step);
                r.stages.fail(f);
                break;
            case FAILED_BARE:
                if (failure instanceof Statements.ChangedThenFailed) {
                    // A key-reading insert ran bare and its row stays: only the whole rollback
                    // undoes it.
                    r.stages.fail(rolledBackWhole(tx, r, c, "an insert's generated key could "
                            + "not be read: " + failure.getMessage(), failure));
                    break;
                }
                // The statement undid itself; the transaction stays open.
                tx.log.failed(r);
                r.stages.fail(transaction.failure(r, WriteOutcome.ROLLED_BACK, failure));
                break;
            case UNDONE:
            default:
                // Its savepoint undid it; the transaction stays open.
                tx.log.failed(r);
                r.stages.fail(transaction.failure(r, WriteOutcome.ROLLED_BACK, failure));
                break;
        }
    }

    /**
     * Whether {@code r} can fail after SQLite already changed rows, when only a savepoint undoes
     * it: a body; a write that returns rows ({@code RETURNING} makes every change in its first
     * step, and its rows may then outgrow {@code maxResultBytes}, which a user's data can make
     * happen). Any other statement that fails was undone by SQLite's statement journal, so reads
     * and plain writes run bare and pay nothing.
     *
     * <p>An insert whose generated key is read after it runs bare too, although the key read
     * can fail after the row went in ({@link Statements.ChangedThenFailed}): that read is {@code
     * last_insert_rowid()}, which fails only on a fault, while a savepoint around every such
     * insert (every Hibernate or {@code KeyHolder} insert in a transaction) costs about 3 µs on a
     * 6 µs insert here, and two round trips on a cluster. So that rare failure rolls the whole
     * transaction back instead: an honest outcome, though not SQLite's statement-level one.
     */
    static boolean mayFailAfterChanging(TransactionStep r) {
        if (r instanceof Execute) {
            Execute e = (Execute) r;
            return e.returns == Returns.ROWS && e.shape.returningWrite();
        }
        if (r instanceof Query) {
            return ((Query) r).shape.returningWrite();
        }
        return r instanceof Run;
    }

    static Object run(TransactionStep r, WriterConnection c) throws Exception {
        if (r instanceof Execute) {
            Execute e = (Execute) r;
            return c.execute(e.shape, e.args, e.returns);
        }
        if (r instanceof WriteRequest.Savepoint) {
            c.savepointStatement(((WriteRequest.Savepoint) r).sql());
            return null;
        }
        if (r instanceof Query) {
            Query q = (Query) r;
            return c.query(q.shape.sql(), q.args);
        }
        return c.runGuarded(((Run) r).body, true, null);
    }

    /** The transaction ended inside a statement: it is over, rolled back or unknown. */
    private void endedInside(InteractiveTransaction tx, TransactionStep r, WriterConnection c,
            Throwable failure, LaneConnection.Watch watch) {
        boolean clean = c.rollbackVerified();
        cork.lost("a statement of an interactive transaction ended it: " + failure);
        boolean partial = watch.committed() || !clean;
        shared.lost(partial ? WriteOutcome.UNKNOWN : WriteOutcome.ROLLED_BACK, "a statement of "
                + "a transaction committing with it ended the shared transaction before its "
                + "COMMIT (" + failure + ")", c);
        end(tx, partial ? State.UNKNOWN : State.ROLLED_BACK, "a statement ended it: " + failure);
        Throwable cause = failure != null ? failure : new IllegalStateException("the body "
                + "returned normally although the transaction ended inside it (it swallowed an "
                + "error)");
        r.stages.fail(transaction.failure(r,
                partial ? WriteOutcome.UNKNOWN : WriteOutcome.ROLLED_BACK, cause));
        if (!clean) {
            transaction.poison("an interactive transaction ended inside a statement "
                    + "and the connection's state could not be verified");
        }
    }

    /**
     * Only the rollback of the whole transaction undoes the failed step {@code r}: rolls it back,
     * and returns the step's failure, whose outcome is the transaction's (unknown when the
     * rollback could not be verified).
     */
    private LanesException rolledBackWhole(InteractiveTransaction tx, TransactionStep r,
            WriterConnection c, String reason, Throwable failure) {
        rollBack(tx, c, reason);
        return transaction.failure(r, tx.state == State.UNKNOWN ? WriteOutcome.UNKNOWN
                : WriteOutcome.ROLLED_BACK, failure);
    }

    private void commit(InteractiveTransaction tx, TransactionStep r, WriterConnection c,
            CommitObserver observer) {
        if (cork.corked()) {
            commitIntoCork(tx, r, c);
            return;
        }
        if (tx.grouped && !released(tx, r, c)) {
            return;
        }
        long now = clock.nanoTime();
        if (shared.defers(now)) {
            shared.defer(tx, r, now);
            end(tx, State.COMMITTING, "it waits for the COMMIT it shares with the transactions "
                    + "after it");
            return;
        }
        LaneTransaction.CommitResult result = shared.open() ? shared.commit(c, 1, observer)
                : transaction.commit(c, "the COMMIT of an interactive transaction",
                new LaneTransaction.Committed(1, tx.openedAtNanos, observer));
        if (!result.committed()) {
            boolean clean = result.outcome() == WriteOutcome.ROLLED_BACK;
            end(tx, clean ? State.ROLLED_BACK : State.UNKNOWN, result.what());
            r.stages.fail(new WriteFailedException(result.outcome(), name + ": " + result.what()
                    + (clean ? "; the transaction was rolled back"
                    : "; whether it persisted is unknown"), result.failure()));
            return;
        }
        end(tx, State.COMMITTED, "committed");
        r.stages.succeed(null);
    }

    private void commitIntoCork(InteractiveTransaction tx, TransactionStep r, WriterConnection c) {
        if (released(tx, r, c)) {
            end(tx, State.COMMITTED, "committed into the cork");
            telemetry.counters.increment(WriterCounters.COMMITTED);
            r.stages.succeed(null);
        }
    }

    /**
     * Releases the savepoint of {@code tx} into the transaction around it (the cork's, a shared
     * commit's); when that fails, rolls {@code tx} back and fails {@code r}.
     *
     * @return whether it was released
     */
    private boolean released(InteractiveTransaction tx, TransactionStep r, WriterConnection c) {
        try {
            c.releaseNested();
            return true;
        } catch (SQLException e) {
            rollBack(tx, c, "RELEASE failed: " + e.getMessage());
            r.stages.fail(new WriteFailedException(tx.state == State.UNKNOWN ? WriteOutcome.UNKNOWN
                    : WriteOutcome.ROLLED_BACK, name + ": committing the transaction into the "
                    + (tx.grouped ? "shared commit" : "cork") + " failed (" + e.getMessage()
                    + ")", e));
            return false;
        }
    }

    /**
     * Rolls the pinned transaction back, verified, and unpins the lane; corked or grouped, its
     * savepoint only, unless undoing that fails.
     */
    private void rollBack(InteractiveTransaction tx, WriterConnection connection, String reason) {
        boolean clean;
        if ((cork.corked() && cork.outerOpen()) || tx.grouped) {
            try {
                connection.rollBackNested();
                clean = true;
            } catch (SQLException e) {
                clean = connection.rollbackVerified();
                String lost = "rolling back an interactive transaction failed: " + e.getMessage();
                cork.lost(lost);
                shared.lost(clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN, "undoing "
                        + "a transaction committing with it failed, which ended the shared "
                        + "transaction before its COMMIT (" + e.getMessage() + ")", connection);
            }
        } else {
            clean = connection.rollbackVerified();
        }
        end(tx, clean ? State.ROLLED_BACK : State.UNKNOWN, reason);
        if (!clean) {
            transaction.poison("the rollback of an interactive transaction could not be "
                    + "verified");
        }
    }

    /** Ends the pinned transaction and unpins the lane; its queued steps end with it. */
    private void end(InteractiveTransaction tx, State end, String reason) {
        List<TransactionStep> ended = state.unpin(tx, end, reason);
        if (ended == null) {
            return;
        }
        ended.forEach(afterTurn);
        listeners.changed(false);
    }
}
