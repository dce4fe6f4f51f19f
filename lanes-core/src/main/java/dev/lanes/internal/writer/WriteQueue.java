package dev.lanes.internal.writer;

import dev.lanes.CancelledException;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.QueueFullException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.util.SmallDeque;
import dev.lanes.internal.writer.WriteRequest.Close;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.function.Function;

/**
 * The bounded queue of one writer lane, and the forming of commit groups from it.
 *
 * <p>Two queues: the requests, of which at most {@code writeQueueCapacity} wait (the close marker
 * does not count), and the steps of the pinned interactive transaction, which run ahead of them.
 * A group is the head request alone when it is not a {@link GroupWrite} (maintenance, a command,
 * the close marker), else up to {@code maxGroupSize} consecutive group writes. A request whose
 * caller cancelled its future before it ran is dropped unrun; one whose start timeout passed is
 * withdrawn unrun ({@link #withdraw}), under the same lock that a turn takes it under, so that
 * exactly one of the two happens.
 *
 * <p>Admission waits for room only with an enqueue timeout; the deadline covers admission only,
 * so an accepted write is never reported as failed because it was slow.
 *
 * <h2>Concurrency</h2>
 * Every field is guarded by the lane's lock, which every caller holds; {@link #notFull} belongs
 * to that lock, and exists only while a caller waits for room: made by the first waiter, dropped
 * by the last one to leave, so that every waiter of one wait waits on the same condition and a
 * signal (given only while {@link #notFullWaiters} is positive) reaches them all. {@link #contended} is the leader policy's memory: set when a turn finds more than
 * one request waiting, cleared when a pool turn finds at most one, so that callers woken together
 * by one group's delivery do not each lead a group of one in a convoy. {@link #depth} mirrors
 * {@link #queuedWrites()}: written under the lock after every change of the queue, volatile, so
 * that a gauge reads it without the lock. {@link #dropped} collects, under the lock, the
 * cancelled requests a turn dropped, for the turn to report once the lock is released.
 *
 * <p>Memory: both queues are {@link SmallDeque}s, so an idle lane (the common case with many
 * databases) holds no queue array, and a burst's array is let go once the queue drained; the
 * steps' queue is made by the first interactive transaction's first step (under the lock).
 */
final class WriteQueue {
    /**
     * The lane, for its name, options, clock and lock: one reference, not one each, as a
     * database keeps this object while idle.
     */
    private final WriterLane lane;
    // guarded by the lane's lock
    /** Null while nobody waits for room; see the class comment. */
    private Condition notFull;
    private final SmallDeque<WriteRequest> requests = new SmallDeque<>();
    /** Null until the first interactive transaction's first step. */
    private SmallDeque<TransactionStep> steps;
    private int notFullWaiters;
    private int runningGroupSize;
    private boolean contended;
    private List<WriteRequest> dropped;
    // written under the lane's lock, read anywhere
    private volatile int depth;

    WriteQueue(WriterLane lane) {
        this.lane = lane;
    }

    /** Requests the queue holds at most; a full queue refuses or blocks new ones. */
    private int capacity() {
        return lane.setup().options().writeQueueCapacity();
    }

    boolean isEmpty() {
        return requests.isEmpty();
    }

    boolean stepsEmpty() {
        return steps == null || steps.isEmpty();
    }

    /** Requests waiting, the close marker not counted. */
    int queuedWrites() {
        int n = requests.size();
        return n > 0 && requests.peekLast() instanceof Close ? n - 1 : n;
    }

    /** {@link #queuedWrites()} as of the last change, read without the lock. */
    int depth() {
        return depth;
    }

    // guarded by the lane's lock: after every change of requests
    private void counted() {
        depth = queuedWrites();
    }

    /** The bracketed requests dropped unrun since the last call, or null when there are none. */
    List<WriteRequest> takeDropped() {
        List<WriteRequest> taken = dropped;
        dropped = null;
        return taken;
    }

    /** Whether a caller that found the lane idle may lead a turn itself now. */
    boolean mayLead() {
        return requests.isEmpty() && !contended;
    }

    WriteRequest head() {
        return requests.peekFirst();
    }

    void add(WriteRequest r) {
        requests.addLast(r);
        counted();
    }

    /**
     * Takes {@code r} out of the queue if it is still there, unrun: its start timeout passed.
     *
     * @return whether it was queued
     */
    boolean withdraw(WriteRequest r) {
        if (!requests.remove(r)) {
            return false;
        }
        counted();
        signalRoom();
        return true;
    }

    /** Queues ahead of everything (a deferred uncork runs when the transaction ends). */
    void addFirst(WriteRequest r) {
        requests.addFirst(r);
        counted();
    }

    void addStep(TransactionStep step) {
        if (steps == null) {
            steps = new SmallDeque<>();
        }
        steps.addLast(step);
    }

    boolean hasStep(Class<? extends TransactionStep> kind) {
        if (steps == null) {
            return false;
        }
        for (TransactionStep s : steps) {
            if (kind.isInstance(s)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns with room for {@code r}, waiting at most its enqueue timeout, or throws.
     *
     * @param stillAdmitted re-checks, after each wait, that the lane still admits work (throws)
     * @param overloaded told of each refusal for a full queue, before it is thrown
     */
    void awaitRoom(WriteRequest r, Runnable stillAdmitted, Runnable overloaded) {
        if (requests.size() < capacity()) {
            return;
        }
        if (r.options.enqueueTimeout().isEmpty()) {
            overloaded.run();
            throw new OverloadedException(lane.name() + ": write queue full (" + requests.size()
                    + " queued, " + runningGroupSize + " in the running group); retry later or "
                    + "raise writeQueueCapacity");
        }
        Duration timeout = r.options.enqueueTimeout().get();
        long remaining = timeout.toNanos();
        if (notFullWaiters++ == 0) {
            notFull = lane.laneLock().newCondition();
        }
        try {
            while (requests.size() >= capacity()) {
                if (remaining <= 0) {
                    overloaded.run();
                    throw new QueueFullException(lane.name() + ": write queue stayed full for "
                            + timeout.toMillis() + " ms (" + requests.size() + " queued, "
                            + "capacity " + capacity() + "); the write never ran. Retry later or "
                            + "raise writeQueueCapacity");
                }
                try {
                    remaining = lane.clock().awaitNanos(lane.laneLock(), notFull, remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CancelledException(WriteOutcome.NOT_STARTED, lane.name()
                            + ": interrupted "
                            + "while waiting for room in the write queue; the write never ran", e);
                }
                stillAdmitted.run();
            }
        } finally {
            if (--notFullWaiters == 0) {
                notFull = null;
            }
        }
    }

    /**
     * Takes the next turn's work: {@code first} (a caller that leads its own turn) and the group
     * writes that follow it, or the pinned transaction's next step, or the head of the queue.
     */
    List<WriteRequest> takeGroup(WriteRequest first, boolean pinned) {
        List<WriteRequest> group = new ArrayList<>(first == null ? 8 : 1);
        if (first != null) {
            group.add(first);
        } else if (pinned) {
            TransactionStep step = steps == null ? null : steps.pollFirst();
            if (step != null) {
                group.add(step);
            }
        }
        if (!pinned && (first == null || first instanceof GroupWrite)) {
            WriteRequest next;
            while (group.size() < lane.setup().options().maxGroupSize()
                    && (next = requests.peekFirst()) != null) {
                if (next.future.isCancelled()) {
                    requests.pollFirst(); // its caller gave up before it ran: it never runs
                    if (next.traced != null) {
                        if (dropped == null) {
                            dropped = new ArrayList<>(2);
                        }
                        dropped.add(next);
                    }
                    continue;
                }
                if (!(next instanceof GroupWrite)) {
                    if (group.isEmpty()) {
                        group.add(requests.pollFirst()); // maintenance and commands run alone
                    }
                    break;
                }
                group.add(requests.pollFirst());
            }
        }
        runningGroupSize = group.size();
        counted();
        if (first == null) {
            contended = group.size() > 1 || !requests.isEmpty();
        } else if (group.size() > 1) {
            contended = true;
        }
        signalRoom();
        return group;
    }

    void turnEnded() {
        runningGroupSize = 0;
    }

    /**
     * Fails every queued request but the close marker, which keeps its place.
     *
     * @return the requests failed, for delivery once the lock is released
     */
    List<WriteRequest> failQueued(Function<WriteRequest, LanesException> failure) {
        List<WriteRequest> failed = new ArrayList<>(requests.size());
        WriteRequest closeMarker = null;
        for (WriteRequest r : requests) {
            if (r instanceof Close) {
                closeMarker = r;
            } else {
                r.fail(failure.apply(r));
                failed.add(r);
            }
        }
        requests.clear();
        if (closeMarker != null) {
            requests.addLast(closeMarker);
        }
        counted();
        signalRoom();
        return failed;
    }

    /** Takes every waiting step of the pinned transaction (it ended). */
    List<TransactionStep> takeSteps() {
        List<TransactionStep> taken = new ArrayList<>(steps == null ? 0 : steps.size());
        if (steps != null) {
            steps.forEach(taken::add);
            steps.clear();
        }
        return taken;
    }

    /** Wakes callers waiting for room; admission re-checks the lane's state. */
    void signalRoom() {
        if (notFullWaiters > 0) {
            notFull.signalAll();
        }
    }
}
