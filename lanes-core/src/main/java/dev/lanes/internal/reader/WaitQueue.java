package dev.lanes.internal.reader;

import dev.lanes.AdmissionTimeoutException;
import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.SmallDeque;
import dev.lanes.internal.util.Timer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The FIFO queue of reads waiting for a slot of one {@link ReaderSet}, with the end of each wait:
 * expiry (checkout timeout or the read's deadline, in arrival order), cancellation, and the
 * delivery of refusals to asynchronous reads.
 *
 * <p>Invariants:
 * <ul>
 *   <li>The lock is the set's own ({@code set.lock}), shared, not a second one; the set's name,
 *       capacity, checkout timeout, clock and counters are read from the set too (its final
 *       fields), rather than kept here a second time. {@link #waiters}, {@link
 *       #refused} and {@link #deliveringRefusals} are read and written only under it; the methods
 *       marked "guarded by lock" must be called holding it, the others take it themselves.
 *   <li>The set's {@code queued} is written only by its current queue, under the lock, always
 *       right after {@code waiters} changes (so it equals {@code waiters.size()} whenever the
 *       lock is free), and read anywhere: the set's lock-free path and its gauges read it.
 *   <li>The set makes its queue when a read first has to wait, and drops it at an idle release
 *       once {@link #drained}, both under the lock. A timeout of a dropped queue that still
 *       fires finds it empty and changes nothing (it writes {@code queued} only when it took a
 *       waiter out), and a waiter belongs to the queue it joined until it leaves it, so no
 *       waiter is ever in a dropped queue.
 *   <li>Nothing is called under the lock but condition signals and timer cancellations: metrics
 *       and the callbacks of asynchronous reads run after it is released, refusals of timed-out
 *       reads on one pool task at a time ({@code deliveringRefusals} is true while one is
 *       submitted or running), in the order they timed out.
 *   <li>Both queues are {@link SmallDeque}s: a database nobody waits on holds no queue array;
 *       {@code refused} is made, under the lock, by the first asynchronous read that timed out.
 * </ul>
 */
final class WaitQueue {
    private static final Logger log = LoggerFactory.getLogger(LogNames.READS);

    private final Timer timer;
    private final WorkerPool pool;
    /** The set this queue belongs to: its slots in use (for the timeout message), its metrics. */
    private final ReaderSet set;

    // guarded by lock
    private final SmallDeque<Waiter> waiters = new SmallDeque<>();
    /** Asynchronous waiters that timed out, in the order they did, awaiting their callback. */
    private SmallDeque<Waiter> refused; // null until the first asynchronous read timed out
    private boolean deliveringRefusals;

    WaitQueue(Timer timer, WorkerPool pool, ReaderSet set) {
        this.timer = timer;
        this.pool = pool;
        this.set = set;
    }

    /**
     * Whether nothing is left to do: nobody waits and no refusal is to be delivered, so that the
     * set may drop this queue.
     */
    // guarded by lock
    boolean drained() {
        return waiters.isEmpty() && (refused == null || refused.isEmpty())
                && !deliveringRefusals;
    }

    // guarded by lock
    boolean isEmpty() {
        return waiters.isEmpty();
    }

    // guarded by lock
    int size() {
        return waiters.size();
    }

    /** The head waiter, taken out of the queue; null when none waits. */
    // guarded by lock
    Waiter pollFirst() {
        Waiter w = waiters.pollFirst();
        set.queued = waiters.size();
        return w;
    }

    /** Queues a parked thread's wait, ending after the checkout timeout or at the deadline. */
    // guarded by lock
    Waiter addParked(boolean hasDeadline, long deadline) {
        Waiter w = new Waiter(set.lock.newCondition(), null, set.clock.nanoTime(),
                ReadLimits.nanos(set.checkoutTimeout), hasDeadline, deadline);
        add(w);
        return w;
    }

    /**
     * Queues an asynchronous read's wait, with its timeout on the timer.
     *
     * @throws ClosedException when the timer is shut down; the read is not queued
     */
    // guarded by lock
    Waiter addAsync(boolean hasDeadline, long deadline, AsyncAdmission callback) {
        Waiter w = new Waiter(null, callback, set.clock.nanoTime(),
                ReadLimits.nanos(set.checkoutTimeout),
                hasDeadline, deadline);
        add(w);
        try {
            w.timeout = timer.schedule(this::expire, w.end - set.clock.nanoTime());
        } catch (RejectedExecutionException e) {
            waiters.remove(w);
            set.queued = waiters.size();
            throw new ClosedException(set.name + ": the runtime is closed; the read never ran");
        }
        return w;
    }

    private void add(Waiter w) {
        waiters.addLast(w);
        set.queued = waiters.size();
    }

    /**
     * Parks this thread until its wait is granted, refused or due; on return {@code w.lease} or
     * {@code w.failure} is set.
     *
     * @return whether a refusal delivery must be submitted after the lock is released
     * @throws CancelledException when interrupted before a grant or refusal; it left the queue
     */
    // guarded by lock
    boolean park(Waiter w) {
        try {
            while (w.lease == null && w.failure == null) {
                long remaining = w.end - set.clock.nanoTime();
                if (remaining <= 0) {
                    return expireDue(); // this waiter, and any earlier one also due
                }
                set.clock.awaitNanos(set.lock, w.condition, remaining);
            }
        } catch (InterruptedException e) {
            if (w.lease == null && w.failure == null) {
                waiters.remove(w);
                set.queued = waiters.size();
                Thread.currentThread().interrupt();
                set.stats.cancelled();
                throw new CancelledException(WriteOutcome.NOT_STARTED, set.name
                        + ": interrupted "
                        + "while waiting for a reader; the read never ran", e);
            }
            Thread.currentThread().interrupt(); // granted or refused meanwhile: go on
        }
        return false;
    }

    /**
     * Takes an asynchronous read out of the queue (its future was cancelled).
     *
     * @return whether it was still waiting; when false, its grant or refusal is already under way
     */
    boolean cancel(Waiter w) {
        set.lock.lock();
        try {
            if (!waiters.remove(w)) {
                return false;
            }
            set.queued = waiters.size();
            w.cancelTimeout();
            set.stats.cancelled();
        } finally {
            set.lock.unlock();
        }
        set.metrics.readerCheckout(set.clock.nanoTime() - w.enqueuedAt, false);
        return true;
    }

    /** On the timer thread, when an asynchronous wait may have ended. */
    private void expire() {
        boolean deliver;
        set.lock.lock();
        try {
            deliver = expireDue();
        } finally {
            set.lock.unlock();
        }
        if (deliver) {
            submitDelivery();
        }
    }

    /** Submits the task that delivers refusals; call after the lock is released. */
    void submitDelivery() {
        pool.submit(new OneShot(set.name, this::deliverRefusals));
    }

    /**
     * Ends every wait that is due, in arrival order: a parked thread is woken with its failure,
     * an asynchronous read joins {@link #refused}. So no read gives up while one that arrived
     * before it, and is due too, still waits.
     *
     * @return whether a delivery task must be submitted (after the lock is released)
     */
    // guarded by lock
    private boolean expireDue() {
        long now = set.clock.nanoTime();
        boolean queuedRefusal = false;
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.end - now > 0) {
                continue;
            }
            it.remove();
            set.queued = waiters.size();
            w.failure = timedOut(w);
            if (w.condition != null) {
                w.condition.signal();
            } else {
                w.cancelTimeout();
                if (refused == null) {
                    refused = new SmallDeque<>();
                }
                refused.addLast(w);
                queuedRefusal = true;
            }
        }
        waiters.shrinkIfDrained();
        if (queuedRefusal && !deliveringRefusals) {
            deliveringRefusals = true;
            return true;
        }
        return false;
    }

    /**
     * On a pool thread: tells timed-out asynchronous reads, one at a time in the order they timed
     * out, so that callbacks chained on their futures never run on (nor stall) the timer.
     */
    private void deliverRefusals() {
        while (true) {
            Waiter w;
            set.lock.lock();
            try {
                w = refused == null ? null : refused.pollFirst();
                if (w == null) {
                    deliveringRefusals = false;
                    return;
                }
            } finally {
                set.lock.unlock();
            }
            set.metrics.readerCheckout(set.clock.nanoTime() - w.enqueuedAt, false);
            try {
                w.callback.refused(w.failure);
            } catch (RuntimeException e) {
                log.warn("{}: telling a read that it timed out failed", set.name, e);
            }
        }
    }

    // guarded by lock
    private LanesException timedOut(Waiter w) {
        long waited = TimeUnit.NANOSECONDS.toMillis(set.clock.nanoTime() - w.enqueuedAt);
        String shape = "capacity " + set.capacity + ", " + set.inUse() + " in use, "
                + waiters.size() + " other reads waiting";
        if (w.deadlineFirst) {
            set.stats.deadlineExceeded();
            return new DeadlineExceededException(WriteOutcome.NOT_STARTED, set.name
                    + ": the read's "
                    + "deadline passed after waiting " + waited + " ms for a reader (" + shape
                    + "); the read never ran", null);
        }
        set.stats.increment(ReaderStats.CHECKOUT_TIMEOUTS);
        return new AdmissionTimeoutException(set.name + ": no reader became free within "
                + set.checkoutTimeout.toMillis() + " ms (waited " + waited + " ms; " + shape
                + "); the read never ran. Retry later, or raise readers or readerCheckoutTimeout");
    }

    /**
     * Fails every waiter with {@link ClosedException} (a close that does not drain) and empties
     * the queue: parked threads are woken.
     *
     * @return the asynchronous waiters, to tell with {@link #deliver} after the lock
     */
    // guarded by lock
    List<Waiter> failAll() {
        List<Waiter> refusedNow = new ArrayList<>();
        for (Waiter w : waiters) {
            LanesException e = new ClosedException(set.name + ": the database was shut "
                    + "down before this read got a reader; it never ran");
            w.cancelTimeout();
            w.failure = e;
            if (w.condition != null) {
                w.condition.signal();
            } else {
                refusedNow.add(w);
            }
        }
        waiters.clear();
        set.queued = 0;
        return refusedNow;
    }

    /** Tells asynchronous waiters refused by {@link #failAll}; call after the lock. */
    void deliver(List<Waiter> refusedNow) {
        for (Waiter w : refusedNow) {
            set.metrics.readerCheckout(set.clock.nanoTime() - w.enqueuedAt, false);
            w.callback.refused(w.failure);
        }
    }

    /**
     * {@link ReaderSet#acquireAsync}: a slot now, or a place in the set's queue, whose grant
     * callback runs on the thread that frees a slot.
     */
    static Waiter admitAsync(ReaderSet set, boolean hasDeadline, long deadline,
            AsyncAdmission callback) {
        Lease lease = set.tryFast();
        if (lease == null) {
            List<Waiter> asyncGrants;
            Waiter w;
            set.lock.lock();
            try {
                set.checkAdmission();
                if (set.queued == 0 && set.takeSlot()) {
                    lease = set.granted(set.takeIdle());
                    w = null;
                    asyncGrants = null;
                } else {
                    w = set.queue().addAsync(hasDeadline, deadline, callback);
                    asyncGrants = set.handOff(); // may grant w itself
                }
            } finally {
                set.lock.unlock();
            }
            if (w != null) {
                runGrants(set, asyncGrants);
                return w;
            }
        }
        set.metrics.readerCheckout(0, true);
        callback.granted(lease);
        return null;
    }

    /** Tells asynchronous waiters granted under the lock ({@link ReaderSet#handOff}); after it. */
    static void runGrants(ReaderSet set, List<Waiter> asyncGrants) {
        if (asyncGrants != null) {
            for (Waiter w : asyncGrants) {
                set.metrics.readerCheckout(w.lease.acquiredAt - w.enqueuedAt, true);
                w.callback.granted(w.lease);
            }
        }
    }
}
