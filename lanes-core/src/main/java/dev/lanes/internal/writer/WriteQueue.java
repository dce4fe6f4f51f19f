package dev.lanes.internal.writer;

import dev.lanes.DatabaseOptions;
import dev.lanes.LanesException;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.SmallDeque;
import dev.lanes.internal.writer.WriteRequest.Close;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The bounded queue of one writer lane, and the forming of commit groups from it: a data
 * structure owned by {@link LaneState}, which calls it only under its lock (it is not thread-safe
 * on purpose, and keeps no lock or lane of its own).
 *
 * <p>Two queues: the requests, of which at most {@code writeQueueCapacity} wait (the close marker
 * does not count), and the steps of the pinned interactive transaction, which run ahead of them.
 * A group is the head request alone when it is not a {@link GroupWrite} (maintenance, a command,
 * the close marker), else up to {@code maxGroupSize} consecutive group writes. A request whose
 * caller cancelled its future before it ran is dropped unrun; one whose start timeout passed is
 * withdrawn unrun ({@link #withdraw}), under the same lock that a turn takes it under, so that
 * exactly one of the two happens.
 *
 * <p>{@link #contended} is the leader policy's memory: set when a turn finds more than one
 * request waiting, cleared when a pool turn finds at most one, so that callers woken together by
 * one group's delivery do not each lead a group of one in a convoy. {@link #depth} mirrors
 * {@link #queuedWrites()}: written after every change of the queue, volatile, so that a gauge
 * reads it without the lock. {@link #dropped} collects the cancelled requests a turn dropped, for
 * the turn to report once the lock is released.
 *
 * <p>Memory: both queues are {@link SmallDeque}s, so an idle lane (the common case with many
 * databases) holds no queue array, and a burst's array is let go once the queue drained; the
 * steps' queue is made by the first interactive transaction's first step.
 */
final class WriteQueue {
    /** Its capacity and largest group. */
    private final DatabaseOptions options;
    private final SmallDeque<WriteRequest> requests = new SmallDeque<>();
    /** The callers waiting for room, longest waiting first; null until the first waits. */
    private SmallDeque<RoomWaiter> waiters;
    /** Places handed to waiters that have not yet taken them: counted as taken. */
    private int reserved;
    /** Null until the first interactive transaction's first step. */
    private SmallDeque<TransactionStep> steps;
    private int runningGroupSize;
    private boolean contended;
    private List<WriteRequest> dropped;
    // written under the owner's lock, read anywhere
    private volatile int depth;

    WriteQueue(DatabaseOptions options) {
        this.options = options;
    }

    /** Requests the queue holds at most; a full queue refuses or blocks new ones. */
    int capacity() {
        return options.writeQueueCapacity();
    }

    /** Whether a request must wait for room (or be refused); places handed to waiters count. */
    boolean full() {
        return requests.size() + reserved >= capacity();
    }

    /** A caller waiting for room, on a condition of its own, woken only by a place handed to it. */
    private static final class RoomWaiter {
        final Condition wake;
        boolean granted;

        RoomWaiter(Condition wake) {
            this.wake = wake;
        }
    }

    /** Requests queued, the close marker counted. */
    int size() {
        return requests.size();
    }

    /**
     * Waits for a place of its own, at most {@code timeout} nanoseconds, on a condition of {@code
     * lock} (which the wait releases), behind every earlier waiter; {@code recheck} (which may
     * throw: the lane stopped) runs after each wake. A place is handed to one waiter at a time
     * ({@link #signalRoom}), so thousands of parked callers are neither woken for nothing nor
     * overtaken by a newcomer, and the holder of the lane never queues behind them for the lock.
     *
     * @return whether a place came before the deadline: the caller adds its request now
     */
    boolean awaitRoom(ReentrantLock lock, Clock clock, long timeout, Runnable recheck)
            throws InterruptedException {
        RoomWaiter w = new RoomWaiter(lock.newCondition());
        if (waiters == null) {
            waiters = new SmallDeque<>();
        }
        waiters.addLast(w);
        boolean admitted = false;
        try {
            long remaining = timeout;
            while (!w.granted) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = clock.awaitNanos(lock, w.wake, remaining);
                recheck.run();
            }
            admitted = true;
            return true;
        } finally {
            if (w.granted) {
                reserved--; // taken by the caller's request, or given up: the next one's
                if (!admitted) {
                    signalRoom();
                }
            } else {
                waiters.remove(w);
            }
        }
    }

    /** Whether callers wait for room; a newcomer then waits behind them. */
    boolean hasWaiters() {
        return waiters != null && !waiters.isEmpty();
    }

    /** Hands each free place to the longest waiting caller without one, and wakes it. */
    void signalRoom() {
        while (hasWaiters() && requests.size() + reserved < capacity()) {
            RoomWaiter w = waiters.pollFirst();
            w.granted = true;
            reserved++;
            w.wake.signal();
        }
    }

    /** Wakes every caller waiting for room, to see the lane's state change (closing, failed). */
    void signalAllWaiters() {
        if (hasWaiters()) {
            for (RoomWaiter w : waiters) {
                w.wake.signal();
            }
        }
    }

    /** The size of the group running now, for messages. */
    int runningGroupSize() {
        return runningGroupSize;
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

    // after every change of requests
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
            while (group.size() < options.maxGroupSize()
                    && (next = requests.peekFirst()) != null) {
                if (next.ticket.future.isCancelled()) {
                    requests.pollFirst(); // its caller gave up before it ran: it never runs
                    if (next.ticket.traced != null) {
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
                r.stages.fail(failure.apply(r));
                failed.add(r);
            }
        }
        requests.clear();
        if (closeMarker != null) {
            requests.addLast(closeMarker);
        }
        counted();
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
}
