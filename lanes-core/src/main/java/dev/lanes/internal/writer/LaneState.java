package dev.lanes.internal.writer;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.QueueFullException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.scheduler.SerialTask;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.writer.InteractiveTransaction.State;
import dev.lanes.internal.writer.WriteRequest.Close;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
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
 * {@code GuardedBy} check at build time and by {@link #assertHeld()} in tests. Four fields are
 * written only under the lock but volatile, so that gauges and fast paths read them without it:
 * {@link #lifecycle}, {@link #poisonCause}, {@link #pinned} and {@link #cork}. The fields of an
 * {@link InteractiveTransaction} that are its state ({@code state}, {@code endReason}, {@code
 * idleCheck}, {@code endedBy}) are written only here, under the lock.
 *
 * <h2>Turns</h2>
 * Exactly one thread, the holder, runs a turn: the caller that found the lane idle ({@link
 * Admitted#LEAD}), a pool thread ({@link #started()}), or the blocked caller a turn was handed to
 * ({@link #finishTurn}). Only the party that moves the run state out of {@code IDLE} submits the
 * lane to the pool, and only once the lock is released; the hand-offs of the lock order one
 * holder's writes before the next one's reads.
 */
final class LaneState {
    /** What admission decided; the caller acts on it once the lock is released. */
    enum Admitted {
        /** The caller holds the lane and runs the turn on its own thread. */
        LEAD,
        /** Queued; a turn under way, or already scheduled, will take it. */
        QUEUED,
        /** Queued, and the caller must submit the lane to the pool. */
        SCHEDULE
    }

    /**
     * What the holder does after its turn released the lane: nothing, submit it to the pool, or
     * wake the blocked caller it was handed to ({@link #handedTo}).
     */
    record Next(boolean schedule, WriteRequest handedTo) {
        static final Next IDLE = new Next(false, null);
        static final Next SCHEDULE = new Next(true, null);
    }

    /** Requests failed under the lock, to deliver after it; and whether a transaction ended. */
    record Failed(List<WriteRequest> requests, boolean transactionEnded) {}

    /** A withdrawn request's context, for its message: what held the lane, what waited. */
    record Withdrawn(int queued, boolean pinned) {}

    /** What a close decided: the requests it failed, and whether to submit the lane. */
    record Closing(List<WriteRequest> refused, boolean schedule) {}

    /** The cork's phases; see {@link Cork}. */
    enum CorkPhase { OFF, REQUESTED, OPEN, BROKEN }

    private final ReentrantLock lock = new ReentrantLock();
    /** The lane's name, options, clock and timer. */
    private final LaneSetup setup;
    /** What is submitted to the pool to run a turn: the lane. */
    private final WorkerPool.Task task;

    @GuardedBy("lock")
    private final SerialTask run = new SerialTask();
    @GuardedBy("lock")
    private final WriteQueue queue;
    /** Null while nobody waits for room; made by the first waiter, dropped by the last. */
    @GuardedBy("lock")
    private Condition notFull;
    @GuardedBy("lock")
    private int notFullWaiters;
    @GuardedBy("lock")
    private boolean openRequested;
    @GuardedBy("lock")
    private Throwable deadCause;
    @GuardedBy("lock")
    private boolean uncorkRequested;
    // written under the lock, read anywhere
    private volatile DatabaseState lifecycle = DatabaseState.RUNNING;
    private volatile String poisonCause;
    private volatile InteractiveTransaction pinned;
    private volatile CorkPhase cork = CorkPhase.OFF;

    LaneState(LaneSetup setup, WorkerPool.Task task) {
        this.setup = setup;
        this.task = task;
        this.queue = new WriteQueue(setup.options());
    }

    /** Asserts that the calling thread holds the lock; for the helpers' own checks in tests. */
    private void assertHeld() {
        assert lock.isHeldByCurrentThread() : "the lane's lock is not held";
    }

    /** Puts the lane in the pool's queues; only after a decision said so, unlocked. */
    void submit() {
        setup.pool().submit(task);
    }

    // ------------------------------------------------------------------ admission

    /**
     * Admits {@code r}: refuses what may not wait (throws, nothing queued), waits for room, and
     * decides whether the caller leads or queues.
     *
     * @param mayLead whether the caller may run the turn itself
     * @param waits whether the caller will block on the outcome
     */
    Admitted admit(WriteRequest r, boolean mayLead, boolean waits) {
        lock.lock();
        try {
            if (waits) {
                refuseWaitingInItsOwnBody();
            }
            checkAdmission();
            if (waits) {
                refuseWaitingForItsOwnTransaction();
            }
            awaitRoom(r);
            r.depthAtEntry = queue.queuedWrites();
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
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, setup.name() + ": a "
                        + "body cannot call its own transaction (it would wait for itself)", null);
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

    @GuardedBy("lock")
    private void refuseWaitingInItsOwnBody() {
        if (run.heldByCurrentThread()) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, setup.name() + ": a body "
                    + "cannot wait for another write to its own database (it would wait for "
                    + "itself); do the work in the same body, or queue it with writeAsync and "
                    + "do not wait for it there", null);
        }
    }

    @GuardedBy("lock")
    private void refuseWaitingForItsOwnTransaction() {
        InteractiveTransaction tx = pinned;
        if (tx != null && tx.owner == Thread.currentThread()) {
            String name = setup.name();
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": this thread "
                    + "holds an open transaction on " + name + "; a write from it outside that "
                    + "transaction would wait for the transaction, which waits for this thread. "
                    + "Run the write inside the transaction, or commit or roll it back first; "
                    + "the write never ran", null);
        }
    }

    /** Refuses new work unless the lane runs and is not poisoned. */
    @GuardedBy("lock")
    private void checkAdmission() {
        String name = setup.name();
        switch (lifecycle) {
            case RUNNING:
                break;
            case CLOSING:
                throw new ClosingException(name + ": the database is closing and accepts no more "
                        + "work; the request never ran");
            case CLOSED:
                throw new ClosedException(name + ": the database is closed; the request never ran");
            case DEAD:
            default:
                throw new DatabaseDeadException(name + ": the database is dead (" + deadCause
                        + "); the request never ran. Reopen it once the cause is fixed", deadCause);
        }
        if (poisonCause != null) {
            throw new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the writer is "
                    + "poisoned and refuses work (" + poisonCause + "); reads continue. Check the "
                    + "data, then close and reopen the database", null);
        }
    }

    /**
     * Returns with room for {@code r}, waiting at most its enqueue timeout (a condition of the
     * lock, which the wait releases), or throws {@link OverloadedException} or {@link
     * QueueFullException}. The deadline covers admission only.
     */
    @GuardedBy("lock")
    private void awaitRoom(WriteRequest r) {
        if (!queue.full()) {
            return;
        }
        String name = setup.name();
        if (r.options.enqueueTimeout().isEmpty()) {
            throw new OverloadedException(name + ": write queue full (" + queue.size()
                    + " queued, " + queue.runningGroupSize() + " in the running group); retry "
                    + "later or raise writeQueueCapacity");
        }
        long timeout = r.options.enqueueTimeout().get().toNanos();
        long remaining = timeout;
        if (notFullWaiters++ == 0) {
            notFull = lock.newCondition();
        }
        try {
            while (queue.full()) {
                if (remaining <= 0) {
                    throw new QueueFullException(name + ": write queue stayed full for "
                            + timeout / 1_000_000 + " ms (" + queue.size() + " queued, capacity "
                            + queue.capacity() + "); the write never ran. Retry later or raise "
                            + "writeQueueCapacity");
                }
                try {
                    remaining = setup.clock().awaitNanos(lock, notFull, remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CancelledException(WriteOutcome.NOT_STARTED, name + ": interrupted "
                            + "while waiting for room in the write queue; the write never ran", e);
                }
                checkAdmission();
            }
        } finally {
            if (--notFullWaiters == 0) {
                notFull = null;
            }
        }
    }

    /** Wakes callers waiting for room; admission re-checks the lane's state. */
    @GuardedBy("lock")
    private void signalRoom() {
        if (notFullWaiters > 0) {
            notFull.signalAll();
        }
    }

    /**
     * Takes {@code r} out of the queue if it is still there, unrun (its start timeout passed). A
     * request the lane was handed to has started.
     *
     * @return null when it was not withdrawn, else its context for the message
     */
    Withdrawn withdraw(WriteRequest r) {
        lock.lock();
        try {
            if (r.leadGranted || !queue.withdraw(r)) {
                return null;
            }
            signalRoom();
            return new Withdrawn(queue.queuedWrites(), pinned != null);
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

    // ------------------------------------------------------------------ turns

    /** A pool thread starts the turn of the scheduled lane. */
    void started() {
        lock.lock();
        try {
            run.started();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the calling thread holds the lane now (it runs a body of this lane). */
    boolean heldByCurrentThread() {
        lock.lock();
        try {
            return run.heldByCurrentThread();
        } finally {
            lock.unlock();
        }
    }

    /** A turn's work, and the cancelled requests dropped unrun before it (or null). */
    record Taken(List<WriteRequest> group, List<WriteRequest> dropped) {}

    /** The next turn's work: {@code first} and the writes that follow it, a step, or the head. */
    Taken takeTurn(WriteRequest first) {
        lock.lock();
        try {
            assert run.heldByCurrentThread() : "a turn taken by a thread that does not hold it";
            List<WriteRequest> group = queue.takeGroup(first, pinned != null);
            signalRoom();
            return new Taken(group, queue.takeDropped());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Releases the lane after a turn: keeps it for the pinned transaction's next step, hands it
     * to the blocked caller at the head of the queue, submits it when work waits, or leaves it
     * idle. With a transaction pinned and no step waiting, arms its idle check.
     */
    Next finishTurn() {
        lock.lock();
        try {
            queue.turnEnded();
            InteractiveTransaction tx = pinned;
            WriteRequest head = queue.head();
            if (tx != null) {
                boolean schedule = run.finish(!queue.stepsEmpty());
                if (!schedule) {
                    armIdleCheck(tx);
                }
                return schedule ? Next.SCHEDULE : Next.IDLE;
            }
            if (head != null && head.waiter != null) {
                run.handTo(head.waiter);
                head.leadGranted = true;
                return new Next(false, head);
            }
            return run.finish(head != null) ? Next.SCHEDULE : Next.IDLE;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ the idle lane

    /**
     * Claims the lane for a turn of the calling thread if it is idle: nothing queued or running,
     * no transaction or cork holding it, still running. The claimer ends it with {@link
     * #finishTurn}.
     */
    boolean claimIfIdle() {
        lock.lock();
        try {
            return idle() && run.claim();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the lane is idle now: a racy hint that never blocks (false when the lock is taken). */
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

    @GuardedBy("lock")
    private boolean idle() {
        return run.isIdle() && queue.isEmpty() && pinned == null && cork == CorkPhase.OFF
                && lifecycle == DatabaseState.RUNNING;
    }

    // ------------------------------------------------------------------ lifecycle

    DatabaseState lifecycle() {
        return lifecycle;
    }

    String poisonCause() {
        return poisonCause;
    }

    Throwable deadCause() {
        lock.lock();
        try {
            return deadCause;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Poisons the lane (the first cause is kept): the pinned transaction ends {@code UNKNOWN},
     * the queued requests fail {@code NOT_STARTED}.
     */
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
            String name = setup.name();
            failed.addAll(failQueued(q -> new WriterPoisonedException(WriteOutcome.NOT_STARTED,
                    name + ": the writer was poisoned (" + cause + ") before this write ran; it "
                    + "never ran", null)));
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
            String name = setup.name();
            return failQueued(q -> new DatabaseDeadException(name + ": the database cannot be "
                    + "opened (" + cause + "); the request never ran", cause));
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
                String name = setup.name();
                refused = failQueued(r -> new ClosedException(name + ": the database was shut "
                        + "down before this write ran; it never ran"));
                schedule = rollBackOnShutdown(now) && run.schedule();
            }
            if (lifecycle == DatabaseState.RUNNING || lifecycle == DatabaseState.DEAD) {
                lifecycle = DatabaseState.CLOSING;
                queue.add(new Close(!drain, now));
                schedule |= run.schedule();
            }
            signalRoom();
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
        List<WriteRequest> failed = queue.failQueued(failure);
        signalRoom();
        return failed;
    }

    // ------------------------------------------------------------------ the pinned transaction

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

    /** Whether {@code tx} still pins the lane (its steps may run). */
    boolean stillPinned(InteractiveTransaction tx) {
        lock.lock();
        try {
            return pinned == tx;
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
                step.succeed(null); // asked to end, and it has
            } else {
                step.fail(tx.notOpen());
            }
        }
        return steps;
    }

    /** A shutdown rolls the pinned transaction back as its next step; whether it was queued. */
    @GuardedBy("lock")
    private boolean rollBackOnShutdown(long now) {
        InteractiveTransaction tx = pinned;
        if (tx == null || queue.hasStep(WriteRequest.Rollback.class)) {
            return false;
        }
        queue.addStep(new WriteRequest.Rollback(tx, "the database was shut down", now));
        return true;
    }

    /**
     * Arms the transaction's idle check, unless one is armed: the check, when it fires, arms
     * itself again for what is left of the timeout after the latest activity. (Cancelling and
     * scheduling a timer task after every step cost a tenth of a short transaction's CPU.)
     */
    @GuardedBy("lock")
    private void armIdleCheck(InteractiveTransaction tx) {
        if (tx.idleCheck == null) {
            arm(tx, tx.idleTimeout.toNanos() - (setup.clock().nanoTime() - tx.lastActivityNanos));
        }
    }

    @GuardedBy("lock")
    private void arm(InteractiveTransaction tx, long dueNanos) {
        try {
            tx.idleCheck = setup.timer().schedule(() -> expireIfIdle(tx), dueNanos);
        } catch (RejectedExecutionException e) {
            tx.idleCheck = null; // the runtime is shutting down; its close ends the transaction
        }
    }

    /**
     * On the timer: queues the expiry step when the transaction is still pinned and idle for its
     * whole timeout, and submits the lane when it was idle; arms the check again for the rest of
     * the timeout when it was active since. While steps are queued the lane is busy with it, and
     * the end of that turn arms a new check.
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

    // ------------------------------------------------------------------ the cork

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
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, setup.name()
                        + ": already corked; uncork first", null);
            }
            cork = CorkPhase.REQUESTED;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses an uncork that cannot run now, else notes it as asked for (once per cork). While a
     * transaction pins the lane the uncork is deferred: it is queued ahead of everything, to run
     * when the transaction ends.
     *
     * @return whether it was deferred (then nobody waits for it)
     */
    boolean admitUncork(WriteRequest uncork) {
        lock.lock();
        try {
            boolean transactionPinned = pinned != null;
            String refused = cork == CorkPhase.OFF ? "not corked"
                    : uncorkRequested ? "an uncork is already pending"
                    // still queued behind the open transaction: an uncork deferred now would run
                    // before it and leave the database corked
                    : transactionPinned && !corked() ? "cork() has not taken effect yet (it "
                            + "waits behind an open transaction); uncork after it returned"
                    : null;
            if (refused != null) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, setup.name() + ": "
                        + refused, null);
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

    // ------------------------------------------------------------------ views

    /** Writes waiting in the queue now, without the lock (a gauge: the queue's volatile mirror). */
    @SuppressWarnings("GuardedBy")
    int queueDepth() {
        return queue.depth();
    }

    /** The lane's state at one instant, for diagnostics. */
    record View(DatabaseState lifecycle, String poisonCause, Throwable deadCause, int queued,
            InteractiveTransaction pinned, boolean corked) {}

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
