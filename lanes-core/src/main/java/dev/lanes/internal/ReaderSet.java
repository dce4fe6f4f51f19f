package dev.lanes.internal;

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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
 * once; otherwise it joins one FIFO queue of waiters. A returned slot goes straight to the head
 * waiter, with the returned connection, so a newcomer can never overtake a waiter (no barging)
 * and waiters are served, and time out, in arrival order. A waiter is either a thread parked on
 * its own condition (a platform thread that will run the read itself, or a virtual thread that
 * will hand it to the pool) or an asynchronous read, whose grant callback submits it to the pool
 * and whose timeout runs on the runtime's timer; no pool thread ever waits for
 * admission. A wait ends after {@code readerCheckoutTimeout} with {@link
 * AdmissionTimeoutException}, or earlier at the read's own deadline.
 *
 * <h2>Connections</h2>
 * Connections open lazily, on the thread that runs the read (always a platform thread), and are
 * reused LIFO (the warmest first). A read returns its lease with a verdict: reusable, or dirty, in
 * which case the connection is closed and the next read opens a replacement. Every native close
 * runs on a platform thread: inline when the caller is one, else as a pool task.
 *
 * <h2>Concurrency</h2>
 * Every field marked "guarded by lock" is read and written only under {@link #lock}; nothing
 * else (no SQLite call, no callback, no pool submission) runs while holding it. Grant callbacks
 * and connection closes are collected under the lock and run after it is released. Statistics
 * that only grow are {@link LongAdder}s, written without the lock.
 *
 * <h2>Closing</h2>
 * {@link #beginClose} stops admission ({@link ClosingException}, then {@link ClosedException}),
 * closes the idle connections at once, lets reads in flight (and, when draining, the reads
 * already waiting) finish, closes each connection as it comes back, and completes the returned
 * future once none is checked out and none waits.
 */
final class ReaderSet {
    private static final Logger log = LoggerFactory.getLogger(ReaderSet.class);

    private enum State { OPEN, CLOSING, CLOSED }

    /** A slot held by one read, and its connection once opened. */
    static final class Lease {
        /** Identifies the lease in stop requests; unique within the set. */
        final long token;
        final long acquiredAt;
        /** Null until the read opens one; owned by the lease holder. */
        ReaderConnection connection;

        Lease(long token, ReaderConnection connection) {
            this.token = token;
            this.connection = connection;
            this.acquiredAt = System.nanoTime();
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
        final long enqueuedAt = System.nanoTime();
        final boolean deadlineFirst;
        // guarded by lock
        Lease lease;
        LanesException failure;
        ScheduledFuture<?> timeout;

        Waiter(Condition condition, AsyncAdmission callback, boolean deadlineFirst) {
            this.condition = condition;
            this.callback = callback;
            this.deadlineFirst = deadlineFirst;
        }
    }

    private final String name;
    private final Path path;
    private final int capacity;
    private final Duration checkoutTimeout;
    private final Duration busyTimeout;
    private final int statementCacheSize;
    private final LanesRuntime runtime;
    private final WorkerPool pool;
    private final ScheduledExecutorService timer;
    private volatile FaultInjector faults = FaultInjector.NONE;
    /** Checks each new connection against the file first opened; null checks nothing. */
    private volatile Identity identity;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final ArrayDeque<ReaderConnection> idle = new ArrayDeque<>();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private State state = State.OPEN;
    private int checkedOut;
    private int peakCheckedOut;
    private int openConnections;
    private long nextToken = 1;
    private long longestHoldNanos;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    private final LongAdder acquisitions = new LongAdder();
    private final LongAdder completedCheckouts = new LongAdder();
    private final LongAdder checkoutTimeouts = new LongAdder();
    private final LongAdder busyTimeouts = new LongAdder();
    private final LongAdder replaced = new LongAdder();
    private final LongAdder deadlines = new LongAdder();
    private final LongAdder cancellations = new LongAdder();

    ReaderSet(String name, Path path, int capacity, Duration checkoutTimeout,
            Duration busyTimeout, int statementCacheSize, LanesRuntime runtime, WorkerPool pool,
            ScheduledExecutorService timer) {
        this.name = name;
        this.path = path;
        this.capacity = capacity;
        this.checkoutTimeout = checkoutTimeout;
        this.busyTimeout = busyTimeout;
        this.statementCacheSize = statementCacheSize;
        this.runtime = runtime;
        this.pool = pool;
        this.timer = timer;
    }

    /** Installs the identity check run on every reader connection opened from now on. */
    void identity(Identity identity) {
        this.identity = identity;
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
        Waiter w;
        lock.lock();
        try {
            checkAdmission();
            if (waiters.isEmpty() && checkedOut < capacity) {
                return grantNow();
            }
            long now = System.nanoTime();
            long admissionEnd = now + nanos(checkoutTimeout);
            boolean deadlineFirst = hasDeadline && deadline - admissionEnd < 0;
            long end = deadlineFirst ? deadline : admissionEnd;
            w = new Waiter(lock.newCondition(), null, deadlineFirst);
            waiters.addLast(w);
            try {
                while (w.lease == null && w.failure == null) {
                    long remaining = end - System.nanoTime();
                    if (remaining <= 0) {
                        waiters.remove(w);
                        throw timedOut(w);
                    }
                    w.condition.awaitNanos(remaining);
                }
            } catch (InterruptedException e) {
                if (w.lease == null && w.failure == null) {
                    waiters.remove(w);
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
        }
    }

    /**
     * Asks for a slot without blocking. The callback runs on this thread when a slot is free now,
     * else later on the thread that frees one, or on the timer thread when the wait ends.
     *
     * @return the waiter to pass to {@link #cancelWaiting}, or null when admitted at once
     * @throws LanesException when the set is closing or closed; the read never ran
     */
    Waiter acquireAsync(boolean hasDeadline, long deadline, AsyncAdmission callback) {
        Lease lease;
        lock.lock();
        try {
            checkAdmission();
            if (!waiters.isEmpty() || checkedOut >= capacity) {
                long admissionEnd = System.nanoTime() + nanos(checkoutTimeout);
                boolean deadlineFirst = hasDeadline && deadline - admissionEnd < 0;
                long end = deadlineFirst ? deadline : admissionEnd;
                Waiter w = new Waiter(null, callback, deadlineFirst);
                waiters.addLast(w);
                try {
                    w.timeout = timer.schedule(() -> expire(w),
                            Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException e) {
                    waiters.remove(w);
                    throw new ClosedException(name + ": the runtime is closed; the read never ran");
                }
                return w;
            }
            lease = grantNow();
        } finally {
            lock.unlock();
        }
        callback.granted(lease);
        return null;
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
            if (w.timeout != null) {
                w.timeout.cancel(false);
            }
            cancellations.increment();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void expire(Waiter w) {
        LanesException failure;
        lock.lock();
        try {
            if (!waiters.remove(w)) {
                return; // granted or cancelled in time
            }
            failure = timedOut(w);
        } finally {
            lock.unlock();
        }
        w.callback.refused(failure);
    }

    // guarded by lock
    private LanesException timedOut(Waiter w) {
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - w.enqueuedAt);
        String shape = capacity + " readers, " + checkedOut + " in use, " + waiters.size()
                + " other reads waiting";
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

    // guarded by lock
    private Lease grantNow() {
        checkedOut++;
        if (checkedOut > peakCheckedOut) {
            peakCheckedOut = checkedOut;
        }
        acquisitions.increment();
        return new Lease(nextToken++, idle.pollFirst());
    }

    /**
     * Passes the slot of a returning lease to the head waiter, if any: a parked thread is
     * signalled; an asynchronous waiter is returned, for its callback to run after the lock.
     */
    // guarded by lock
    private Waiter grantToHead() {
        Waiter w = waiters.pollFirst();
        if (w == null) {
            return null;
        }
        acquisitions.increment();
        w.lease = new Lease(nextToken++, idle.pollFirst());
        if (w.timeout != null) {
            w.timeout.cancel(false);
        }
        if (w.condition != null) {
            w.condition.signal();
        }
        return w;
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
            c = ReaderConnection.open(path, busyTimeout, statementCacheSize, faults);
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
        runtime.connectionOpened();
        lock.lock();
        try {
            openConnections++;
        } finally {
            lock.unlock();
        }
        lease.connection = c;
        return c;
    }

    /**
     * Returns a lease. Its connection goes back to the set when {@code reusable}, and is closed
     * otherwise (a dirty reader is replaced by a fresh one on a later read).
     */
    void release(Lease lease, boolean reusable) {
        ReaderConnection c = lease.connection;
        lease.connection = null;
        List<ReaderConnection> toClose = null;
        Waiter granted;
        boolean finished = false;
        long held = System.nanoTime() - lease.acquiredAt;
        lock.lock();
        try {
            completedCheckouts.increment();
            if (held > longestHoldNanos) {
                longestHoldNanos = held;
            }
            if (c != null) {
                boolean keep = reusable && (state == State.OPEN || !waiters.isEmpty());
                if (keep) {
                    idle.addFirst(c);
                } else {
                    toClose = new ArrayList<>(1);
                    toClose.add(c);
                    openConnections--;
                    if (!reusable) {
                        replaced.increment();
                    }
                }
            }
            granted = grantToHead();
            if (granted == null) {
                checkedOut--;
            }
            if (state == State.CLOSING && checkedOut == 0 && waiters.isEmpty()) {
                toClose = takeIdle(toClose);
                state = State.CLOSED;
                finished = true;
            }
        } finally {
            lock.unlock();
        }
        if (granted != null && granted.callback != null) {
            granted.callback.granted(granted.lease);
        }
        closeConnections(toClose, finished);
    }

    // guarded by lock
    private List<ReaderConnection> takeIdle(List<ReaderConnection> into) {
        List<ReaderConnection> list = into == null ? new ArrayList<>(idle.size()) : into;
        list.addAll(idle);
        openConnections -= idle.size();
        idle.clear();
        return list;
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
                    runtime.connectionClosed();
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

    /** A native close handed to the pool by a virtual thread. */
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
                log.warn("{}: closing reader connections failed", name, e);
            }
        }

        @Override
        public boolean background() {
            return false;
        }
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
    ReaderDiagnostics diagnostics() {
        lock.lock();
        try {
            return new ReaderDiagnostics(capacity, checkoutTimeout, busyTimeout,
                    Math.max(0, capacity - checkedOut), openConnections, waiters.size(),
                    acquisitions.sum(), checkoutTimeouts.sum(), busyTimeouts.sum(), checkedOut,
                    peakCheckedOut, completedCheckouts.sum(), Duration.ofNanos(longestHoldNanos),
                    replaced.sum(), deadlines.sum(), cancellations.sum());
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
        List<Waiter> refused = new ArrayList<>();
        List<ReaderConnection> toClose = null;
        boolean finished = false;
        lock.lock();
        try {
            if (state == State.OPEN) {
                state = State.CLOSING;
            }
            if (!drain) {
                for (Waiter w : waiters) {
                    LanesException e = new ClosedException(name + ": the database was shut "
                            + "down before this read got a reader; it never ran");
                    if (w.timeout != null) {
                        w.timeout.cancel(false);
                    }
                    if (w.condition != null) {
                        w.failure = e;
                        w.condition.signal();
                    } else {
                        w.failure = e;
                        refused.add(w);
                    }
                }
                waiters.clear();
            }
            if (state == State.CLOSING) {
                if (waiters.isEmpty()) {
                    toClose = takeIdle(null);
                }
                if (checkedOut == 0 && waiters.isEmpty()) {
                    state = State.CLOSED;
                    finished = true;
                }
            }
        } finally {
            lock.unlock();
        }
        for (Waiter w : refused) {
            w.callback.refused(w.failure);
        }
        closeConnections(toClose, finished);
        return closed;
    }

    /** Whether every reader connection is closed after {@link #beginClose}. */
    boolean isClosed() {
        return closed.isDone();
    }
}
