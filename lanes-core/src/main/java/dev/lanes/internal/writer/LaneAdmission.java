package dev.lanes.internal.writer;

import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The door of a writer lane: the refusals that come before anything runs (a caller that would
 * wait for itself, a lane that is closing, dead or poisoned), the wait for room in the bounded
 * {@link WriteQueue}, and the choice between running the turn on the caller's thread (the leader
 * path) and queuing the request. A refused request never ran, and its metrics bracket ends here.
 *
 * <h2>Concurrency</h2>
 * Each admission decides under the lane's lock, so that the refusals, the queue and the run
 * state are read and changed at one instant; a wait for room releases the lock while it waits
 * (a condition of the lock, see {@link WriteQueue#awaitRoom}). What the decision leads to, the
 * turn led on this thread or the lane's submission to the pool, runs once the lock is released.
 * The class has no state of its own.
 */
final class LaneAdmission {
    private final String name;
    private final ReentrantLock laneLock;
    private final LaneLifecycle lifecycle;
    private final WriteQueue queue;
    private final PinnedTransaction pinned;
    private final TurnScheduler scheduler;
    private final WriteTelemetry telemetry;
    /** Arms the withdrawal of a request queued with a start timeout; under the lane's lock. */
    private final WriterLane lane;

    LaneAdmission(String name, ReentrantLock laneLock, LaneLifecycle lifecycle, WriteQueue queue,
            PinnedTransaction pinned, TurnScheduler scheduler, WriteTelemetry telemetry,
            WriterLane lane) {
        this.name = name;
        this.laneLock = laneLock;
        this.lifecycle = lifecycle;
        this.queue = queue;
        this.pinned = pinned;
        this.scheduler = scheduler;
        this.telemetry = telemetry;
        this.lane = lane;
    }

    /**
     * Admits a request, then either runs its turn on this thread (leader path) or queues it.
     *
     * @param mayLead whether the caller may run the turn itself: a platform thread that will wait
     *     for the result anyway
     * @param waits whether the caller will block on the result (refused from inside a body of
     *     this same lane, where it would wait for itself)
     * @throws LanesException when the request is refused; it then never ran
     */
    void submit(WriteRequest r, boolean mayLead, boolean waits) {
        if (r.traced == null) {
            enqueue(r, mayLead, waits);
            return;
        }
        try {
            enqueue(r, mayLead, waits);
        } catch (LanesException refusal) {
            telemetry.refused(r, refusal);
            throw refusal;
        }
    }

    /** {@link #submit}, without the metrics bracket. */
    private void enqueue(WriteRequest r, boolean mayLead, boolean waits) {
        boolean lead;
        boolean schedule = false;
        laneLock.lock();
        try {
            if (waits) {
                refuseWaitingInItsOwnBody();
            }
            lifecycle.checkAdmission();
            if (waits) {
                refuseWaitingForItsOwnTransaction();
            }
            queue.awaitRoom(r, lifecycle::checkAdmission, telemetry::overload);
            r.depthAtEntry = queue.queuedWrites();
            lead = mayLead && queue.mayLead() && pinned.pinned() == null && scheduler.claim();
            if (!lead) {
                queue.add(r);
                if (r.startTimeoutNanos > 0) {
                    lane.armStartTimeout(r);
                }
                schedule = pinned.pinned() == null && scheduler.schedule();
            }
        } finally {
            laneLock.unlock();
        }
        scheduler.proceed(r, lead, schedule);
    }

    // guarded by the lane's lock: a caller that would wait for the turn it is running waits forever
    private void refuseWaitingInItsOwnBody() {
        if (scheduler.heldByCurrentThread()) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body "
                    + "cannot wait for another write to its own database (it would wait for "
                    + "itself); use writeAsync or do the work in the same body", null);
        }
    }

    // guarded by the lane's lock: so does one whose own open transaction holds the lane
    private void refuseWaitingForItsOwnTransaction() {
        InteractiveTransaction tx = pinned.pinned();
        if (tx != null && tx.owner == Thread.currentThread()) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": this thread "
                    + "holds an open transaction on " + name + "; a write from it outside that "
                    + "transaction would wait for the transaction, which waits for this thread. "
                    + "Run the write inside the transaction, or commit or roll it back first; "
                    + "the write never ran", null);
        }
    }

    /** Admits one step of the pinned interactive transaction; it runs ahead of the queue. */
    void submitStep(TransactionStep r, boolean mayLead) {
        boolean lead;
        boolean schedule = false;
        laneLock.lock();
        try {
            if (scheduler.heldByCurrentThread()) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body "
                        + "cannot call its own transaction (it would wait for itself)", null);
            }
            if (pinned.pinned() != r.tx || r.tx.state != InteractiveTransaction.State.OPEN) {
                throw r.tx.notOpen();
            }
            lead = mayLead && queue.stepsEmpty() && scheduler.claim();
            if (!lead) {
                queue.addStep(r);
                schedule = scheduler.schedule();
            }
        } finally {
            laneLock.unlock();
        }
        scheduler.proceed(r, lead, schedule);
    }
}
