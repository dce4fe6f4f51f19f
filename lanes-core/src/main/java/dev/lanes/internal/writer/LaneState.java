package dev.lanes.internal.writer;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.lanes.DatabaseState;
import dev.lanes.LanesException;
import dev.lanes.internal.scheduler.SerialTask;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.writer.InteractiveTransaction.State;
import dev.lanes.internal.writer.LaneDecision.Admitted;
import dev.lanes.internal.writer.LaneDecision.Closing;
import dev.lanes.internal.writer.LaneDecision.CorkPhase;
import dev.lanes.internal.writer.LaneDecision.Failed;
import dev.lanes.internal.writer.LaneDecision.Next;
import dev.lanes.internal.writer.LaneDecision.Taken;
import dev.lanes.internal.writer.LaneDecision.View;
import dev.lanes.internal.writer.LaneDecision.Withdrawn;
import dev.lanes.internal.writer.WriteRequest.Close;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Everything of one writer lane that its lock guards, and the lock itself, which never leaves
 * this class: the run state ({@link SerialTask}), the {@link WriteQueue}, the lifecycle and the
 * poison, the pinned interactive transaction, and the cork's phase.
 *
 * <h2>Concurrency</h2>
 * Every method takes {@link #lock} itself, changes the state in one hold, and returns a small
 * decision (lead, queued, schedule; the next turn's holder; idle) that the lane acts on once the
 * lock is released: no SQL, no caller's callback and no delivery runs under it. Fields marked
 * {@code @GuardedBy("lock")} and the private helpers that touch them are checked by ErrorProne's
 * {@code GuardedBy} check at build time and by {@link #assertHeld()} in tests. Five fields are
 * written only under the lock but volatile, so that gauges and fast paths read them without it:
 * {@link #lifecycle}, {@link #poisonCause}, {@link #deadCause}, {@link #pinned} and {@link
 * #cork}. An {@link InteractiveTransaction}'s state ({@code state}, {@code endReason}, {@code
 * idleCheck}, {@code endedBy}) is written only here, under the lock.
 *
 * <h2>Turns</h2>
 * Exactly one thread, the holder, runs a turn: the caller that found the lane idle ({@link
 * Admitted#LEAD}), a pool thread ({@link #started()}), or the blocked caller a turn was handed to
 * ({@link #finishTurn}). Only the party that moves the run state out of {@code IDLE} submits the
 * lane to the pool, and only once the lock is released; the hand-offs of the lock order one
 * holder's writes before the next one's reads.
 */
final class LaneState {
    private final ReentrantLock lock = new ReentrantLock();
    private final LaneSetup setup; // the lane's name, options, clock and timer
    private final WorkerPool.Task task; // what is submitted to the pool to run a turn: the lane

    @GuardedBy("lock")
    private final SerialTask run = new SerialTask();
    @GuardedBy("lock")
    private final WriteQueue queue;
    @GuardedBy("lock")
    private boolean openRequested;
    @GuardedBy("lock")
    private boolean uncorkRequested;
    @GuardedBy("lock")
    private boolean sharedCommit; // a SharedCommit's members wait: the lane must not go idle
    // written under the lock, read anywhere
    private volatile DatabaseState lifecycle = DatabaseState.RUNNING;
    private volatile String poisonCause;
    private volatile Throwable deadCause;
    private volatile InteractiveTransaction pinned;
    private volatile CorkPhase cork = CorkPhase.OFF;

    LaneState(LaneSetup setup, WorkerPool.Task task) {
        this.setup = setup;
        this.task = task;
        this.queue = new WriteQueue(setup.options());
    }

    /** Asserts that the calling thread holds the lock (tests run with assertions on). */
    private void assertHeld() {
        assert lock.isHeldByCurrentThread() : "the lane's lock is not held";
    }

    /** Puts the lane in the pool's queues; only after a decision said so, unlocked. */
    void submit() {
        setup.pool().submit(task);
    }

    /**
     * Admits {@code r}: refuses what may not wait (throws, nothing queued), waits for room, and
     * decides whether the caller leads or queues. What each refusal says is {@link LaneRefusals}'.
     *
     * @param mayLead whether the caller may run the turn itself
     * @param waits whether the caller will block on the outcome
     */
    Admitted admit(WriteRequest r, boolean mayLead, boolean waits) {
        lock.lock();
        try {
            boolean byHolder = run.heldByCurrentThread();
            if (waits && byHolder) {
                throw LaneRefusals.waitInItsOwnBody(setup.name());
            }
            r.ticket.queuedInTurn = byHolder ? run.turn() : 0;
            checkAdmission();
            InteractiveTransaction tx = pinned;
            if (waits && tx != null && tx.owner == Thread.currentThread()) {
                throw LaneRefusals.waitForItsOwnTransaction(setup.name());
            }
            awaitRoom(r);
            r.stages.depthAtEntry = queue.queuedWrites();
            if (mayLead && queue.mayLead() && pinned == null && run.claim()) {
                return Admitted.LEAD;
            }
            queue.add(r);
            return pinned == null && run.schedule() ? Admitted.SCHEDULE : Admitted.QUEUED;
        } finally {
            lock.unlock();
        }
    }

    /** Admits one step of the pinned interactive transaction; it runs ahead of the queue. */
    Admitted admitStep(TransactionStep r, boolean mayLead) {
        lock.lock();
        try {
            if (run.heldByCurrentThread()) {
                throw LaneRefusals.stepFromItsOwnBody(setup.name());
            }
            if (pinned != r.tx || r.tx.state != State.OPEN) {
                throw r.tx.notOpen();
            }
            if (mayLead && queue.stepsEmpty() && run.claim()) {
                return Admitted.LEAD;
            }
            queue.addStep(r);
            return run.schedule() ? Admitted.SCHEDULE : Admitted.QUEUED;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses new work unless the lane runs and is not poisoned; reads volatiles only. */
    private void checkAdmission() {
        if (lifecycle != DatabaseState.RUNNING) {
            throw LaneRefusals.notRunning(setup.name(), lifecycle, deadCause);
        }
        if (poisonCause != null) {
            throw LaneRefusals.poisoned(setup.name(), poisonCause);
        }
    }

    /**
     * Returns with room for {@code r}, waiting at most its enqueue timeout, else the database's
     * {@code writeQueueTimeout}, or throws; 0 refuses a full queue at once.
     */
    @GuardedBy("lock")
    private void awaitRoom(WriteRequest r) {
        assertHeld();
        long timeout = r.options.enqueueTimeout().orElse(setup.options().writeQueueTimeout())
                .toNanos();
        if (!queue.full() && (!queue.hasWaiters() || timeout == 0)) {
            return;
        } else if (timeout == 0) {
            throw LaneRefusals.queueFull(setup.name(), queue.size(), queue.runningGroupSize());
        }
        try {
            if (!queue.awaitRoom(lock, setup.clock(), timeout, this::checkAdmission)) {
                throw LaneRefusals.queueStayedFull(setup.name(), timeout, queue.size(),
                        queue.capacity());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LaneRefusals.interrupted(setup.name(), e);
        }
    }

    /**
     * Takes {@code r} out of the queue unrun, if still there, for {@code why}: {@code HOLDER_WAITS}
     * on the holder only (never null then), {@code BODY_PARKED} while its turn runs; else null.
     */
    Withdrawn withdraw(WriteRequest r, LaneDecision.Withdrawal why) {
        lock.lock();
        try {
            if (why == LaneDecision.Withdrawal.HOLDER_WAITS ? !run.heldByCurrentThread()
                    : why == LaneDecision.Withdrawal.BODY_PARKED && !run.running(r.ticket.queuedInTurn)) {
                return null;
            }
            boolean out = !r.ticket.leadGranted && queue.withdraw(r);
            if (out) {
                queue.signalRoom();
            }
            return out || why == LaneDecision.Withdrawal.HOLDER_WAITS ? new Withdrawn(out,
                    queue.queuedWrites(), pinned != null) : null;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the connection must be opened for {@code awaitReady}: asked once, while running. */
    boolean requestOpen() {
        lock.lock();
        try {
            boolean request = !openRequested && lifecycle == DatabaseState.RUNNING;
            openRequested = true;
            return request;
        } finally {
            lock.unlock();
        }
    }

    /** A pool thread starts the turn of the scheduled lane. */
    void started() {
        lock.lock();
        try {
            run.started();
        } finally {
            lock.unlock();
        }
    }

    /** The next turn's work: {@code first} and the writes that follow it, a step, or the head. */
    Taken takeTurn(WriteRequest first) {
        lock.lock();
        try {
            assert run.heldByCurrentThread() : "a turn taken by a thread that does not hold it";
            List<WriteRequest> group = queue.takeGroup(first, pinned != null);
            queue.signalRoom();
            return new Taken(group, queue.takeDropped());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Releases the lane after a turn: keeps it for the pinned transaction (arming its idle check),
     * hands it to the blocked caller at the head, submits it when work waits, or leaves it idle.
     */
    Next finishTurn() {
        lock.lock();
        try {
            queue.turnEnded();
            InteractiveTransaction tx = pinned;
            WriteRequest head = queue.head();
            if (tx != null) {
                boolean schedule = run.finish(!queue.stepsEmpty());
                if (!schedule && tx.idleCheck == null) {
                    arm(tx, tx.idleTimeout.toNanos()
                            - (setup.clock().nanoTime() - tx.lastActivityNanos));
                }
                return schedule ? Next.SCHEDULE : Next.IDLE;
            }
            if (head != null && head.ticket.waiter != null) {
                run.handTo(head.ticket.waiter);
                head.ticket.leadGranted = true;
                return new Next(false, head);
            }
            return run.finish(head != null || sharedCommit) ? Next.SCHEDULE : Next.IDLE;
        } finally {
            lock.unlock();
        }
    }

    /** Claims the lane for the caller's turn if {@link #idle}; it ends with {@link #finishTurn}. */
    boolean claimIfIdle() {
        lock.lock();
        try {
            return idle() && run.claim();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the lane is idle now: a racy hint that never blocks (false while locked). */
    boolean idleHint() {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return idle();
        } finally {
            lock.unlock();
        }
    }

    /** Nothing queued or running, no transaction, group or cork holding it, still running. */
    @GuardedBy("lock")
    private boolean idle() {
        assertHeld();
        return run.isIdle() && queue.isEmpty() && pinned == null && cork == CorkPhase.OFF
                && !sharedCommit && lifecycle == DatabaseState.RUNNING;
    }

    DatabaseState lifecycle() {
        return lifecycle;
    }

    String poisonCause() {
        return poisonCause;
    }

    Throwable deadCause() {
        return deadCause;
    }

    /** Poisons the lane (first cause kept): the pinned transaction ends UNKNOWN, queue fails. */
    Failed poison(String cause) {
        lock.lock();
        try {
            if (poisonCause == null) {
                poisonCause = cause;
            }
            List<WriteRequest> failed = new ArrayList<>();
            InteractiveTransaction tx = pinned;
            if (tx != null) {
                failed.addAll(unpinLocked(tx, State.UNKNOWN, "the writer was poisoned: " + cause));
            }
            failed.addAll(failQueued(q -> LaneRefusals.poisonedBeforeItRan(setup.name(), cause)));
            return new Failed(failed, tx != null);
        } finally {
            lock.unlock();
        }
    }

    /** The connection cannot be opened: the lane is dead, and what is queued fails. */
    List<WriteRequest> markDead(Throwable cause) {
        lock.lock();
        try {
            if (lifecycle == DatabaseState.RUNNING) {
                lifecycle = DatabaseState.DEAD;
            }
            deadCause = cause;
            return failQueued(q -> LaneRefusals.cannotOpen(setup.name(), cause));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops admission and queues the close marker behind all accepted work ({@code drain}), or
     * after failing the queued work and queuing the pinned transaction's rollback. Idempotent.
     */
    Closing beginClose(boolean drain, long now) {
        lock.lock();
        try {
            List<WriteRequest> refused = List.of();
            boolean schedule = false;
            if (!drain) {
                refused = failQueued(r -> LaneRefusals.shutDownBeforeItRan(setup.name()));
                schedule = rollBackOnShutdown(now) && run.schedule();
            }
            if (lifecycle == DatabaseState.RUNNING || lifecycle == DatabaseState.DEAD) {
                lifecycle = DatabaseState.CLOSING;
                queue.add(new Close(!drain, now));
                schedule |= run.schedule();
            }
            queue.signalAllWaiters();
            return new Closing(refused, schedule);
        } finally {
            lock.unlock();
        }
    }

    /** The connection closed: the lane's last act. */
    void closed() {
        lock.lock();
        try {
            lifecycle = DatabaseState.CLOSED;
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private List<WriteRequest> failQueued(
            java.util.function.Function<WriteRequest, LanesException> failure) {
        assertHeld();
        List<WriteRequest> failed = queue.failQueued(failure);
        queue.signalAllWaiters();
        return failed;
    }

    /** The pinned transaction, or null; without the lock. */
    InteractiveTransaction pinned() {
        return pinned;
    }

    /** Pins the lane to {@code tx}, which is open from now on. */
    void pin(InteractiveTransaction tx) {
        lock.lock();
        try {
            pinned = tx;
            tx.state = State.OPEN;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends {@code tx} and unpins the lane, if it still pins it; its queued steps end with it.
     *
     * @return the steps ended, to deliver after the turn; null when {@code tx} was not pinned
     */
    List<TransactionStep> unpin(InteractiveTransaction tx, State end, String reason) {
        lock.lock();
        try {
            return pinned == tx ? unpinLocked(tx, end, reason) : null;
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private List<TransactionStep> unpinLocked(InteractiveTransaction tx, State end,
            String reason) {
        assertHeld();
        tx.endReason = reason;
        tx.state = end;
        TransactionStep running = tx.running;
        tx.endedBy = running != null && running.tx == tx ? running : null;
        pinned = null;
        if (tx.idleCheck != null) {
            tx.idleCheck.cancel();
            tx.idleCheck = null;
        }
        List<TransactionStep> steps = queue.takeSteps();
        for (TransactionStep step : steps) {
            if (step.ends()) {
                step.stages.succeed(null); // asked to end, and it has
            } else {
                step.stages.fail(tx.notOpen());
            }
        }
        return steps;
    }

    /** Whether a transaction's begin is the queue's next work. Holder only. */
    boolean beginWaits() {
        lock.lock();
        try {
            return queue.head() instanceof WriteRequest.TransactionBegin;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether members of a {@link SharedCommit} wait for its COMMIT; {@code settled} (or null)
     * ended, unpinned while they waited, as {@code end} says. Holder only.
     */
    void sharedCommit(boolean waiting, List<InteractiveTransaction> settled, State end,
            String reason) {
        lock.lock();
        try {
            sharedCommit = waiting;
            for (int i = 0; settled != null && i < settled.size(); i++) {
                settled.get(i).endReason = reason;
                settled.get(i).state = end;
            }
        } finally {
            lock.unlock();
        }
    }

    /** A shutdown rolls the pinned transaction back as its next step; whether it was queued. */
    @GuardedBy("lock")
    private boolean rollBackOnShutdown(long now) {
        assertHeld();
        InteractiveTransaction tx = pinned;
        if (tx == null || queue.hasStep(WriteRequest.Rollback.class)) {
            return false;
        }
        queue.addStep(new WriteRequest.Rollback(tx, "the database was shut down", now));
        return true;
    }

    /**
     * Arms the idle check of {@code tx} to fire in {@code dueNanos}; it re-arms itself for what
     * is left after the latest activity, so a step does not move it (a timer task per step cost).
     */
    @GuardedBy("lock")
    private void arm(InteractiveTransaction tx, long dueNanos) {
        assertHeld();
        try {
            tx.idleCheck = setup.timer().schedule(() -> expireIfIdle(tx), dueNanos);
        } catch (RejectedExecutionException e) {
            tx.idleCheck = null; // the runtime is shutting down; its close ends the transaction
        }
    }

    /**
     * On the timer: queues the expiry step (submitting an idle lane) when the transaction is still
     * pinned, idle for its whole timeout, and has no step queued; else arms the check for the rest.
     */
    private void expireIfIdle(InteractiveTransaction tx) {
        boolean submit;
        lock.lock();
        try {
            if (pinned != tx) {
                return;
            }
            tx.idleCheck = null;
            if (!queue.stepsEmpty()) {
                return;
            }
            long now = setup.clock().nanoTime();
            long left = tx.idleTimeout.toNanos() - (now - tx.lastActivityNanos);
            if (left > 0) {
                arm(tx, left);
                return;
            }
            queue.addStep(new WriteRequest.Expire(tx, now));
            submit = run.schedule();
        } finally {
            lock.unlock();
        }
        if (submit) {
            submit();
        }
    }

    /** Whether writes are held by a cork (open or broken); without the lock. */
    boolean corked() {
        CorkPhase p = cork;
        return p == CorkPhase.OPEN || p == CorkPhase.BROKEN;
    }

    CorkPhase corkPhase() {
        return cork;
    }

    /** Refuses a second cork (and a cork the lane does not admit), else asks for this one. */
    void admitCork() {
        lock.lock();
        try {
            checkAdmission();
            if (cork != CorkPhase.OFF) {
                throw LaneRefusals.uncork(setup.name(), "already corked; uncork first");
            }
            cork = CorkPhase.REQUESTED;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses an uncork that cannot run now, else notes it (once per cork); while a transaction
     * pins the lane it is queued first, to run when that ends: then returns true, and nobody waits.
     */
    boolean admitUncork(WriteRequest uncork) {
        lock.lock();
        try {
            boolean transactionPinned = pinned != null;
            String refused = LaneRefusals.uncorkRefusal(cork, uncorkRequested, transactionPinned);
            if (refused != null) {
                throw LaneRefusals.uncork(setup.name(), refused);
            }
            uncorkRequested = true;
            if (transactionPinned) {
                queue.addFirst(uncork);
            }
            return transactionPinned;
        } finally {
            lock.unlock();
        }
    }

    /** Moves the cork to {@code next}; {@code OFF} also forgets a requested uncork. */
    void cork(CorkPhase next) {
        lock.lock();
        try {
            cork = next;
            if (next == CorkPhase.OFF) {
                uncorkRequested = false;
            }
        } finally {
            lock.unlock();
        }
    }

    /** An uncork refused at admission may be asked for again. */
    void uncorkRefused() {
        lock.lock();
        try {
            uncorkRequested = false;
        } finally {
            lock.unlock();
        }
    }

    /** Writes waiting in the queue now, without the lock (a gauge: the queue's volatile mirror). */
    @SuppressWarnings("GuardedBy")
    int queueDepth() {
        return queue.depth();
    }

    View view() {
        lock.lock();
        try {
            return new View(lifecycle, poisonCause, deadCause, queue.queuedWrites(), pinned,
                    corked());
        } finally {
            lock.unlock();
        }
    }
}
