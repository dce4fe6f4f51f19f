package dev.lanes.internal.reader;

import dev.lanes.AdmissionTimeoutException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DatabaseOptions;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReaderDiagnostics;
import dev.lanes.internal.file.Identity;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.util.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The read-only connections of one database and the admission of reads to them: at most {@code
 * readers} reads hold a reader at a time, admitted in arrival order; see the package comment for
 * admission, connections, metrics and closing.
 *
 * <h2>Concurrency</h2>
 * The common path takes no lock: on a machine with fewer cores than readers, a lock taken twice
 * per read convoys (threads preempted while holding it park the others for milliseconds).
 * <ul>
 *   <li>{@link #free} counts free slots (volatile, changed only atomically through {@link
 *       #FREE}). A read may take one with a CAS only while {@link #queued} is 0 and the set is
 *       {@code OPEN}; otherwise it goes through {@link #lock}.
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
 *   <li>What only a used set needs is made when first needed and dropped when it is idle again,
 *       so that an idle database holds a set of final fields, counters and {@link #lock}
 *       alone: the {@link IdleSlots} (volatile; made by the first connection's {@link #connect}
 *       and dropped when the last one leaves, both under the lock; a lock-free take that
 *       reads a dropped one finds nothing, see {@link IdleSlots}), the {@link WaitQueue}
 *       (guarded by lock; made by the first read that waits and dropped by an idle release
 *       once drained, see {@link WaitQueue}), and the {@link ReaderOpener} (made per
 *       connection opened). The fast path reads {@link #queued} and {@link #idle} once each
 *       (volatile reads, no lock) and allocates nothing but its {@link Lease}.
 * </ul>
 * Fields marked "guarded by lock" are read and written only under {@link #lock}; {@code
 * queued} and {@link #state} are written only under it and read anywhere. Nothing else (no
 * SQLite call, no callback, no pool submission) runs while holding the lock: grant callbacks
 * and connection closes are collected under it and run after.
 *
 * <p>Metrics: every end of a wait for a reader is reported once ({@link
 * MetricsReporter#readerCheckout}), on the thread that learns it and never under the lock. The
 * gauges {@link #inUse()} and {@link #waiting()} read {@link #free} and {@link #queued}.
 * {@link #closed} and {@link #aborts} are made when first needed, set once by compare-and-set.
 */
public final class ReaderSet {

    private enum State { OPEN, CLOSING, CLOSED }

    // name, capacity, checkoutTimeout, clock, metrics, lock, stats and queued are read by its
    // WaitQueue
    final String name;
    final int capacity;
    final Duration checkoutTimeout;
    private final Path path;
    /** What each new connection is opened with ({@link ReaderOpener}, made per open). */
    private final DatabaseOptions options;
    /** Checks each new connection against the file first opened; null checks nothing. */
    private final Identity identity;
    private final ConnectionBudget budget;
    final Clock clock;
    /** Runs the closes a virtual thread may not run; see {@link #closeOutsideLock}. */
    private final WorkerPool pool;
    private final Timer timer;
    final MetricsReporter metrics;
    /** Told after each reader connection opens (the database becomes a candidate for eviction). */
    private final Runnable onConnectionOpened;
    private volatile FaultInjector faults = FaultInjector.NONE;
    /** A one-way latch, set without a lock: see {@link #walReady()}. */
    private volatile boolean walReady;

    /** Free slots: {@code capacity} minus the leases out. */
    private volatile int free;
    /** Reads waiting now: written under {@link #lock} by {@link #queue}, read anywhere. */
    volatile int queued;
    /** Idle connections in their home slots while any is open, else null; see the comment. */
    private volatile IdleSlots idle;
    private volatile State state = State.OPEN; // written under lock

    final ReentrantLock lock = new ReentrantLock();
    /** The reads waiting for a slot, made by the first that waits; null while none. */
    // guarded by lock
    private WaitQueue queue;
    /** Made when first asked for or at the close, whichever is first; see {@link #beginClose}. */
    private volatile CompletableFuture<Void> closed;
    /** The reads a close does not wait for; made by the first held read or abort. */
    private volatile ReadAborts aborts;

    private static final VarHandle FREE =
            VarHandles.field(MethodHandles.lookup(), "free", int.class);
    private static final VarHandle CLOSED =
            VarHandles.field(MethodHandles.lookup(), "closed", CompletableFuture.class);
    private static final VarHandle ABORTS =
            VarHandles.field(MethodHandles.lookup(), "aborts", ReadAborts.class);

    /** The counters of {@link #diagnostics()}; lock-free, touched by every read. */
    final ReaderStats stats = new ReaderStats();

    /**
     * @param identity checks each new connection against the file; null checks nothing
     * @param metrics told how each wait for a reader ended
     * @param onConnectionOpened told after each reader connection opens
     */
    public ReaderSet(String name, Path path, DatabaseOptions options, Identity identity,
            MetricsReporter metrics, Runnable onConnectionOpened, ConnectionBudget budget,
            WorkerPool pool, Timer timer, Clock clock) {
        this.name = name;
        this.path = path;
        this.options = options;
        this.capacity = options.readers();
        this.checkoutTimeout = options.readerCheckoutTimeout();
        this.identity = identity;
        this.metrics = metrics;
        this.onConnectionOpened = onConnectionOpened;
        this.budget = budget;
        this.pool = pool;
        this.timer = timer;
        this.clock = clock;
        this.free = capacity;
    }

    /** Readers checked out by reads now; a gauge, read without the lock. */
    public int inUse() {
        return capacity - free;
    }

    /** Reads waiting for a reader now; a gauge, read without the lock. */
    public int waiting() {
        return queued;
    }

    /** Installs a fault injector for reader connections opened from now on; for tests. */
    public void faults(FaultInjector injector) {
        this.faults = injector == null ? FaultInjector.NONE : injector;
    }

    /**
     * Whether the file is known to be a WAL database (seen so by a read, or made so by the
     * writer's open), so that a reader, which opens read-only and cannot make it one, may open
     * without waiting for the writer; kept here, as {@link Reads} is made per use.
     */
    boolean walReady() {
        return walReady;
    }

    void markWalReady() {
        walReady = true;
    }

    /** The queue, made now if none; see {@link WaitQueue}. */
    // guarded by lock
    WaitQueue queue() {
        if (queue == null) {
            queue = new WaitQueue(timer, pool, this);
        }
        return queue;
    }

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
        WaitQueue q = null;
        boolean deliver = false;
        List<Waiter> asyncGrants = null;
        lock.lock();
        try {
            checkAdmission();
            if (queued == 0 && takeSlot()) {
                return granted(takeIdle());
            }
            q = queue();
            w = q.addParked(hasDeadline, deadline);
            asyncGrants = handOff(); // a slot freed since the check above
            deliver = q.park(w);
            if (w.failure != null) {
                throw w.failure;
            }
            return w.lease;
        } finally {
            lock.unlock();
            WaitQueue.runGrants(this, asyncGrants);
            if (deliver) {
                q.submitDelivery();
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
            return WaitQueue.admitAsync(this, hasDeadline, deadline, callback);
        } catch (LanesException refused) {
            metrics.readerCheckout(0, false); // refused at once: its wait ended there
            throw refused;
        }
    }

    /** The lock-free path: a free slot, nobody waiting, the set open. Null otherwise. */
    Lease tryFast() {
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

    /** An idle connection for a slot just taken; null when none is idle (one opens). */
    ReaderConnection takeIdle() {
        IdleSlots s = idle;
        return s == null ? null : s.take();
    }

    /** Takes a free slot with a CAS; false when none is free. */
    boolean takeSlot() {
        while (true) {
            int f = free;
            if (f <= 0) {
                return false;
            }
            if (FREE.compareAndSet(this, f, f - 1)) {
                int out = capacity - f + 1;
                stats.checkedOut(out);
                return true;
            }
        }
    }

    Lease granted(ReaderConnection c) {
        stats.acquired();
        return new Lease(c, clock.nanoTime());
    }

    /**
     * Gives free slots to the head waiters while both exist.
     *
     * @return the asynchronous waiters granted, whose callbacks run after the lock
     */
    // guarded by lock
    List<Waiter> handOff() {
        List<Waiter> asyncGrants = null;
        while (queued != 0 && takeSlot()) {
            Waiter w = queue.pollFirst();
            w.lease = granted(takeIdle());
            w.cancelTimeout();
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

    /** Takes an asynchronous read out of the queue; see {@link WaitQueue#cancel}. */
    boolean cancelWaiting(Waiter w) {
        WaitQueue q;
        lock.lock();
        try {
            q = queue; // w is in no other: a queue is dropped only once drained
        } finally {
            lock.unlock();
        }
        return q != null && q.cancel(w);
    }

    // guarded by lock
    void checkAdmission() {
        if (state != State.OPEN) {
            throw ReadFailures.refused(name, state == State.CLOSING);
        }
    }

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
        ReaderConnection c = new ReaderOpener(name, path, options, identity, faults, clock).open();
        budget.opened();
        onConnectionOpened.run();
        lock.lock();
        try {
            if (idle == null) {
                idle = new IdleSlots(capacity);
            }
            idle.assignHome(c);
        } finally {
            lock.unlock();
        }
        ReadAborts a = aborts; // after the lock: an abort either listed c or is seen here
        if (a != null && a.stopped()) {
            c.stopForClose();
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
        stats.returned(held);
        if (c != null && reusable && c.home >= 0 && state == State.OPEN) {
            idle.put(c); // before the slot is freed: its next holder finds it
            c = null;
        }
        if (c == null && state == State.OPEN) {
            FREE.getAndAdd(this, 1);
            if (queued == 0 && state == State.OPEN) {
                return; // the common case: nobody waits, nothing closes
            }
        } else if (c == null) {
            FREE.getAndAdd(this, 1);
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
                if (reusable && c.home >= 0 && (state == State.OPEN || queued != 0)) {
                    idle.put(c);
                } else {
                    toClose = new ArrayList<>(1);
                    toClose.add(c);
                    if (idle.forget(c)) {
                        idle = null; // none open: see IdleSlots
                    }
                    if (!reusable) {
                        stats.increment(ReaderStats.REPLACED);
                    }
                }
                FREE.getAndAdd(this, 1);
            }
            asyncGrants = handOff();
            if (state != State.OPEN && queued == 0) {
                toClose = takeAllIdle(toClose); // no one left to use them
            }
            finished = finishIfDone();
        } finally {
            lock.unlock();
        }
        WaitQueue.runGrants(this, asyncGrants);
        closeOutsideLock(toClose, finished);
    }

    /** Gives back a slot taken on the fast path that may not be used (the set is closing). */
    private void releaseSlot() {
        FREE.getAndAdd(this, 1);
        slowRelease(null, true);
    }

    /** Completes the close once nothing is out and nothing waits; true when it did now. */
    // guarded by lock
    private boolean finishIfDone() {
        if (state == State.CLOSING && queued == 0 && free == capacity) {
            state = State.CLOSED;
            return true;
        }
        return false;
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
            if (queue != null && queue.drained()) {
                queue = null; // made again by the next read that waits
            }
        } finally {
            lock.unlock();
        }
        closeOutsideLock(toClose, false);
        return toClose == null ? 0 : toClose.size();
    }

    /** Takes every idle connection out; see {@link IdleSlots#takeAll}. */
    // guarded by lock
    private List<ReaderConnection> takeAllIdle(List<ReaderConnection> into) {
        IdleSlots s = idle;
        if (s == null) {
            return into;
        }
        List<ReaderConnection> taken = s.takeAll(into);
        if (s.open() == 0) {
            idle = null; // none open: see IdleSlots
        }
        return taken;
    }

    /** How many reader connections are open now, idle or leased. */
    public int openConnections() {
        lock.lock();
        try {
            IdleSlots s = idle;
            return s == null ? 0 : s.open();
        } finally {
            lock.unlock();
        }
    }

    /** A point-in-time view; never touches SQLite. */
    public ReaderDiagnostics diagnostics() {
        lock.lock();
        try {
            int out = capacity - free;
            IdleSlots s = idle;
            return stats.diagnostics(capacity, checkoutTimeout, options.busyTimeout(), out,
                    s == null ? 0 : s.open(), queued);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops admission and closes the connections once the reads in flight returned them; with
     * {@code drain} false, reads still waiting for a reader fail {@link ClosedException}.
     * Idempotent.
     *
     * @return completes when every reader connection is closed
     */
    CompletableFuture<Void> beginClose(boolean drain) {
        List<Waiter> refusedNow = List.of();
        List<ReaderConnection> toClose = null;
        boolean finished = false;
        WaitQueue q;
        lock.lock();
        try {
            if (state == State.OPEN) {
                state = State.CLOSING; // then read free (in finishIfDone): see the class comment
            }
            q = queue;
            if (!drain && q != null) {
                refusedNow = q.failAll();
            }
            if (state == State.CLOSING) {
                if (queued == 0) {
                    toClose = takeAllIdle(null);
                }
                finished = finishIfDone();
            }
        } finally {
            lock.unlock();
        }
        if (q != null) {
            q.deliver(refusedNow);
        }
        closeOutsideLock(toClose, finished);
        return VarHandles.getOrSet(CLOSED, this, CompletableFuture::new);
    }

    /**
     * Closes connections this set let go of (may be null), then completes the close when {@code
     * last}; with the lock released. See {@link ReaderCloser}.
     */
    private void closeOutsideLock(List<ReaderConnection> connections, boolean last) {
        ReaderCloser.close(name, connections, last ? () -> VarHandles.complete(CLOSED, this)
                : null, budget, pool);
    }

    /** The reads a close does not wait for, and the reads held between pages; made now if none. */
    ReadAborts aborts() {
        return VarHandles.getOrSet(ABORTS, this, ReadAborts::new);
    }

    /**
     * Ends every read now, for a close that does not wait for them (see {@link ReadAborts}):
     * the reads running and every read that starts from now on are stopped inside SQLite and
     * fail saying {@code why}; the reads held between pages end. On the calling thread.
     */
    public void abortReads(String why) {
        ReadAborts a = aborts();
        a.stopping(why); // before the list: a connection opened after it sees why (connect)
        List<ReaderConnection> open;
        lock.lock();
        try {
            IdleSlots s = idle;
            open = s == null ? List.of() : s.allOpen();
        } finally {
            lock.unlock();
        }
        a.abort(open, why);
    }

    /** Why a close stopped this set's reads ({@link #abortReads}); for their failure. */
    String closedBecause() {
        ReadAborts a = aborts;
        return a == null ? ReadAborts.UNSAID : a.why();
    }

    /** Whether every reader connection is closed after {@link #beginClose}. */
    public boolean isClosed() {
        CompletableFuture<Void> c = closed;
        return c != null && c.isDone();
    }
}
