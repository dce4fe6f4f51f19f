package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.writer.InteractiveTransaction.State;
import dev.lanes.internal.writer.WriteRequest.Commit;
import dev.lanes.internal.writer.WriteRequest.Execute;
import dev.lanes.internal.writer.WriteRequest.Expire;
import dev.lanes.internal.writer.WriteRequest.Query;
import dev.lanes.internal.writer.WriteRequest.Returns;
import dev.lanes.internal.writer.WriteRequest.Rollback;
import dev.lanes.internal.writer.WriteRequest.Run;
import dev.lanes.internal.writer.WriteRequest.TransactionBegin;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.sql.SQLException;
import java.util.concurrent.RejectedExecutionException;
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
 * {@link #pinned}, and each transaction's state and idle check, are guarded by the lane's lock,
 * so that admitting a step and ending the transaction cannot interleave; {@code pinned} is
 * volatile too, so that a gauge asks whether a transaction is open, and a caller whether its
 * thread holds it ({@link #heldBy}), without the lock. Steps run on the lane's holder, which
 * notes the step running in {@link #running} (turn only), so that the transaction's end names
 * the step it ended in. The idle check runs on the timer: it only queues an {@link Expire} step
 * (and schedules the lane), which the holder then runs.
 */
final class PinnedTransaction {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    /**
     * The lane: the parts this one works with are the lane's (one reference here, not one per
     * part, as a database keeps this object while idle), and it schedules and submits the lane
     * and collects requests to deliver after the turn.
     */
    private final WriterLane lane;
    // guarded by laneLock (written); volatile, read anywhere
    private volatile InteractiveTransaction pinned;
    // turn only: the step running now, or the last one that ran
    private TransactionStep running;

    PinnedTransaction(WriterLane lane) {
        this.lane = lane;
    }

    /** Guarded by the lane's lock: the pinned transaction, or null. */
    InteractiveTransaction pinned() {
        return pinned;
    }

    /** The pinned transaction if {@code thread} began it, else null; without the lock. */
    InteractiveTransaction heldBy(Thread thread) {
        InteractiveTransaction tx = pinned;
        return tx != null && tx.owner == thread ? tx : null;
    }

    /** Whether a transaction pins the lane now; without the lock, for gauges. */
    boolean pinnedNow() {
        return pinned != null;
    }

    /** Runs {@code BEGIN IMMEDIATE} (or, corked, a savepoint) and pins the lane. */
    void begin(TransactionBegin r, WriterConnection c, CommitObserver observer) {
        InteractiveTransaction tx = r.tx;
        if (lane.cork().corked()) {
            if (!lane.cork().outerOpen()) {
                if (!lane.laneTransaction().begin(c, java.util.List.of(r))) {
                    return;
                }
                lane.cork().outerOpened();
            }
            try {
                c.beginNested();
            } catch (SQLException e) {
                r.fail(new WriteFailedException(WriteOutcome.NOT_STARTED, lane.name()
                        + ": SAVEPOINT for the transaction failed (" + e.getMessage() + ")", e));
                return;
            }
        } else {
            c.trackTables(observer.tracksTables());
            if (!lane.laneTransaction().begin(c, java.util.List.of(r))
                    || !lane.laneTransaction().aboveFloor(c, java.util.List.of(r), true)) {
                return;
            }
        }
        long now = lane.clock().nanoTime();
        tx.openedAtNanos = now;
        tx.lastActivityNanos = now;
        lane.laneLock().lock();
        try {
            pinned = tx;
            tx.state = State.OPEN;
        } finally {
            lane.laneLock().unlock();
        }
        lane.setup().transactionListeners().changed(true);
        r.succeed(tx);
    }

    /** Runs one step of the pinned transaction. */
    void step(TransactionStep r, WriterConnection c, CommitObserver observer) {
        InteractiveTransaction tx = r.tx;
        running = r;
        lane.laneLock().lock();
        try {
            if (pinned != tx) {
                r.fail(tx.notOpen());
                return;
            }
        } finally {
            lane.laneLock().unlock();
        }
        if (r instanceof Expire) {
            expire(tx, c);
            r.succeed(null);
        } else if (r instanceof Rollback) {
            rollBack(tx, c, ((Rollback) r).reason);
            if (tx.state == State.UNKNOWN) {
                r.fail(tx.notOpen());
            } else {
                r.succeed(null);
            }
        } else if (r instanceof Commit) {
            commit(tx, r, c, observer);
        } else {
            runStatement(tx, r, c);
        }
    }

    private void expire(InteractiveTransaction tx, WriterConnection c) {
        long idle = lane.clock().nanoTime() - tx.lastActivityNanos;
        if (idle >= tx.idleTimeout.toNanos()) {
            log.warn("{}: rolling back an interactive transaction idle for {} ms "
                    + "(transactionIdleTimeout {} ms)", lane.name(),
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
        boolean savepoint = mayFailAfterChanging(r);
        if (savepoint) {
            try {
                c.savepoint();
            } catch (SQLException e) {
                r.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, lane.name()
                        + ": SAVEPOINT failed (" + e.getMessage() + "); the transaction stays open",
                        e));
                return;
            }
        }
        LaneConnection.Watch watch = c.watch();
        WriteRequest.Ran once = r.runOnce(lane.clock(), () -> run(r, c));
        Object value = once.value();
        Throwable failure = once.failure();
        tx.lastActivityNanos = lane.clock().nanoTime();
        tx.statements++;
        if (watch.ended()) {
            endedInside(tx, r, c, failure, watch);
        } else if (failure == null) {
            if (savepoint && !released(tx, r, c)) {
                return;
            }
            r.succeed(value);
        } else if (savepoint && !rolledBackToSavepoint(tx, r, c, failure)) {
            return;
        } else if (failure instanceof Statements.ChangedThenFailed) {
            // A key-reading insert ran bare and its row stays: only the whole rollback undoes it.
            r.fail(rolledBackWhole(tx, r, c, "an insert's generated key could not be read: "
                    + failure.getMessage(), failure));
        } else {
            // The statement (or body) undid itself; the transaction stays open.
            r.fail(lane.laneTransaction().failure(r, WriteOutcome.ROLLED_BACK, failure));
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
    private static boolean mayFailAfterChanging(TransactionStep r) {
        if (r instanceof Execute) {
            Execute e = (Execute) r;
            return e.returns == Returns.ROWS && e.shape.returningWrite();
        }
        if (r instanceof Query) {
            return ((Query) r).shape.returningWrite();
        }
        return r instanceof Run;
    }

    private static Object run(TransactionStep r, WriterConnection c) throws Exception {
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
        lane.cork().lost("a statement of an interactive transaction ended it: " + failure);
        boolean partial = watch.committed() || !clean;
        end(tx, partial ? State.UNKNOWN : State.ROLLED_BACK, "a statement ended it: " + failure);
        Throwable cause = failure != null ? failure : new IllegalStateException("the body "
                + "returned normally although the transaction ended inside it (it swallowed an "
                + "error)");
        r.fail(lane.laneTransaction().failure(r,
                partial ? WriteOutcome.UNKNOWN : WriteOutcome.ROLLED_BACK, cause));
        if (!clean) {
            lane.laneTransaction().poison("an interactive transaction ended inside a statement "
                    + "and the connection's state could not be verified");
        }
    }

    private boolean released(InteractiveTransaction tx, TransactionStep r, WriterConnection c) {
        try {
            c.releaseSavepoint();
            return true;
        } catch (SQLException e) {
            r.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, lane.name()
                    + ": RELEASE failed (" + e.getMessage() + ")", e));
            rollBack(tx, c, "RELEASE failed: " + e.getMessage());
            return false;
        }
    }

    private boolean rolledBackToSavepoint(InteractiveTransaction tx, TransactionStep r,
            WriterConnection c, Throwable failure) {
        try {
            c.rollBackToSavepoint();
            return true;
        } catch (SQLException e) {
            LanesException f = rolledBackWhole(tx, r, c, "ROLLBACK TO failed: "
                    + e.getMessage(), failure);
            f.addSuppressed(e);
            r.fail(f);
            return false;
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
        return lane.laneTransaction().failure(r, tx.state == State.UNKNOWN ? WriteOutcome.UNKNOWN
                : WriteOutcome.ROLLED_BACK, failure);
    }

    private void commit(InteractiveTransaction tx, TransactionStep r, WriterConnection c,
            CommitObserver observer) {
        if (lane.cork().corked()) {
            commitIntoCork(tx, r, c);
            return;
        }
        String what = "the COMMIT of an interactive transaction";
        LaneTransaction.CommitResult result;
        try {
            result = lane.laneTransaction().commit(c, what);
        } catch (LaneConnection.CommitNotApplied e) {
            result = new LaneTransaction.CommitResult(0,
                    lane.laneTransaction().commitFailed(c, e, what), e,
                    "COMMIT failed (" + e.getMessage() + ")");
        }
        if (!result.committed()) {
            boolean clean = result.outcome() == WriteOutcome.ROLLED_BACK;
            end(tx, clean ? State.ROLLED_BACK : State.UNKNOWN, result.what());
            r.fail(new WriteFailedException(result.outcome(), lane.name() + ": " + result.what()
                    + (clean ? "; the transaction was rolled back"
                    : "; whether it persisted is unknown"), result.failure()));
            return;
        }
        long changed = result.changed();
        long age = tx.ageNanos();
        end(tx, State.COMMITTED, "committed");
        lane.telemetry().counters.increment(WriterCounters.COMMITTED);
        lane.telemetry().counters.increment(WriterCounters.GROUPS);
        lane.telemetry().groupCommitted(1, age);
        lane.laneTransaction().committed(c, changed, observer);
        r.succeed(null);
    }

    private void commitIntoCork(InteractiveTransaction tx, TransactionStep r, WriterConnection c) {
        try {
            c.releaseNested();
            end(tx, State.COMMITTED, "committed into the cork");
            lane.telemetry().counters.increment(WriterCounters.COMMITTED);
            r.succeed(null);
        } catch (SQLException e) {
            rollBack(tx, c, "RELEASE failed: " + e.getMessage());
            r.fail(new WriteFailedException(tx.state == State.UNKNOWN ? WriteOutcome.UNKNOWN
                    : WriteOutcome.ROLLED_BACK, lane.name()
                    + ": committing the transaction into the cork failed (" + e.getMessage() + ")",
                    e));
        }
    }

    /** Rolls the pinned transaction back, verified, and unpins the lane; corked, its savepoint. */
    private void rollBack(InteractiveTransaction tx, WriterConnection connection, String reason) {
        boolean clean;
        if (lane.cork().corked() && lane.cork().outerOpen()) {
            try {
                connection.rollBackNested();
                clean = true;
            } catch (SQLException e) {
                clean = connection.rollbackVerified();
                lane.cork().lost("rolling back an interactive transaction failed: "
                        + e.getMessage());
            }
        } else {
            clean = connection.rollbackVerified();
        }
        end(tx, clean ? State.ROLLED_BACK : State.UNKNOWN, reason);
        if (!clean) {
            lane.laneTransaction().poison("the rollback of an interactive transaction could not be "
                    + "verified");
        }
    }

    /** Ends the pinned transaction and unpins the lane; its queued steps end with it. */
    void end(InteractiveTransaction tx, State end, String reason) {
        lane.laneLock().lock();
        try {
            if (pinned != tx) {
                return;
            }
            endLocked(tx, end, reason);
        } finally {
            lane.laneLock().unlock();
        }
        lane.setup().transactionListeners().changed(false);
    }

    // guarded by laneLock
    private void endLocked(InteractiveTransaction tx, State end, String reason) {
        tx.endReason = reason;
        tx.state = end;
        tx.endedBy = running != null && running.tx == tx ? running : null;
        pinned = null;
        if (tx.idleCheck != null) {
            tx.idleCheck.cancel();
            tx.idleCheck = null;
        }
        for (TransactionStep step : lane.queue().takeSteps()) {
            if (step.ends()) {
                step.succeed(null); // asked to end, and it has
            } else {
                step.fail(tx.notOpen());
            }
            lane.deliverAfterTurn(step);
        }
    }

    /**
     * Guarded by the lane's lock: the writer was poisoned; the pinned transaction, if any, ends
     * {@code UNKNOWN} (its connection is closed with the lane, and SQLite rolls back on close).
     *
     * @return whether a transaction ended, so its listeners must be told
     */
    boolean endByPoison(String cause) {
        if (pinned == null) {
            return false;
        }
        endLocked(pinned, State.UNKNOWN, "the writer was poisoned: " + cause);
        return true;
    }

    /** Tells the listeners that a transaction ended; called after the lane's lock is released. */
    void ended() {
        lane.setup().transactionListeners().changed(false);
    }

    /**
     * Guarded by the lane's lock: a shutdown rolls the pinned transaction back as its next step.
     *
     * @return whether a rollback was queued now
     */
    boolean rollBackOnShutdown() {
        if (pinned == null || lane.queue().hasStep(Rollback.class)) {
            return false;
        }
        lane.queue().addStep(new Rollback(pinned, "the database was shut down",
                lane.clock().nanoTime()));
        return true;
    }

    /**
     * Guarded by the lane's lock: checks the transaction once its idle timeout has passed. One
     * check is armed at a time and a step does not move it: the check, when it fires, arms itself
     * again for what is left of the timeout after the latest activity. (Cancelling and scheduling
     * a timer task after every step cost a tenth of a short transaction's CPU.)
     */
    void armIdleCheck() {
        InteractiveTransaction tx = pinned;
        if (tx.idleCheck == null) {
            arm(tx, tx.idleTimeout.toNanos() - (lane.clock().nanoTime() - tx.lastActivityNanos));
        }
    }

    // guarded by laneLock
    private void arm(InteractiveTransaction tx, long dueNanos) {
        try {
            tx.idleCheck = lane.setup().timer().schedule(() -> expireIfIdle(tx), dueNanos);
        } catch (RejectedExecutionException e) {
            tx.idleCheck = null; // the runtime is shutting down; its close ends the transaction
        }
    }

    /**
     * On the timer: queues the expiry step when the transaction is still pinned and idle for its
     * whole timeout; arms the check again for the rest of the timeout when it was active since.
     * While steps are queued the lane is busy with it, and the end of that turn arms a new check.
     */
    private void expireIfIdle(InteractiveTransaction tx) {
        boolean submit;
        lane.laneLock().lock();
        try {
            if (pinned != tx) {
                return;
            }
            tx.idleCheck = null;
            if (!lane.queue().stepsEmpty()) {
                return;
            }
            long left = tx.idleTimeout.toNanos() - (lane.clock().nanoTime() - tx.lastActivityNanos);
            if (left > 0) {
                arm(tx, left);
                return;
            }
            lane.queue().addStep(new Expire(tx, lane.clock().nanoTime()));
            submit = lane.scheduleIfIdle();
        } finally {
            lane.laneLock().unlock();
        }
        if (submit) {
            lane.submitSelf();
        }
    }
}
