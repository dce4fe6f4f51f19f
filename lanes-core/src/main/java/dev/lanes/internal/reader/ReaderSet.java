package dev.lanes.internal.reader;

import dev.lanes.AdmissionTimeoutException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReaderDiagnostics;
import dev.lanes.internal.file.Identity;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sqlite.SqliteConnections;
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
 * deadline. The queue, with its expiry and the delivery of refusals, is a {@link WaitQueue} on
 * this set's lock.
 *
 * <h2>Connections</h2>
 * Connections open lazily, on the thread that runs the read (always a platform thread). Each
 * has a home slot in {@link IdleSlots}, where it waits between reads, preferably for the thread
 * that used it last. A read returns its lease with a verdict: reusable, or dirty, in which case
 * the connection is closed and a later read opens a replacement; {@link ReaderCloser} closes
 * connections off the lock, each on a platform thread.
 *
 * <h2>Concurrency</h2>
 * The common path takes no lock: on a machine with fewer cores than readers, a lock taken twice
 * per read convoys (threads preempted while holding it park the others for milliseconds).
 * <ul>
 *   <li>{@link #free} counts free slots (volatile, changed only atomically through {@link
 *       #FREE}). A read may take one with a CAS only while {@code
 *       queued} ({@link WaitQueue#queued}) is 0 and the set is {@code OPEN}; otherwise it goes
 *       through {@link #lock}.
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
 * Fields marked "guarded by lock" are read and written only under {@link #lock}; {@code
 * queued} and {@link #state} are written only under it and read anywhere. Nothing else (no
 * SQLite call, no callback, no pool submission) runs while holding the lock: grant callbacks
 * and connection closes are collected under it and run after.
 *
 * <h2>Metrics</h2>
 * Every end of a wait for a reader, with one or without, is reported once ({@link
 * MetricsReporter#readerCheckout}), on the thread that learns it and never under the lock: a
 * read admitted at once reports a wait of 0; a parked read when it wakes; an asynchronous one
 * when its grant or refusal is delivered, or when it is cancelled while it waits. The gauges
 * {@link #inUse()} and {@link #waiting()} read {@link #free} and {@code queued}, without the lock.
 *
 * <h2>Closing</h2>
 * {@link #beginClose} stops admission ({@link ClosingException}, then {@link ClosedException}),
 * closes the idle connections at once, lets reads in flight (and, when draining, the reads
 * already waiting) finish, closes each connection as it comes back, and completes the returned
 * future once none is checked out and none waits. That future ({@link #closed}) is made when
 * first asked for or at the close, whichever comes first, set once by compare-and-set, so that
 * an open set holds none; it is never handed to users as is.
 *
 * <p>A close that does not wait for reads ({@link #abortReads}: a shutdown, or a close past its
 * timeout) stops the reads running inside SQLite and ends the ones held between pages ({@link
 * ReadAborts}), so that their readers come back and the close completes.
 */
public final class ReaderSet {

    private enum State { OPEN, CLOSING, CLOSED }

    // name, capacity, checkoutTimeout, clock, metrics, lock and stats are read by its WaitQueue
    final String name;
    final int capacity;
    final Duration checkoutTimeout;
    private final ConnectionBudget budget;
    final Clock clock;
    /** Opens and sets up each new connection; knows whether the file is ready for readers. */
    final ReaderOpener opener;
    /** Runs the closes a virtual thread may not run; see {@link #closeOutsideLock}. */
    private final WorkerPool pool;
    volatile MetricsReporter metrics = MetricsReporter.NONE;

    /** Free slots: {@code capacity} minus the leases out. */
    private volatile int free;
    /** Idle connections in their home slots; homes assigned under {@link #lock}. */
    private final IdleSlots idle;
    private volatile State state = State.OPEN; // written under lock

    final ReentrantLock lock = new ReentrantLock();
    /** The reads waiting for a slot; its size is written under {@link #lock}. */
    private final WaitQueue queue;
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

    ReaderSet(String name, Path path, int capacity, Duration checkoutTimeout,
            Duration busyTimeout, int statementCacheSize, SqliteConnections.Limits limits,
            ConnectionBudget budget, WorkerPool pool, Timer timer, Clock clock,
            ConnectionSettings settings) {
        this.clock = clock;
        this.opener = new ReaderOpener(name, path, busyTimeout, statementCacheSize, limits,
                settings, clock);
        this.name = name;
        this.capacity = capacity;
        this.checkoutTimeout = checkoutTimeout;
        this.budget = budget;
        this.free = capacity;
        this.idle = new IdleSlots(capacity);
        this.pool = pool;
        this.queue = new WaitQueue(timer, pool, this);
    }

    /** Told after each reader connection opens (the database becomes a candidate for eviction). */
    private volatile Runnable onConnectionOpened = () -> {};

    public void onConnectionOpened(Runnable hook) {
        this.onConnectionOpened = hook;
    }

    /** Installs the identity check run on every reader connection opened from now on. */
    public void identity(Identity identity) {
        opener.identity(identity);
    }

    /** Installs the database's metrics reporter, told how each wait for a reader ended. */
    public void metrics(MetricsReporter metrics) {
        this.metrics = metrics;
    }

    /** Readers checked out by reads now; a gauge, read without the lock. */
    public int inUse() {
        return capacity - free;
    }

    /** Reads waiting for a reader now; a gauge, read without the lock. */
    public int waiting() {
        return queue.queued();
    }

    /** Installs a fault injector for reader connections opened from now on; for tests. */
    public void faults(FaultInjector injector) {
        opener.faults(injector);
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
            if (queue.isEmpty() && takeSlot()) {
                return granted(idle.take());
            }
            w = queue.addParked(hasDeadline, deadline);
            asyncGrants = handOff(); // a slot freed since the check above
            deliver = queue.park(w);
            if (w.failure != null) {
                throw w.failure;
            }
            return w.lease;
        } finally {
            lock.unlock();
            runGrants(asyncGrants);
            if (deliver) {
                queue.submitDelivery();
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
                if (queue.isEmpty() && takeSlot()) {
                    lease = granted(idle.take());
                    w = null;
                    asyncGrants = null;
                } else {
                    w = queue.addAsync(hasDeadline, deadline, callback);
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
        if (queue.queued() != 0 || state != State.OPEN) {
            return null;
        }
        if (!takeSlot()) {
            return null;
        }
        if (state != State.OPEN) {
            releaseSlot(); // the set began closing meanwhile: back off, fail on the locked path
            return null;
        }
        return granted(idle.take());
    }

    /** Takes a free slot with a CAS; false when none is free. */
    private boolean takeSlot() {
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

    private Lease granted(ReaderConnection c) {
        stats.acquired();
        return new Lease(c, clock.nanoTime());
    }

    /**
     * Gives free slots to the head waiters while both exist.
     *
     * @return the asynchronous waiters granted, whose callbacks run after the lock
     */
    // guarded by lock
    private List<Waiter> handOff() {
        List<Waiter> asyncGrants = null;
        while (!queue.isEmpty() && takeSlot()) {
            Waiter w = queue.pollFirst();
            w.lease = granted(idle.take());
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

    private void runGrants(List<Waiter> asyncGrants) {
        if (asyncGrants != null) {
            for (Waiter w : asyncGrants) {
                metrics.readerCheckout(w.lease.acquiredAt - w.enqueuedAt, true);
                w.callback.granted(w.lease);
            }
        }
    }

    /** Takes an asynchronous read out of the queue; see {@link WaitQueue#cancel}. */
    boolean cancelWaiting(Waiter w) {
        return queue.cancel(w);
    }

    // guarded by lock
    private void checkAdmission() {
        if (state != State.OPEN) {
            throw ReadFailures.refused(name, state == State.CLOSING);
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
        ReaderConnection c = opener.open();
        budget.opened();
        onConnectionOpened.run();
        lock.lock();
        try {
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
            if (queue.queued() == 0 && state == State.OPEN) {
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
                if (reusable && c.home >= 0 && (state == State.OPEN || !queue.isEmpty())) {
                    idle.put(c);
                } else {
                    toClose = new ArrayList<>(1);
                    toClose.add(c);
                    idle.forget(c);
                    if (!reusable) {
                        stats.increment(ReaderStats.REPLACED);
                    }
                }
                FREE.getAndAdd(this, 1);
            }
            asyncGrants = handOff();
            if (state != State.OPEN && queue.isEmpty()) {
                toClose = idle.takeAll(toClose); // no one left to use them
            }
            finished = finishIfDone();
        } finally {
            lock.unlock();
        }
        runGrants(asyncGrants);
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
        if (state == State.CLOSING && queue.isEmpty() && free == capacity) {
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
            toClose = idle.takeAll(null);
        } finally {
            lock.unlock();
        }
        closeOutsideLock(toClose, false);
        return toClose == null ? 0 : toClose.size();
    }

    /** How many reader connections are open now, idle or leased. */
    public int openConnections() {
        lock.lock();
        try {
            return idle.open();
        } finally {
            lock.unlock();
        }
    }

    /** A point-in-time view; never touches SQLite. */
    public ReaderDiagnostics diagnostics() {
        lock.lock();
        try {
            int out = capacity - free;
            return stats.diagnostics(capacity, checkoutTimeout, opener.busyTimeout(), out,
                    idle.open(), queue.size());
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
        List<Waiter> refusedNow = List.of();
        List<ReaderConnection> toClose = null;
        boolean finished = false;
        lock.lock();
        try {
            if (state == State.OPEN) {
                state = State.CLOSING; // then read free (in finishIfDone): see the class comment
            }
            if (!drain) {
                refusedNow = queue.failAll();
            }
            if (state == State.CLOSING) {
                if (queue.isEmpty()) {
                    toClose = idle.takeAll(null);
                }
                finished = finishIfDone();
            }
        } finally {
            lock.unlock();
        }
        queue.deliver(refusedNow);
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

    // ------------------------------------------------------------------ reads not waited for

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
            open = idle.allOpen();
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
