package dev.lanes.internal.writer;

import dev.lanes.internal.scheduler.SerialTask;
import java.util.concurrent.CompletableFuture;

/**
 * Who runs a writer lane's next turn: the lane's run state ({@link SerialTask}), the leader path,
 * the pool, and the hand-off to a blocked caller.
 *
 * <h2>Who runs a turn</h2>
 * A platform-thread caller that finds the lane idle with an empty queue becomes the holder and
 * runs the turn on its own thread (a pool hop costs ~60 µs here against ~8 µs for a one-row
 * commit). Everyone else queues and waits on a future. Under contention the leader path is
 * switched off (see {@link WriteQueue}), and a turn that ends with a blocked platform caller at
 * the head of the queue hands the lane to that caller, which must be woken anyway, instead of
 * waking a pool thread too. After a turn the lane requeues itself if more work waits.
 *
 * <h2>Concurrency</h2>
 * {@link #run} is guarded by the lane's lock, so that the run state changes atomically with the
 * queue and the pinned transaction: the methods marked "guarded by the lane's lock" expect the
 * caller to hold it, {@link #started()} and {@link #finishTurn} take it. The lane is {@code
 * IDLE}, {@code SCHEDULED} (submitted to the pool exactly once) or {@code RUNNING} (exactly one
 * thread, the holder, runs a turn); only the party that moves it out of {@code IDLE} submits it,
 * and only once the lock is released. {@link #finishTurn} is called by the holder alone. A hand-off
 * sets the request's {@code leadGranted} under the lock and completes its {@code wake} after the
 * lock is released (see {@link WriteRequest} for the waiter's side).
 */
final class TurnScheduler {
    // guarded by the lane's lock
    private final SerialTask run;
    /**
     * The lane, whose parts this one works with: one reference, not one per part, as a database
     * keeps this object while idle. It is what is submitted to the pool; it runs one turn
     * on the calling thread, its holder.
     */
    private final WriterLane lane;

    TurnScheduler(SerialTask run, WriterLane lane) {
        this.run = run;
        this.lane = lane;
    }

    // guarded by the lane's lock: the leader path; whether the calling thread holds the lane now
    boolean claim() {
        return run.claim();
    }

    // guarded by the lane's lock: whether the caller must {@link #submit} the lane, unlocked
    boolean schedule() {
        return run.schedule();
    }

    // guarded by the lane's lock
    boolean heldByCurrentThread() {
        return run.heldByCurrentThread();
    }

    // guarded by the lane's lock
    boolean isIdle() {
        return run.isIdle();
    }

    /** A pool thread starts the turn of the scheduled lane. */
    void started() {
        lane.laneLock().lock();
        try {
            run.started();
        } finally {
            lane.laneLock().unlock();
        }
    }

    /** Puts the lane in the pool's queues; only after {@link #schedule} said so. */
    void submit() {
        lane.setup().pool().submit(lane);
    }

    /** After admission, with the lock released: leads the turn, or submits the lane. */
    void proceed(WriteRequest r, boolean lead, boolean schedule) {
        if (lead) {
            lane.turn(r);
        } else if (schedule) {
            submit();
        }
    }

    /** Leads any turn the lane is handed while {@code r} waits, until its outcome arrived. */
    void leadWhileWaiting(WriteRequest r) {
        while (true) {
            CompletableFuture<Void> wake = r.wake;
            if (wake.isDone()) {
                wake = new CompletableFuture<>();
                r.wake = wake; // armed before the checks, so no wake-up is missed
            }
            // Checked before completion: a lane handed over must be run even if this request's
            // outcome arrived another way (drained by a shutdown).
            if (r.leadGranted) {
                r.leadGranted = false;
                lane.turn(null);
                continue;
            }
            if (r.future.isDone()) {
                return;
            }
            wake.join();
        }
    }

    /**
     * Releases the lane after a turn, and requeues it when work waits: to the pool, or to the
     * blocked caller at the head of the queue, which leads the next turn itself.
     *
     * @param used whether the turn served requests (an idle release does not count as use)
     */
    void finishTurn(boolean used) {
        boolean schedule = false;
        WriteRequest handedTo = null;
        WriteQueue queue = lane.queue();
        PinnedTransaction pinned = lane.pinnedTransaction();
        lane.laneLock().lock();
        try {
            queue.turnEnded();
            InteractiveTransaction tx = pinned.pinned();
            WriteRequest head = queue.head();
            if (tx != null) {
                schedule = run.finish(!queue.stepsEmpty());
                if (!schedule) {
                    pinned.armIdleCheck();
                }
            } else if (head != null && head.waiter != null) {
                run.handTo(head.waiter);
                head.leadGranted = true;
                handedTo = head;
            } else {
                schedule = run.finish(head != null);
            }
        } finally {
            lane.laneLock().unlock();
        }
        if (used) {
            lane.setup().events().used();
        }
        if (schedule) {
            submit();
        } else if (handedTo != null) {
            handedTo.wake.complete(null);
        }
    }
}
