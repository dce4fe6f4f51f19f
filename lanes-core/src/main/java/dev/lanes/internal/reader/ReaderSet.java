package dev.lanes.internal.reader;

import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.file.Identity;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Threads;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.AdmissionTimeoutException;
import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReaderDiagnostics;
import dev.lanes.WriteOutcome;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only connections of one database and the admission of reads to them.
 *
 * <h2>Admission</h2>
 * At most {@code readers} reads hold a reader at a time; each holds a {@link Lease} (a slot,
 * plus a connection once opened). A read that finds a slot free and nobody waiting takes it at
 * once; otherwise it joins one FIFO queue of waiters. A slot freed while reads wait goes to the
 * head waiter, so a newcomer never overtakes a waiter (no barging), and waiters are served, and
 * time out, in arrival order. A waiter is either a thread parked on its own condition (a platform
 * thread that will run the read itself, or a virtual thread that will hand it to the pool) or an
 * asynchronous read, whose grant callback submits it to the pool and whose timeout runs on the
 * runtime's timer; no pool thread ever waits for admission. A wait ends after {@code
 * readerCheckoutTimeout} with {@link AdmissionTimeoutException}, or earlier at the read's own
 * deadline.
 *
 * <h2>Connections</h2>
 * Connections open lazily, on the thread that runs the read (always a platform thread). Each
 * has a home slot in {@link #idleSlots}, where it waits between reads; a thread looks first in
 * the slot its id maps to, so a thread tends to get the connection it used last (its page cache
 * and the driver's monitor stay warm, as with a connection per thread). A read returns its lease
 * with a verdict: reusable, or dirty, in which case the connection is closed and a later read
 * opens a replacement. Every native close runs on a platform thread: inline when the caller is
 * one, else as a pool task.
 *
 * <h2>Concurrency</h2>
 * The common path takes no lock: on a machine with fewer cores than readers, a lock taken twice
 * per read convoys (threads preempted while holding it park the others for milliseconds).
 * <ul>
 *   <li>{@link #free} counts free slots. A read may take one with a CAS only while {@link
 *       #queued} is 0 and the set is {@code OPEN}; otherwise it goes through {@link #lock}.
 *   <li>A returning read puts its connection in its home slot <em>before</em> it increments
 *       {@code free}, so whoever takes the slot finds a connection idle; then it reads {@code
 *       queued} and {@link #state}, and if a read waits or the set is closing, hands slots over
 *       under the lock ({@link #handOff}).
 *   <li>A waiter publishes {@code queued} under the lock and then tries to take a free slot
 *       itself; with the returning read's order above (write {@code free}, read {@code queued}
 *       versus write {@code queued}, read {@code free}) one of the two always sees the other,
 *       so no slot is stranded while a read waits.
 *   <li>A read that took a slot on the fast path re-reads {@code state}; if the set began
 *       closing meanwhile it gives the slot back and fails. The closer writes {@code state} and
 *       then reads {@code free}, so either the reader backs off or the closer waits for it.
 * </ul>
 * Fields marked "guarded by lock" are read and written only under {@link #lock}; {@link
 * #queued} and {@link #state} are written only under it and read anywhere. Nothing else (no
 * SQLite call, no callback, no pool submission) runs while holding the lock: grant callbacks
 * and connection closes are collected under it and run after.
 *
 * <h2>Metrics</h2>
 * Every end of a wait for a reader, with one or without, is reported once ({@link
 * MetricsReporter#readerCheckout}), on the thread that learns it and never under the lock: a
 * read admitted at once reports a wait of 0; a parked read when it wakes; an asynchronous one
 * when its grant or refusal is delivered, or when it is cancelled while it waits. The gauges
 * {@link #inUse()} and {@link #waiting()} read {@link #free} and {@link #queued}, without the
 * lock.
 *
 * <h2>Closing</h2>
 * {@link #beginClose} stops admission ({@link ClosingException}, then {@link ClosedException}),
 * closes the idle connections at once, lets reads in flight (and, when draining, the reads
 * already waiting) finish, closes each connection as it comes back, and completes the returned
 * future once none is checked out and none waits.
 */
public final class ReaderSet {
    private static final Logger log = LoggerFactory.getLogger(LogNames.READS);

    private enum State { OPEN, CLOSING, CLOSED }

    /** A slot held by one read, and its connection once opened. */
    static final class Lease {
        final long acquiredAt;
        /** Null until the read opens one; owned by the lease holder. */
        ReaderConnection connection;

        Lease(ReaderConnection connection, long acquiredAt) {
            this.connection = connection;
            this.acquiredAt = acquiredAt;
        }
    }

    /** Told, after the lock is released, how an asynchronous admission ended. */
    interface AsyncAdmission {
        /** The read got a slot; it must {@link #release} the lease whatever happens. */
        void granted(Lease lease);

        /** The read will not get a slot; it never ran. */
        void refused(LanesException failure);
    }

    /** One read waiting for a slot. */
    static final class Waiter {
        final Condition condition; // sync waiters
        final AsyncAdmission callback; // async waiters
        final long enqueuedAt;
        /** When the wait ends: the checkout timeout, or the read's deadline if sooner. */
        final long end;
        final boolean deadlineFirst;
        // guarded by lock
        Lease lease;
        LanesException failure;
        Timer.Scheduled timeout;

        Waiter(Condition condition, AsyncAdmission callback, long enqueuedAt,
                long checkoutTimeoutNanos, boolean hasDeadline, long deadline) {
            this.enqueuedAt = enqueuedAt;
            this.condition = condition;
            this.callback = callback;
            long admissionEnd = enqueuedAt + checkoutTimeoutNanos;
            this.deadlineFirst = hasDeadline && deadline - admissionEnd < 0;
            this.end = deadlineFirst ? deadline : admissionEnd;
        }
    }

    private final String name;
    private final Path path;
    private final int capacity;
    private final Duration checkoutTimeout;
    private final Duration busyTimeout;
    private final int statementCacheSize;
    private final ConnectionBudget budget;
    private final WorkerPool pool;
    private final Timer timer;
    private final Clock clock;
    private volatile FaultInjector faults = FaultInjector.NONE;
    /** The sqlite3 limits every new connection gets. */
    private final SqliteConnections.Limits limits;
    /** Checks each new connection against the file first opened; null checks nothing. */
    private volatile Identity identity;
    private volatile MetricsReporter metrics = MetricsReporter.NONE;

    /** Free slots: {@code capacity} minus the leases out. */
    private final AtomicInteger free;
    /** Idle connections, each in its home slot; null where none waits. */
    private final AtomicReferenceArray<ReaderConnection> idleSlots;
    private volatile int queued; // written under lock: waiters.size()
    private volatile State state = State.OPEN; // written under lock

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** Asynchronous waiters that timed out, in the order they did, awaiting their callback. */
    private final ArrayDeque<Waiter> refused = new ArrayDeque<>();
    private boolean deliveringRefusals;
    private final boolean[] homeTaken;
    private int openConnections;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    private final AtomicInteger peakCheckedOut = new AtomicInteger();
    private final AtomicLong longestHoldNanos = new AtomicLong();
    private final LongAdder acquisitions = new LongAdder();
    private final LongAdder completedCheckouts = new LongAdder();
    private final LongAdder checkoutTimeouts = new LongAdder();
    private final LongAdder busyTimeouts = new LongAdder();
    private final LongAdder replaced = new LongAdder();
    private final LongAdder deadlines = new LongAdder();
    private final LongAdder cancellations = new LongAdder();

    ReaderSet(String name, Path path, int capacity, Duration checkoutTimeout,
            Duration busyTimeout, int statementCacheSize, SqliteConnections.Limits limits,
            ConnectionBudget budget, WorkerPool pool, Timer timer, Clock clock) {
        this.clock = clock;
        this.limits = limits;
        this.name = name;
        this.path = path;
        this.capacity = capacity;
        this.checkoutTimeout = checkoutTimeout;
        this.busyTimeout = busyTimeout;
        this.statementCacheSize = statementCacheSize;
        this.budget = budget;
        this.pool = pool;
        this.timer = timer;
        this.free = new AtomicInteger(capacity);
        this.idleSlots = new AtomicReferenceArray<>(capacity);
        this.homeTaken = new boolean[capacity];
    }

    /** Installs the identity check run on every reader connection opened from now on. */
    /** Told after each reader connection opens (the database becomes a candidate for eviction). */
    private volatile Runnable onConnectionOpened = () -> {};

    public void onConnectionOpened(Runnable hook) {
        this.onConnectionOpened = hook;
    }

    public void identity(Identity identity) {
        this.identity = identity;
    }

    /** Installs the database's metrics reporter, told how each wait for a reader ended. */
    public void metrics(MetricsReporter metrics) {
        this.metrics = metrics;
    }

    /** Readers checked out by reads now; a gauge, read without the lock. */
    public int inUse() {
        return capacity - free.get();
    }

    /** Reads waiting for a reader now; a gauge, read without the lock. */
    public int waiting() {
        return queued;
    }

    /** Installs a fault injector for reader connections opened from now on; for tests. */
    public void faults(FaultInjector injector) {
        this.faults = injector == null ? FaultInjector.NONE : injector;
    }

    /** A duration in nanoseconds, saturating instead of overflowing for absurd values. */
    static long nanos(Duration d) {
        try {
            return Math.min(d.toNanos(), Long.MAX_VALUE / 4);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }

    // ------------------------------------------------------------------ admission

    /**
     * Waits, on this thread, for a slot: at most {@code readerCheckoutTimeout}, and not past the
     * read's deadline.
     *
     * @throws LanesException when the read is not admitted; it never ran
     */
    Lease acquire(boolean hasDeadline, long deadline) {
        Lease lease = tryFast();
        MetricsReporter m = metrics;
        if (lease != null) {
            m.readerCheckout(0, true);
            return lease;
        }
        if (!m.enabled()) {
            return await(hasDeadline, deadline);
        }
        long asked = clock.nanoTime();
        boolean acquired = false;
        try {
            lease = await(hasDeadline, deadline);
            acquired = true;
            return lease;
        } finally {
            m.readerCheckout(clock.nanoTime() - asked, acquired);
        }
    }

    /** {@link #acquire} past the lock-free path: under the lock, parked while it waits. */
    private Lease await(boolean hasDeadline, long deadline) {
        Lease lease = tryFast();
        if (lease != null) {
            return lease;
        }
        Waiter w;
        boolean deliver = false;
        List<Waiter> asyncGrants = null;
        lock.lock();
        try {
            checkAdmission();
            if (waiters.isEmpty() && takeSlot()) {
                return granted(takeIdle());
            }
            w = new Waiter(lock.newCondition(), null, clock.nanoTime(), nanos(checkoutTimeout), hasDeadline,
                    deadline);
            waiters.addLast(w);
            queued = waiters.size();
            asyncGrants = handOff(); // a slot freed since the check above
            try {
                while (w.lease == null && w.failure == null) {
                    long remaining = w.end - clock.nanoTime();
                    if (remaining <= 0) {
                        deliver = expireDue(); // this waiter, and any earlier one also due
                        break;
                    }
                    clock.awaitNanos(lock, w.condition, remaining);
                }
            } catch (InterruptedException e) {
                if (w.lease == null && w.failure == null) {
                    waiters.remove(w);
                    queued = waiters.size();
                    Thread.currentThread().interrupt();
                    cancellations.increment();
                    throw new CancelledException(WriteOutcome.NOT_STARTED, name + ": interrupted "
                            + "while waiting for a reader; the read never ran", e);
                }
                Thread.currentThread().interrupt(); // granted or refused meanwhile: go on
            }
            if (w.failure != null) {
                throw w.failure;
            }
            return w.lease;
        } finally {
            lock.unlock();
            runGrants(asyncGrants);
            if (deliver) {
                pool.submit(new OneShot(this::deliverRefusals));
            }
        }
    }

    /**
     * Asks for a slot without blocking. The callback runs on this thread when a slot is free now,
     * else later on the thread that frees one, or from the pool when the wait ends.
     *
     * @return the waiter to pass to {@link #cancelWaiting}, or null when admitted at once
     * @throws LanesException when the set is closing or closed; the read never ran
     */
    Waiter acquireAsync(boolean hasDeadline, long deadline, AsyncAdmission callback) {
        try {
            return admitAsync(hasDeadline, deadline, callback);
        } catch (LanesException refused) {
            metrics.readerCheckout(0, false); // refused at once: its wait ended there
            throw refused;
        }
    }

    private Waiter admitAsync(boolean hasDeadline, long deadline, AsyncAdmission callback) {
        Lease lease = tryFast();
        if (lease == null) {
            List<Waiter> asyncGrants;
            Waiter w;
            lock.lock();
            try {
                checkAdmission();
                if (waiters.isEmpty() && takeSlot()) {
                    lease = granted(takeIdle());
                    w = null;
                    asyncGrants = null;
                } else {
                    w = new Waiter(null, callback, clock.nanoTime(), nanos(checkoutTimeout),
                            hasDeadline, deadline);
                    waiters.addLast(w);
                    queued = waiters.size();
                    try {
                        w.timeout = timer.schedule(this::expire, w.end - clock.nanoTime());
                    } catch (RejectedExecutionException e) {
                        waiters.remove(w);
                        queued = waiters.size();
                        throw new ClosedException(name + ": the runtime is closed; the read "
                                + "never ran");
                    }
                    asyncGrants = handOff(); // may grant w itself
                }
            } finally {
                lock.unlock();
            }
            if (w != null) {
                runGrants(asyncGrants);
                return w;
            }
        }
        metrics.readerCheckout(0, true);
        callback.granted(lease);
        return null;
    }

    /** The lock-free path: a free slot, nobody waiting, the set open. Null otherwise. */
    private Lease tryFast() {
        if (queued != 0 || state != State.OPEN) {
            return null;
        }
        if (!takeSlot()) {
            return null;
        }
        if (state != State.OPEN) {
            releaseSlot(); // the set began closing meanwhile: back off, fail on the locked path
            return null;
        }
        return granted(takeIdle());
    }

    /** Takes a free slot with a CAS; false when none is free. */
    private boolean takeSlot() {
        while (true) {
            int f = free.get();
            if (f <= 0) {
                return false;
            }
            if (free.compareAndSet(f, f - 1)) {
                int out = capacity - f + 1;
                if (out > peakCheckedOut.get()) {
                    peakCheckedOut.accumulateAndGet(out, Math::max);
                }
                return true;
            }
        }
    }

    private Lease granted(ReaderConnection c) {
        acquisitions.increment();
        return new Lease(c, clock.nanoTime());
    }

    /** An idle connection, preferring the slot this thread maps to; null when none is idle. */
    private ReaderConnection takeIdle() {
        int start = (int) (Thread.currentThread().getId() % capacity);
        for (int i = 0; i < capacity; i++) {
            int slot = (start + i) % capacity;
            ReaderConnection c = idleSlots.get(slot);
            if (c != null && idleSlots.compareAndSet(slot, c, null)) {
                return c;
            }
        }
        return null;
    }

    /**
     * Gives free slots to the head waiters while both exist.
     *
     * @return the asynchronous waiters granted, whose callbacks run after the lock
     */
    // guarded by lock
    private List<Waiter> handOff() {
        List<Waiter> asyncGrants = null;
        while (!waiters.isEmpty() && takeSlot()) {
            Waiter w = waiters.pollFirst();
            queued = waiters.size();
            w.lease = granted(takeIdle());
            if (w.timeout != null) {
                w.timeout.cancel();
            }
            if (w.condition != null) {
                w.condition.signal();
            } else {
                if (asyncGrants == null) {
                    asyncGrants = new ArrayList<>(1);
                }
                asyncGrants.add(w);
            }
        }
        return asyncGrants;
    }

    private void runGrants(List<Waiter> asyncGrants) {
        if (asyncGrants != null) {
            for (Waiter w : asyncGrants) {
                metrics.readerCheckout(w.lease.acquiredAt - w.enqueuedAt, true);
                w.callback.granted(w.lease);
            }
        }
    }

    /**
     * Takes an asynchronous read out of the queue (its future was cancelled).
     *
     * @return whether it was still waiting; when false, its grant or refusal is already under way
     */
    boolean cancelWaiting(Waiter w) {
        lock.lock();
        try {
            if (!waiters.remove(w)) {
                return false;
            }
            queued = waiters.size();
            if (w.timeout != null) {
                w.timeout.cancel();
            }
            cancellations.increment();
        } finally {
            lock.unlock();
        }
        metrics.readerCheckout(clock.nanoTime() - w.enqueuedAt, false);
        return true;
    }

    /** On the timer thread, when an asynchronous wait may have ended. */
    private void expire() {
        boolean deliver;
        lock.lock();
        try {
            deliver = expireDue();
        } finally {
            lock.unlock();
        }
        if (deliver) {
            pool.submit(new OneShot(this::deliverRefusals));
        }
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
        long now = clock.nanoTime();
        boolean queuedRefusal = false;
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.end - now > 0) {
                continue;
            }
            it.remove();
            queued = waiters.size();
            w.failure = timedOut(w);
            if (w.condition != null) {
                w.condition.signal();
            } else {
                if (w.timeout != null) {
                    w.timeout.cancel();
                }
                refused.addLast(w);
                queuedRefusal = true;
            }
        }
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
            lock.lock();
            try {
                w = refused.pollFirst();
                if (w == null) {
                    deliveringRefusals = false;
                    return;
                }
            } finally {
                lock.unlock();
            }
            metrics.readerCheckout(clock.nanoTime() - w.enqueuedAt, false);
            try {
                w.callback.refused(w.failure);
            } catch (RuntimeException e) {
                log.warn("{}: telling a read that it timed out failed", name, e);
            }
        }
    }

    // guarded by lock
    private LanesException timedOut(Waiter w) {
        long waited = TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - w.enqueuedAt);
        String shape = "capacity " + capacity + ", " + (capacity - free.get()) + " in use, "
                + waiters.size() + " other reads waiting";
        if (w.deadlineFirst) {
            deadlines.increment();
            return new DeadlineExceededException(WriteOutcome.NOT_STARTED, name + ": the read's "
                    + "deadline passed after waiting " + waited + " ms for a reader (" + shape
                    + "); the read never ran", null);
        }
        checkoutTimeouts.increment();
        return new AdmissionTimeoutException(name + ": no reader became free within "
                + checkoutTimeout.toMillis() + " ms (waited " + waited + " ms; " + shape
                + "); the read never ran. Retry later, or raise readers or readerCheckoutTimeout");
    }

    // guarded by lock
    private void checkAdmission() {
        if (state == State.CLOSING) {
            throw new ClosingException(name + ": the database is closing and accepts no more "
                    + "reads; the read never ran");
        }
        if (state == State.CLOSED) {
            throw new ClosedException(name + ": the database is closed; the read never ran");
        }
    }

    // ------------------------------------------------------------------ connections

    /**
     * The lease's connection, opened now if it has none. Runs on the platform thread that runs
     * the read.
     *
     * @throws ReadFailedException when no connection can be opened; the read never ran
     */
    ReaderConnection connect(Lease lease) {
        if (lease.connection != null) {
            return lease.connection;
        }
        ReaderConnection c;
        try {
            c = ReaderConnection.open(path, busyTimeout, statementCacheSize, limits, faults,
                    clock);
        } catch (SQLException | RuntimeException e) {
            throw new ReadFailedException(WriteOutcome.NOT_STARTED, name + ": cannot open a reader "
                    + "connection (" + e.getMessage() + "); the read never ran", e);
        }
        Identity id = identity;
        if (id != null) {
            try {
                id.onReaderOpened(c.raw); // a swapped file: IdentityMismatchException, unwrapped
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e instanceof LanesException ? (LanesException) e : new ReadFailedException(
                        WriteOutcome.NOT_STARTED, name + ": cannot check the identity of a new "
                        + "reader connection (" + e.getMessage() + "); the read never ran", e);
            }
        }
        budget.opened();
        onConnectionOpened.run();
        lock.lock();
        try {
            openConnections++;
            for (int i = 0; i < capacity; i++) {
                if (!homeTaken[i]) {
                    homeTaken[i] = true;
                    c.home = i;
                    break;
                }
            }
            // With every home taken (a connection that raced past an idle one), c.home stays
            // -1 and the connection is closed after this read.
        } finally {
            lock.unlock();
        }
        lease.connection = c;
        return c;
    }

    /**
     * Returns a lease. Its connection goes back to its home slot when {@code reusable}, and is
     * closed otherwise (a dirty reader is replaced by a fresh one on a later read).
     */
    void release(Lease lease, boolean reusable) {
        ReaderConnection c = lease.connection;
        lease.connection = null;
        long held = clock.nanoTime() - lease.acquiredAt;
        completedCheckouts.increment();
        if (held > longestHoldNanos.get()) {
            longestHoldNanos.accumulateAndGet(held, Math::max);
        }
        if (c != null && reusable && c.home >= 0 && state == State.OPEN) {
            idleSlots.set(c.home, c); // before the slot is freed: its next holder finds it
            c = null;
        }
        if (c == null && state == State.OPEN) {
            free.incrementAndGet();
            if (queued == 0 && state == State.OPEN) {
                return; // the common case: nobody waits, nothing closes
            }
        } else if (c == null) {
            free.incrementAndGet();
        }
        slowRelease(c, reusable);
    }

    /**
     * Under the lock: closes a connection that is not kept (dirty, homeless, or returned while
     * closing), frees the slot if the fast path did not, hands slots to waiters, and finishes a
     * close that waited for this lease.
     *
     * @param c the connection still to place, or null when it went back already
     */
    private void slowRelease(ReaderConnection c, boolean reusable) {
        List<ReaderConnection> toClose = null;
        List<Waiter> asyncGrants;
        boolean finished;
        lock.lock();
        try {
            if (c != null) {
                if (reusable && c.home >= 0 && (state == State.OPEN || !waiters.isEmpty())) {
                    idleSlots.set(c.home, c);
                } else {
                    toClose = new ArrayList<>(1);
                    toClose.add(c);
                    forget(c);
                    if (!reusable) {
                        replaced.increment();
                    }
                }
                free.incrementAndGet();
            }
            asyncGrants = handOff();
            if (state != State.OPEN && waiters.isEmpty()) {
                toClose = takeAllIdle(toClose); // no one left to use them
            }
            finished = finishIfDone();
        } finally {
            lock.unlock();
        }
        runGrants(asyncGrants);
        closeConnections(toClose, finished);
    }

    /** Gives back a slot taken on the fast path that may not be used (the set is closing). */
    private void releaseSlot() {
        free.incrementAndGet();
        slowRelease(null, true);
    }

    // guarded by lock: a connection leaving the set
    private void forget(ReaderConnection c) {
        openConnections--;
        if (c.home >= 0) {
            homeTaken[c.home] = false;
        }
    }

    // guarded by lock
    private List<ReaderConnection> takeAllIdle(List<ReaderConnection> into) {
        List<ReaderConnection> list = into;
        for (int i = 0; i < capacity; i++) {
            ReaderConnection c = idleSlots.getAndSet(i, null);
            if (c != null) {
                if (list == null) {
                    list = new ArrayList<>(capacity);
                }
                list.add(c);
                forget(c);
            }
        }
        return list;
    }

    /** Completes the close once nothing is out and nothing waits; true when it did now. */
    // guarded by lock
    private boolean finishIfDone() {
        if (state == State.CLOSING && waiters.isEmpty() && free.get() == capacity) {
            state = State.CLOSED;
            return true;
        }
        return false;
    }

    /** Closes connections on a platform thread, then completes the close when {@code last}. */
    private void closeConnections(List<ReaderConnection> connections, boolean last) {
        if ((connections == null || connections.isEmpty()) && !last) {
            return;
        }
        Runnable closing = () -> {
            if (connections != null) {
                for (ReaderConnection c : connections) {
                    c.close();
                    budget.closed();
                }
            }
            if (last) {
                closed.complete(null);
            }
        };
        if (connections == null || connections.isEmpty() || !Threads.currentIsVirtual()) {
            closing.run();
        } else {
            pool.submit(new OneShot(closing));
        }
    }

    /** Work handed to the pool: a native close for a virtual thread, or timed-out waits. */
    private final class OneShot implements WorkerPool.Task {
        private final Runnable action;

        OneShot(Runnable action) {
            this.action = action;
        }

        @Override
        public void runTurn() {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.warn("{}: reader housekeeping failed", name, e);
            }
        }

        @Override
        public boolean background() {
            return false;
        }
    }

    /**
     * An idle release: closes the connections idle now, to give their memory back; reads in
     * flight keep theirs, and a later read opens a fresh one. Runs on a platform thread.
     *
     * @return how many connections it closed
     */
    public int releaseIdle() {
        List<ReaderConnection> toClose;
        lock.lock();
        try {
            toClose = takeAllIdle(null);
        } finally {
            lock.unlock();
        }
        closeConnections(toClose, false);
        return toClose == null ? 0 : toClose.size();
    }

    // ------------------------------------------------------------------ statistics

    void busyTimedOut() {
        busyTimeouts.increment();
    }

    void deadlineExceeded() {
        deadlines.increment();
    }

    void cancelled() {
        cancellations.increment();
    }

    /** A point-in-time view; never touches SQLite. */
    public ReaderDiagnostics diagnostics() {
        lock.lock();
        try {
            int out = capacity - free.get();
            return new ReaderDiagnostics(capacity, checkoutTimeout, busyTimeout,
                    Math.max(0, capacity - out), openConnections, waiters.size(),
                    acquisitions.sum(), checkoutTimeouts.sum(), busyTimeouts.sum(), out,
                    peakCheckedOut.get(), completedCheckouts.sum(),
                    Duration.ofNanos(longestHoldNanos.get()), replaced.sum(), deadlines.sum(),
                    cancellations.sum());
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ closing

    /**
     * Stops admission and closes the connections once the reads in flight returned them; with
     * {@code drain} false, reads still waiting for a reader fail {@link ClosedException}.
     * Idempotent.
     *
     * @return completes when every reader connection is closed
     */
    CompletableFuture<Void> beginClose(boolean drain) {
        List<Waiter> refusedNow = new ArrayList<>();
        List<ReaderConnection> toClose = null;
        boolean finished = false;
        lock.lock();
        try {
            if (state == State.OPEN) {
                state = State.CLOSING; // then read free (in finishIfDone): see the class comment
            }
            if (!drain) {
                for (Waiter w : waiters) {
                    LanesException e = new ClosedException(name + ": the database was shut "
                            + "down before this read got a reader; it never ran");
                    if (w.timeout != null) {
                        w.timeout.cancel();
                    }
                    w.failure = e;
                    if (w.condition != null) {
                        w.condition.signal();
                    } else {
                        refusedNow.add(w);
                    }
                }
                waiters.clear();
                queued = 0;
            }
            if (state == State.CLOSING) {
                if (waiters.isEmpty()) {
                    toClose = takeAllIdle(null);
                }
                finished = finishIfDone();
            }
        } finally {
            lock.unlock();
        }
        for (Waiter w : refusedNow) {
            metrics.readerCheckout(clock.nanoTime() - w.enqueuedAt, false);
            w.callback.refused(w.failure);
        }
        closeConnections(toClose, finished);
        return closed;
    }

    /** Whether every reader connection is closed after {@link #beginClose}. */
    public boolean isClosed() {
        return closed.isDone();
    }
}
