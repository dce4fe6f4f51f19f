package dev.lanes.internal;

import dev.lanes.BusyException;
import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.QueueFullException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.WriteRequest.Kind;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of one database: a bounded queue drained by one connection, one turn at a
 * time, with group commit.
 *
 * <h2>Concurrency</h2>
 * Fields marked "guarded by lock" are read and written only under {@link #lock}. The lane is in
 * one of three run states: {@code IDLE} (nobody holds it, nothing is scheduled), {@code
 * SCHEDULED} (submitted to the pool exactly once) or {@code RUNNING} (exactly one thread, the
 * {@link #holder}, runs a turn). Only the party that moves the state out of {@code IDLE} submits
 * the lane to the pool, so it is never queued twice and never runs on two threads. The writer
 * connection and everything marked "turn only" are touched only by the holder; the lock's
 * hand-offs order one holder's writes before the next holder's reads.
 *
 * <p>A platform-thread caller that finds the lane {@code IDLE} with an empty queue becomes the
 * holder itself and runs the turn on its own thread (the leader path): a pool hop costs ~60 µs
 * here against ~8 µs for a one-row commit. Everyone else queues and waits on a future. Under
 * contention the leader path is switched off ({@link #contended}): callers woken together by one
 * group's delivery would otherwise each find the lane idle for an instant and lead groups of
 * one in a convoy, and the pool's hop is what lets a large group gather (measured at 64
 * writers: groups of ~2 with leaders against ~13 without, 89k against 107k writes/s).
 *
 * <h2>Turns</h2>
 * A turn takes the head of the queue: one top-level request or the close marker alone, or up to
 * {@code maxGroupSize} transactional requests as one group ({@code BEGIN IMMEDIATE}, each
 * request, {@code COMMIT}). After the turn the lane requeues itself if more work waits. Outcomes
 * are recorded during the turn and delivered after the lane is released, so no caller callback
 * ever runs while the lane is held.
 *
 * <h2>Isolation inside a group</h2>
 * A body in a group of two or more runs inside {@code SAVEPOINT}; on failure {@code ROLLBACK TO}
 * and {@code RELEASE} undo it alone. A single statement needs no savepoint (SQLite undoes a failed
 * statement by itself), nor does a group of one (the whole transaction is rolled back). A failure
 * can end the whole transaction ({@code OR ROLLBACK}, {@code RAISE(ROLLBACK)}, I/O errors): the
 * connection's commit/rollback hooks reveal it; nothing of the group persisted, the request that
 * ended it fails, and the others run once more in a fresh transaction (unless not {@link
 * dev.lanes.WriteOptions#replayable() replayable}).
 *
 * <h2>Honest outcomes</h2>
 * Every rollback is verified by probing that the connection left its transaction. When it cannot
 * be verified the affected requests end {@code UNKNOWN}, the writer is poisoned, queued work fails
 * {@code NOT_STARTED}, and later writes are refused; there is no silent restart.
 */
public final class WriterLane implements WorkerPool.Task {
    private static final Logger log = LoggerFactory.getLogger(WriterLane.class);

    private enum Run { IDLE, SCHEDULED, RUNNING }

    private final String name;
    private final Path path;
    private final DatabaseOptions options;
    private final WorkerPool pool;
    private final LanesRuntime runtime;
    /** Checks every new writer connection against the file first opened (and confirms the lease). */
    private final Identity identity;
    private volatile FaultInjector faults = FaultInjector.NONE;
    private volatile CommitObserver commitObserver = CommitObserver.NONE;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notFull = lock.newCondition();
    // guarded by lock
    private final ArrayDeque<WriteRequest> queue = new ArrayDeque<>();
    private Run run = Run.IDLE;
    private Thread holder;
    private DatabaseState state = DatabaseState.RUNNING;
    private String poisonCause;
    private Throwable deadCause;
    private int notFullWaiters;
    private int runningGroupSize;
    /**
     * Set when a turn finds more than one request waiting, cleared when a pool turn finds at
     * most one; while set, callers queue instead of leading.
     */
    private boolean contended;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    /** The interactive transaction the lane is pinned to; its steps run, the queue waits. */
    private InteractiveTransaction pinned;
    private final ArrayDeque<WriteRequest> steps = new ArrayDeque<>();
    private boolean corkRequested;
    private boolean openRequested;
    private boolean uncorkPending;

    private volatile boolean background;
    /** Whether writes are held in the cork's outer transaction; written by the holder. */
    private volatile boolean corked;

    // turn only
    private WriterConnection connection;
    private boolean generatedKeys = true;
    private final List<WriteRequest> drained = new ArrayList<>();
    /** Set by the turn that opened the connection, so the turn completes {@link #ready}. */
    private boolean justOpened;
    /** Whether the cork's outer transaction is open (it is reopened after a group ended it). */
    private boolean corkOuterOpen;
    /** Why corked writes were lost before uncork, if they were. */
    private String corkLost;

    private final WriterCounters counters = new WriterCounters();
    private final dev.lanes.MetricsListener metrics;
    /** The latest write's stages; replaced once per turn. */
    private volatile dev.lanes.WriteObservation lastWrite;
    /** When a turn last served requests; read by the idle check and by eviction. */
    private volatile long lastUsedNanos = System.nanoTime();
    /** Mirrors whether {@link #connection} is open, for eviction's racy scan. */
    private volatile boolean connectionOpen;
    // guarded by lock
    private boolean idleCheckArmed;
    /** The armed idle check; cancelled on close so the timer does not keep the lane alive. */
    private java.util.concurrent.ScheduledFuture<?> idleCheck;
    private volatile boolean releasedSinceUse;
    /** Whether an eviction has claimed the lane and not yet run. */
    private volatile boolean evictionPending;
    // turn only
    private boolean initialized;
    private volatile java.util.function.Consumer<Boolean> idleReleaseHook = close -> {};
    /** Whether the metrics listener has failed once already; logged in full only once. */
    private volatile boolean metricsFailed;
    /** Bound once: metrics bindings may hold them weakly for the database's lifetime. */
    private final dev.lanes.MetricsListener.DatabaseGauges gauges = new LaneGauges();
    /** Labels a slow-write warning carries at most. */
    static final int MAX_WRITE_LABELS = 8;
    private final DiskReserve diskReserve;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final CompletableFuture<dev.lanes.Termination> terminated = new CompletableFuture<>();

    WriterLane(Path path, String name, DatabaseOptions options, WorkerPool pool,
            LanesRuntime runtime, Identity identity) {
        this.identity = identity;
        this.path = path;
        this.name = name;
        this.metrics = runtime.metrics();
        this.options = options;
        this.pool = pool;
        this.runtime = runtime;
        this.diskReserve = new DiskReserve(name, path, options.diskReserveBytes());
    }

    /** Installs a fault injector; for tests of the failure paths. */
    public void faults(FaultInjector injector) {
        this.faults = injector == null ? FaultInjector.NONE : injector;
    }

    /** Installs the observer told of every commit that changed rows. */
    void commitObserver(CommitObserver observer) {
        this.commitObserver = observer == null ? CommitObserver.NONE : observer;
    }

    // ------------------------------------------------------------------ admission

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
        Admission admission;
        lock.lock();
        try {
            if (waits && holder == Thread.currentThread()) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": a body cannot wait for another write to its own database (it would "
                        + "wait for itself); use writeAsync or do the work in the same body", null);
            }
            checkAdmission();
            if (queue.size() >= options.writeQueueCapacity()) {
                awaitRoom(r);
            }
            r.depthAtEntry = queue.size();
            admission = admit(r, queue,
                    mayLead && run == Run.IDLE && queue.isEmpty() && !contended && pinned == null);
        } finally {
            lock.unlock();
        }
        proceed(admission, r);
    }

    /** What an admitted request does next, decided under the lock and done after it. */
    private enum Admission { LEAD, SCHEDULE, QUEUED }

    // guarded by lock: the caller leads the turn itself, or the request queues (and the lane is
    // scheduled when it was idle)
    private Admission admit(WriteRequest r, ArrayDeque<WriteRequest> into, boolean lead) {
        if (lead) {
            run = Run.RUNNING;
            holder = Thread.currentThread();
            return Admission.LEAD;
        }
        into.addLast(r);
        return scheduleIfIdle() ? Admission.SCHEDULE : Admission.QUEUED;
    }

    /**
     * Guarded by lock: an idle lane that was given work becomes scheduled, and the caller submits
     * it to the pool once the lock is released. A lane running or already scheduled will find the
     * work itself, so it is never submitted twice.
     *
     * @return whether the caller must submit the lane
     */
    private boolean scheduleIfIdle() {
        if (run != Run.IDLE) {
            return false;
        }
        run = Run.SCHEDULED;
        return true;
    }

    private void proceed(Admission admission, WriteRequest r) {
        if (admission == Admission.SCHEDULE) {
            pool.submit(this);
        } else if (admission == Admission.LEAD) {
            turn(r);
        }
    }

    /** Admits one step of the pinned interactive transaction; it runs ahead of the queue. */
    void submitStep(WriteRequest r, boolean mayLead) {
        Admission admission;
        lock.lock();
        try {
            if (holder == Thread.currentThread()) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body "
                        + "cannot call its own transaction (it would wait for itself)", null);
            }
            if (pinned != r.tx || r.tx.state != InteractiveTransaction.State.OPEN) {
                throw r.tx.notOpen();
            }
            admission = admit(r, steps, mayLead && run == Run.IDLE && steps.isEmpty());
        } finally {
            lock.unlock();
        }
        proceed(admission, r);
    }

    /** Corks the lane; returns once the outer transaction is open. */
    void cork(boolean mayLead) {
        lock.lock();
        try {
            checkAdmission();
            if (corkRequested) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": already corked; uncork first", null);
            }
            corkRequested = true;
        } finally {
            lock.unlock();
        }
        WriteRequest r = WriteRequest.cork();
        try {
            submit(r, mayLead, true);
        } catch (LanesException e) {
            resetCork();
            throw e;
        }
        DatabaseImpl.await(r);
    }

    /**
     * Requests the uncork. Returns the request to wait for, or null when it was deferred behind
     * an open interactive transaction (then nobody waits for it).
     */
    WriteRequest uncork() {
        WriteRequest r = WriteRequest.uncork();
        lock.lock();
        try {
            if (!corkRequested) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": not corked", null);
            }
            if (uncorkPending) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": an uncork is already pending", null);
            }
            if (pinned != null && !corked) {
                // The cork is still queued behind the open transaction: an uncork deferred now
                // would run before it and leave the database corked.
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": cork() "
                        + "has not taken effect yet (it waits behind an open transaction); "
                        + "uncork after it returned", null);
            }
            uncorkPending = true;
            if (pinned != null) {
                // Deferred: it runs when the transaction ends, ahead of writes queued since.
                queue.addFirst(r);
                r.future.whenComplete((v, e) -> {
                    if (e != null) {
                        log.error("{}: the deferred uncork failed", name, e);
                    }
                });
                return null;
            }
        } finally {
            lock.unlock();
        }
        try {
            submit(r, !Threads.currentIsVirtual(), true);
        } catch (LanesException e) {
            lock.lock();
            try {
                uncorkPending = false; // refused: it never ran, so it can be asked for again
            } finally {
                lock.unlock();
            }
            throw e;
        }
        return r;
    }

    private void resetCork() {
        lock.lock();
        try {
            corkRequested = false;
            uncorkPending = false;
        } finally {
            lock.unlock();
        }
    }

    /** Completes when the connection is open and initialized; opens it if nobody has yet. */
    CompletableFuture<Void> awaitReady() {
        if (!ready.isDone()) {
            boolean request;
            lock.lock();
            try {
                request = !openRequested && state == DatabaseState.RUNNING;
                openRequested = true;
            } finally {
                lock.unlock();
            }
            if (request) {
                submit(WriteRequest.open(), false, false);
            }
        }
        return ready;
    }

    CompletableFuture<dev.lanes.Termination> whenTerminated() {
        return terminated;
    }

    /** The gauges a metrics listener reads for this database; the same object every time. */
    dev.lanes.MetricsListener.DatabaseGauges gauges() {
        return gauges;
    }

    private final class LaneGauges implements dev.lanes.MetricsListener.DatabaseGauges {
        @Override
        public int queueDepth() {
            lock.lock();
            try {
                return queue.size();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean writerPoisoned() {
            return poisonCause() != null;
        }

        @Override
        public boolean transactionOpen() {
            return WriterLane.this.transactionOpen();
        }
    }

    String name() {
        return name;
    }

    /** Reports a close that gave up waiting; the close itself goes on. */
    void closeTimedOut(long nanos) {
        report(m -> m.databaseClosed(name, nanos, true));
    }

    /** Reports a database collected without close. */
    void uncleanClose() {
        report(m -> m.uncleanClose(name));
    }

    /** Listeners of interactive-transaction state; see {@link #onTransactionStateChange}. */
    private final java.util.concurrent.CopyOnWriteArrayList<TransactionStateListener> txListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    dev.lanes.Subscription onTransactionStateChange(java.util.function.Consumer<Boolean> listener) {
        TransactionStateListener l = new TransactionStateListener(listener);
        txListeners.add(l);
        return l;
    }

    /** Tells the listeners, on the notification thread, that a transaction opened or ended. */
    private void transactionStateChanged(boolean open) {
        if (txListeners.isEmpty()) {
            return;
        }
        runtime.changeDispatcher().submit(() -> {
            for (TransactionStateListener l : txListeners) {
                try {
                    l.listener.accept(open);
                } catch (RuntimeException e) {
                    log.warn("{}: a transaction-state listener failed; ignored", name, e);
                }
            }
        });
    }

    private final class TransactionStateListener implements dev.lanes.Subscription {
        final java.util.function.Consumer<Boolean> listener;

        TransactionStateListener(java.util.function.Consumer<Boolean> listener) {
            this.listener = listener;
        }

        @Override
        public boolean isActive() {
            return txListeners.contains(this);
        }

        @Override
        public void close() {
            txListeners.remove(this);
        }
    }

    /** Whether an interactive transaction pins the lane now. */
    boolean transactionOpen() {
        lock.lock();
        try {
            return pinned != null;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ idle release, eviction

    long lastUsedNanos() {
        return lastUsedNanos;
    }

    /**
     * Marks the database used by a read, so a database that is only read is not idle. Writes the
     * shared stamp at most about once a second, to keep reader threads off one cache line.
     */
    void touch() {
        long now = System.nanoTime();
        if (now - lastUsedNanos > TOUCH_GRANULARITY_NANOS || releasedSinceUse) {
            lock.lock();
            try {
                lastUsedNanos = now;
                releasedSinceUse = false;
                if (!idleCheckArmed && state == DatabaseState.RUNNING) {
                    armIdleRelease(options.idleRelease().toNanos());
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private static final long TOUCH_GRANULARITY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Installs what an idle release does to the database's other connections (its readers). */
    void idleReleaseHook(java.util.function.Consumer<Boolean> hook) {
        this.idleReleaseHook = hook;
    }

    // guarded by lock: one pending idle check at most, whatever the number of turns
    private void armIdleRelease(long delayNanos) {
        idleCheckArmed = true;
        try {
            idleCheck = runtime.timer().schedule(this::idleCheck, Math.max(0, delayNanos),
                    TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            idleCheckArmed = false; // the runtime is shutting down
        }
    }

    /** The idle check is due: release if still idle, else check again when it could be. */
    private void idleCheck() {
        boolean release = false;
        lock.lock();
        try {
            idleCheckArmed = false;
            if (state != DatabaseState.RUNNING || releasedSinceUse) {
                return;
            }
            long idleFor = System.nanoTime() - lastUsedNanos;
            long due = options.idleRelease().toNanos();
            if (idleFor < due) {
                armIdleRelease(due - idleFor);
            } else if (run == Run.IDLE && queue.isEmpty() && pinned == null && !corkRequested) {
                release = true;
            }
        } finally {
            lock.unlock();
        }
        if (release) {
            releaseInBackground(false);
        }
    }

    /** Whether the lane could give up its connections now (a racy hint for eviction). */
    boolean evictable() {
        if (evictionPending || !lock.tryLock()) {
            return false;
        }
        try {
            return run == Run.IDLE && queue.isEmpty() && pinned == null && !corkRequested
                    && state == DatabaseState.RUNNING;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the database's connections now, on the calling platform thread, if the lane is
     * idle and no other eviction claimed it; the lease stays held and the next use reopens
     * them. A lane in use, or held by a transaction or cork, is left alone.
     *
     * @return whether the connections were closed
     */
    boolean evictNow() {
        lock.lock();
        try {
            if (evictionPending) {
                return false;
            }
            evictionPending = true;
        } finally {
            lock.unlock();
        }
        try {
            return release(true);
        } finally {
            evictionPending = false;
        }
    }

    /** A reader connection opened: the database has connections an eviction could close. */
    void connectionsOpened() {
        runtime.connectionsOpened(this, null);
    }

    /**
     * Releases the database's resources as a background turn: memory and idle readers, and,
     * when {@code closeConnections} (eviction), the writer connection too. It is skipped when
     * the lane is in use by then, or a transaction or cork holds it.
     */
    void releaseInBackground(boolean closeConnections) {
        pool.submit(new WorkerPool.Task() {
            @Override
            public void runTurn() {
                release(closeConnections);
            }

            @Override
            public boolean background() {
                return true;
            }
        });
    }

    /** @return whether it ran (false: the lane was in use, or held by a transaction or cork) */
    private boolean release(boolean closeConnections) {
        lock.lock();
        try {
            if (run != Run.IDLE || !queue.isEmpty() || pinned != null || corkRequested
                    || state != DatabaseState.RUNNING) {
                return false;
            }
            run = Run.RUNNING;
            holder = Thread.currentThread();
            releasedSinceUse = true;
        } finally {
            lock.unlock();
        }
        try {
            if (connection != null) {
                if (closeConnections) {
                    closeQuietly();
                } else {
                    try (java.sql.Statement st = connection.raw.createStatement()) {
                        st.execute("PRAGMA shrink_memory");
                    } catch (SQLException e) {
                        log.debug("{}: shrink_memory failed", name, e);
                    }
                }
            }
            idleReleaseHook.accept(closeConnections);
            if (closeConnections) {
                runtime.connectionsReleased(this);
            }
        } catch (RuntimeException e) {
            log.warn("{}: releasing idle resources failed", name, e);
        } finally {
            finishTurn(false);
        }
        return true;
    }

    /** Whether writes are held by a cork; reads then run on the writer to see them. */
    boolean corked() {
        return corked;
    }

    // guarded by lock
    private void checkAdmission() {
        switch (state) {
            case RUNNING:
                break;
            case CLOSING:
                throw new ClosingException(name + ": the database is closing and accepts no more "
                        + "work; the request never ran");
            case CLOSED:
                throw new ClosedException(name + ": the database is closed; the request never ran");
            case DEAD:
            default:
                throw new DatabaseDeadException(name + ": the database is dead ("
                        + deadCause + "); the request never ran. Reopen it once the cause is fixed",
                        deadCause);
        }
        if (poisonCause != null) {
            throw new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the writer is "
                    + "poisoned and refuses work (" + poisonCause + "); reads continue. Check "
                    + "the data, then close and reopen the database", null);
        }
    }

    // guarded by lock; returns with room in the queue or throws
    private void awaitRoom(WriteRequest r) {
        if (r.options.enqueueTimeout().isEmpty()) {
            counters.overloads.increment();
            reportOverload();
            throw new OverloadedException(name + ": write queue full (" + queue.size()
                    + " queued, " + runningGroupSize + " in the running group); retry later or "
                    + "raise writeQueueCapacity");
        }
        Duration timeout = r.options.enqueueTimeout().get();
        long remaining = timeout.toNanos();
        notFullWaiters++;
        try {
            while (queue.size() >= options.writeQueueCapacity()) {
                if (remaining <= 0) {
                    counters.overloads.increment();
                    reportOverload();
                    throw new QueueFullException(name + ": write queue stayed full for "
                            + timeout.toMillis() + " ms (" + queue.size() + " queued, capacity "
                            + options.writeQueueCapacity() + "); the write never ran. Retry later "
                            + "or raise writeQueueCapacity");
                }
                try {
                    remaining = notFull.awaitNanos(remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CancelledException(WriteOutcome.NOT_STARTED, name + ": interrupted "
                            + "while waiting for room in the write queue; the write never ran", e);
                }
                checkAdmission();
            }
        } finally {
            notFullWaiters--;
        }
    }

    // ------------------------------------------------------------------ turns

    @Override
    public void runTurn() {
        lock.lock();
        try {
            run = Run.RUNNING;
            holder = Thread.currentThread();
        } finally {
            lock.unlock();
        }
        turn(null);
    }

    @Override
    public boolean background() {
        return background;
    }

    void background(boolean background) {
        this.background = background;
    }

    /** One turn, run by the holder; {@code first} is the leader's own request, if any. */
    private void turn(WriteRequest first) {
        List<WriteRequest> group = takeGroup(first);
        long started = System.nanoTime();
        for (WriteRequest r : group) {
            r.startedAt = started;
            r.groupSize = group.size();
        }
        try {
            execute(group);
        } catch (Throwable bug) {
            // Every expected failure is handled inside; this is a defect. Keep outcomes honest.
            log.error("{}: unexpected failure in a write turn; the writer is poisoned", name, bug);
            for (WriteRequest r : group) {
                if (!r.recorded()) {
                    r.fail(new WriteFailedException(WriteOutcome.UNKNOWN, name + ": internal "
                            + "error in the writer lane: " + bug, bug));
                }
            }
            poison("internal error in the writer lane: " + bug);
            report(m -> m.crash(name));
        } finally {
            // Observed before the lane is released, so that a caller who sees its outcome also
            // sees its observation, and a later group's can never be overwritten by this one.
            observe(group);
            // Taken while this thread still holds the lane: they are turn state, and the next
            // holder may fill them again (a poison drains the queue into `drained`) as soon as
            // finishTurn() released it.
            List<WriteRequest> drainedHere = drained.isEmpty() ? List.of() : new ArrayList<>(drained);
            drained.clear();
            boolean opened = justOpened;
            justOpened = false;
            finishTurn();
            for (WriteRequest r : group) {
                deliver(r);
            }
            for (WriteRequest r : drainedHere) {
                deliver(r);
            }
            if (opened) {
                ready.complete(null);
            }
        }
    }

    /**
     * Records the group's stages: {@link #lastWrite}, the metrics, and one WARN when writes
     * were slower than the threshold. Labels are resolved only for slow writes, so a fast write
     * never allocates for them.
     */
    private void observe(List<WriteRequest> group) {
        long now = System.nanoTime();
        long slowNanos = options.slowWriteThreshold().toNanos();
        WriteRequest last = null;
        List<String> labels = null;
        List<String> dropped = null;
        int slow = 0;
        long slowest = 0;
        for (WriteRequest r : group) {
            if (!r.observed()) {
                continue;
            }
            last = r;
            long total = now - r.enqueuedAt;
            if (total >= slowNanos) {
                slow++;
                slowest = Math.max(slowest, total);
                if (r.options.label().isPresent()) {
                    String label = r.options.label().get();
                    if (labels == null) {
                        labels = new ArrayList<>(4);
                    }
                    if (!labels.contains(label)) {
                        if (labels.size() < MAX_WRITE_LABELS) {
                            labels.add(label);
                        } else {
                            if (dropped == null) {
                                dropped = new ArrayList<>(4);
                            }
                            if (!dropped.contains(label)) {
                                dropped.add(label); // distinct labels past the bound count once
                            }
                        }
                    }
                }
            }
        }
        if (last == null) {
            return;
        }
        if (metrics != dev.lanes.MetricsListener.NONE) {
            reportMetrics(group, now);
        }
        int truncated = dropped == null ? 0 : dropped.size();
        long lastTotal = now - last.enqueuedAt;
        lastWrite = new dev.lanes.WriteObservation(
                Duration.ofNanos(Math.max(0, last.startedAt - last.enqueuedAt)),
                Duration.ofNanos(last.acquireNanos), Duration.ofNanos(last.bodyNanos),
                Duration.ofNanos(last.commitNanos), Duration.ofNanos(lastTotal),
                last.depthAtEntry, last.groupSize, java.time.Instant.now(),
                lastTotal >= slowNanos && labels != null ? List.copyOf(labels) : List.of(),
                lastTotal >= slowNanos ? truncated : 0);
        if (slow > 0) {
            long worst = slowest;
            log.warn("{}: {} slow write(s), the slowest {} ms (slowWriteThreshold {} ms), labels "
                    + "{}{}; last stages: queue wait {} ms, acquire {} ms, body {} ms, commit {} "
                    + "ms, group of {}", name, slow, TimeUnit.NANOSECONDS.toMillis(worst),
                    options.slowWriteThreshold().toMillis(), labels == null ? List.of() : labels,
                    truncated > 0 ? " (+" + truncated + " more)" : "",
                    TimeUnit.NANOSECONDS.toMillis(last.startedAt - last.enqueuedAt),
                    TimeUnit.NANOSECONDS.toMillis(last.acquireNanos),
                    TimeUnit.NANOSECONDS.toMillis(last.bodyNanos),
                    TimeUnit.NANOSECONDS.toMillis(last.commitNanos), last.groupSize);
            report(m -> m.slowWrite(name, Duration.ofNanos(worst)));
        }
    }

    private void reportMetrics(List<WriteRequest> group, long now) {
        report(m -> {
            for (WriteRequest r : group) {
                if (!r.observed()) {
                    continue;
                }
                m.queueWait(name, Math.max(0, r.startedAt - r.enqueuedAt));
                LanesException failure = r.failure();
                String kind = r.sql != null ? SqlText.firstKeyword(r.sql) : "BODY";
                m.command(name, r.operation(), r.kind != Kind.TOP_LEVEL, kind,
                        r.bodyNanos, failure == null);
                if (failure != null) {
                    m.error(name, failure.code());
                }
            }
        });
    }

    /**
     * A read finished: reports it to the metrics listener, and warns when it held its snapshot
     * longer than {@code maxReadDuration}, since a long reader keeps checkpoints from resetting
     * the WAL.
     */
    void readFinished(String sql, long nanos, Throwable failure) {
        if (nanos > options.maxReadDuration().toNanos()) {
            log.warn("{}: a read held its snapshot for {} ms (maxReadDuration {} ms); long reads "
                    + "keep checkpoints from resetting the WAL, which then grows", name,
                    TimeUnit.NANOSECONDS.toMillis(nanos), options.maxReadDuration().toMillis());
        }
        if (metrics == dev.lanes.MetricsListener.NONE) {
            return;
        }
        report(m -> {
            m.command(name, dev.lanes.MetricsListener.Operation.READ, false,
                    sql == null ? "BODY" : SqlText.firstKeyword(sql), nanos, failure == null);
            if (failure instanceof LanesException) {
                m.error(name, ((LanesException) failure).code());
            }
        });
    }

    private void reportOverload() {
        report(m -> m.overload(name));
    }

    /** Calls the metrics listener; its failures are logged and never reach the lane. */
    private void report(java.util.function.Consumer<dev.lanes.MetricsListener> call) {
        if (metrics == dev.lanes.MetricsListener.NONE) {
            return;
        }
        try {
            call.accept(metrics);
        } catch (RuntimeException | LinkageError e) {
            if (!metricsFailed) {
                metricsFailed = true;
                log.warn("{}: the metrics listener failed; its failures are ignored (logged at "
                        + "debug from now on)", name, e);
            } else {
                log.debug("{}: the metrics listener failed again", name, e);
            }
        }
    }

    /** Completes a request's future, counting its failure if it failed. */
    private void deliver(WriteRequest r) {
        LanesException failure = r.failure();
        if (failure != null) {
            counters.failed.increment();
            if (failure.outcome() == WriteOutcome.UNKNOWN) {
                counters.unknown.increment();
            }
        }
        r.deliver();
    }

    private List<WriteRequest> takeGroup(WriteRequest first) {
        List<WriteRequest> group = new ArrayList<>(first == null ? 8 : 1);
        lock.lock();
        try {
            if (first != null) {
                group.add(first);
            } else if (pinned != null) {
                WriteRequest step = steps.pollFirst();
                if (step != null) {
                    group.add(step);
                }
            }
            if (pinned == null && (first == null || first.inTransaction())) {
                WriteRequest next;
                while (group.size() < options.maxGroupSize() && (next = queue.peekFirst()) != null) {
                    if (next.future.isCancelled()) {
                        queue.pollFirst(); // its caller gave up before it ran: it never runs
                        continue;
                    }
                    if (!next.inTransaction()) {
                        if (group.isEmpty()) {
                            group.add(queue.pollFirst()); // top-level and close run alone
                        }
                        break;
                    }
                    group.add(queue.pollFirst());
                }
            }
            runningGroupSize = group.size();
            if (first == null) {
                contended = group.size() > 1 || !queue.isEmpty();
            } else if (group.size() > 1) {
                contended = true;
            }
            if (notFullWaiters > 0) {
                notFull.signalAll();
            }
        } finally {
            lock.unlock();
        }
        return group;
    }

    private void finishTurn() {
        finishTurn(true);
    }

    /**
     * Releases the lane after a turn, and requeues it when work waits.
     *
     * @param used whether the turn served requests (an idle release does not count as use)
     */
    private void finishTurn(boolean used) {
        boolean schedule = false;
        WriteRequest handedTo = null;
        lock.lock();
        try {
            holder = null;
            runningGroupSize = 0;
            if (used) {
                lastUsedNanos = System.nanoTime();
                releasedSinceUse = false;
            }
            if (pinned == null && queue.isEmpty() && used && !idleCheckArmed
                    && state == DatabaseState.RUNNING) {
                armIdleRelease(options.idleRelease().toNanos());
            }
            if (pinned != null) {
                if (steps.isEmpty()) {
                    run = Run.IDLE;
                    armIdleCheck(pinned);
                } else {
                    run = Run.SCHEDULED;
                    schedule = true;
                }
            } else if (queue.isEmpty()) {
                run = Run.IDLE;
            } else if (queue.peekFirst().waiter != null) {
                // Hand the lane to the caller blocked on the head request: it must be woken
                // anyway, so it leads the next turn itself, and no pool thread is woken too.
                WriteRequest head = queue.peekFirst();
                run = Run.RUNNING;
                holder = head.waiter;
                head.leadGranted = true;
                handedTo = head;
            } else {
                run = Run.SCHEDULED;
                schedule = true;
            }
        } finally {
            lock.unlock();
        }
        if (schedule) {
            pool.submit(this);
        } else if (handedTo != null) {
            handedTo.wake.complete(null);
        }
    }

    /**
     * Waits for a request submitted by a platform thread that blocks on it, leading any turn the
     * lane is handed meanwhile. Uninterruptible: an accepted write may still commit.
     */
    <T> T awaitLeading(WriteRequest r) {
        if (r.waiter != null) {
            while (true) {
                CompletableFuture<Void> wake = r.wake;
                if (wake.isDone()) {
                    wake = new CompletableFuture<>();
                    r.wake = wake; // armed before the checks, so no wake-up is missed
                }
                // Checked before completion: a lane handed over must be run even if this
                // request's outcome arrived another way (drained by a shutdown).
                if (r.leadGranted) {
                    r.leadGranted = false;
                    turn(null);
                    continue;
                }
                if (r.future.isDone()) {
                    break;
                }
                wake.join();
            }
        }
        return DatabaseImpl.await(r);
    }

    private void execute(List<WriteRequest> group) {
        if (group.isEmpty()) {
            return;
        }
        WriteRequest head = group.get(0);
        if (head.kind == Kind.CLOSE) {
            closeConnection(head);
            return;
        }
        if (!ensureOpen(group)) {
            return;
        }
        String poisoned = poisonCause();
        if (poisoned != null) {
            for (WriteRequest r : group) {
                r.fail(new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the "
                        + "writer is poisoned (" + poisoned + "); the request never ran", null));
            }
            return;
        }
        switch (head.kind) {
            case TOP_LEVEL:
                if (corked) {
                    head.fail(new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": "
                            + "maintenance is refused while corked (it cannot run inside the "
                            + "cork's transaction); uncork first", null));
                } else {
                    runTopLevel(head);
                }
                return;
            case TX_BEGIN:
                runTxBegin(head);
                return;
            case TX_STEP:
                runTxStep(head);
                return;
            case OPEN:
                head.succeed(null);
                return;
            case CORK:
                runCork(head);
                return;
            case UNCORK:
                runUncork(head);
                return;
            default:
                break;
        }
        List<WriteRequest> pending = group;
        while (!pending.isEmpty()) {
            pending = runTransaction(pending);
        }
    }

    private boolean ensureOpen(List<WriteRequest> group) {
        if (connection != null) {
            return true;
        }
        Throwable dead;
        lock.lock();
        try {
            dead = deadCause;
        } finally {
            lock.unlock();
        }
        if (dead == null) {
            try {
                connection = new WriterConnection(
                        SqliteConnections.openWriter(path, options.synchronous(), options.busyTimeout(),
                                options.checkpointMode()),
                        options.statementCacheSize(), options.busyTimeout(),
                        new FaultInjector() { // reads the field, so later installations apply
                            @Override
                            public void before(Point point) throws SQLException {
                                faults.before(point);
                            }

                            @Override
                            public void after(Point point) throws SQLException {
                                faults.after(point);
                            }
                        }, counters);
                runtime.connectionOpened();
                connectionOpen = true;
                identity.onWriterOpened(connection.raw);
                if (!initialized) {
                    // Once per database: a reopen after an eviction must not run it again.
                    initialize(connection);
                    initialized = true;
                }
                runtime.connectionsOpened(this, connection.raw);
                justOpened = true;
                return true;
            } catch (Throwable e) {
                closeQuietly();
                dead = e;
                log.error("{}: cannot open the database at {}; it is dead", name, path, e);
                markDead(e);
            }
        }
        for (WriteRequest r : group) {
            r.fail(new DatabaseDeadException(name + ": the database cannot be opened (" + dead
                    + "); the request never ran", dead));
        }
        return false;
    }

    /** Runs the initializer, if any, in one transaction; throws when it fails. */
    private void initialize(WriterConnection c) throws Exception {
        dev.lanes.SqlFunction<?> initializer = options.initializer();
        if (initializer == null) {
            return;
        }
        c.beginImmediate();
        GuardedConnection guard = new GuardedConnection(c.raw, true, null);
        try {
            initializer.apply(guard);
            if (guard.refusal() != null) {
                throw guard.refusal();
            }
            c.commit();
        } catch (Exception | Error e) {
            c.rollbackVerified();
            throw e;
        } finally {
            guard.end();
        }
    }

    private void closeQuietly() {
        WriterConnection c = connection;
        connection = null;
        connectionOpen = false;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                log.warn("{}: closing the writer connection failed", name, e);
            }
            runtime.connectionClosed();
        }
    }

    /**
     * Runs one transaction over {@code group}.
     *
     * @return the requests to run again in a fresh transaction (empty when the group is done)
     */
    private List<WriteRequest> runTransaction(List<WriteRequest> group) {
        WriterConnection c = connection;
        CommitObserver observer = commitObserver;
        boolean inCork = corked;
        long transactionStart = System.nanoTime();
        if (!inCork || !corkOuterOpen) {
            c.trackTables(observer.tracksTables());
            boolean begun = begin(group);
            long acquire = System.nanoTime() - transactionStart;
            for (WriteRequest r : group) {
                r.acquireNanos = acquire;
            }
            if (!begun) {
                return List.of();
            }
            corkOuterOpen = inCork;
            if (!aboveFloor(group, !inCork)) {
                return List.of();
            }
        } else if (!aboveFloor(group, false)) {
            return List.of();
        }

        boolean isolate = inCork || group.size() > 1;
        List<WriteRequest> ran = new ArrayList<>(group.size());
        for (int i = 0; i < group.size(); i++) {
            WriteRequest r = group.get(i);
            boolean savepoint = isolate && r.kind == Kind.BODY;
            if (savepoint) {
                try {
                    c.request.begin();
                } catch (SQLException e) {
                    return abandon(group, ran, i, r, e, "SAVEPOINT failed", null);
                }
            }
            long commitsBefore = c.commits();
            long eventsBefore = c.transactionEvents();
            c.markEnds();
            Object value = null;
            Throwable failure;
            long bodyStart = System.nanoTime();
            try {
                value = runBody(r, c, true);
                failure = null;
            } catch (Throwable t) {
                failure = t;
            }
            r.bodyNanos = System.nanoTime() - bodyStart;
            if (c.transactionEvents() != eventsBefore) {
                // The transaction ended inside the body. Statements it ran after that point
                // autocommitted on their own, so if anything committed its outcome is unknown.
                boolean partial = c.commits() != commitsBefore;
                if (failure == null) {
                    failure = new IllegalStateException("the body returned normally although the "
                            + "transaction ended inside it (it swallowed an error, or committed "
                            + "behind the lane's back)");
                }
                if (c.firstEndWasCommit()) {
                    return committedInsideBody(group, ran, i, r, failure);
                }
                return groupEnded(group, ran, i, r, failure, partial);
            }
            if (failure == null) {
                if (savepoint) {
                    try {
                        c.request.release();
                    } catch (SQLException e) {
                        return abandon(group, ran, i, r, e, "RELEASE failed", null);
                    }
                }
                r.succeed(value);
                ran.add(r);
                continue;
            }
            // The request failed and the transaction is still open: undo the request alone.
            if (savepoint) {
                try {
                    c.request.rollBack();
                } catch (SQLException e) {
                    return abandon(group, ran, i, r, e, "ROLLBACK TO failed", failure);
                }
                r.fail(failureOf(r, WriteOutcome.ROLLED_BACK, failure));
            } else if (r.kind == Kind.STATEMENT) {
                // SQLite already undid the failed statement; the transaction stays usable.
                r.fail(failureOf(r, WriteOutcome.ROLLED_BACK, failure));
            } else {
                // A lone body without a savepoint: its transaction is the group's.
                boolean clean = c.rollbackVerified();
                r.fail(failureOf(r, clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN, failure));
                if (!clean) {
                    poison("the rollback after a failed write could not be verified: " + failure);
                }
                return List.of(); // a body without savepoint is alone in its group
            }
        }

        if (inCork) {
            // Applied, not committed: the cork's outer transaction holds it until uncork.
            counters.committed.add(ran.size());
            return List.of();
        }
        long changed;
        long commitStart = System.nanoTime();
        try {
            changed = c.changesSinceBegin();
            c.commit();
        } catch (SQLException e) {
            boolean clean = c.rolledBackAfterFailedCommit(e);
            WriteOutcome outcome = clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN;
            for (WriteRequest r : ran) {
                r.fail(new WriteFailedException(outcome, name + ": COMMIT failed (" + e.getMessage()
                        + ")" + (clean ? "; the write was rolled back" : "; whether the write "
                        + "persisted is unknown"), e));
            }
            if (!clean) {
                poison(WriterConnection.commitUnknown("COMMIT", e));
            }
            return List.of();
        }
        long commitEnd = System.nanoTime();
        for (WriteRequest r : ran) {
            r.commitNanos = commitEnd - commitStart;
        }
        counters.committed.add(ran.size());
        counters.groups.increment();
        int committed = ran.size();
        report(m -> m.groupCommitted(name, committed, commitEnd - transactionStart));
        if (changed > 0) {
            notifyCommitted(observer, c.takeChangedTables());
        }
        return List.of();
    }

    /**
     * {@code BEGIN IMMEDIATE} for the requests; on failure they all fail {@code NOT_STARTED}.
     *
     * @return whether the transaction is open
     */
    private boolean begin(List<WriteRequest> requests) {
        WriterConnection c = connection;
        try {
            c.beginImmediate();
            return true;
        } catch (WriterConnection.BusyTimeout busy) {
            for (WriteRequest r : requests) {
                r.fail(new BusyException(name + ": SQLite's write lock stayed taken by another "
                        + "connection for " + TimeUnit.NANOSECONDS.toMillis(busy.waitedNanos)
                        + " ms (busyTimeout " + options.busyTimeout().toMillis() + " ms); the "
                        + "write never ran. Is another process writing this file?",
                        busy.getCause()));
            }
            return false;
        } catch (SQLException e) {
            boolean clean = c.rollbackVerified();
            for (WriteRequest r : requests) {
                r.fail(new WriteFailedException(WriteOutcome.NOT_STARTED, name + ": BEGIN "
                        + "IMMEDIATE failed (" + e.getMessage() + "); the write never ran", e));
            }
            if (!clean) {
                poison("BEGIN IMMEDIATE failed and the connection's transaction state could not "
                        + "be verified: " + e.getMessage());
            }
            return false;
        }
    }

    /**
     * Samples free space once the write lock is held; below the floor every request fails
     * {@code NOT_STARTED} and the transaction just begun is rolled back (verified).
     */
    private boolean aboveFloor(List<WriteRequest> requests, boolean rollBack) {
        try {
            diskReserve.check();
            return true;
        } catch (dev.lanes.CapacityFloorException e) {
            for (WriteRequest r : requests) {
                r.fail(new dev.lanes.CapacityFloorException(e.getMessage()));
            }
            if (rollBack && !connection.rollbackVerified()) {
                poison("the rollback after a refused turn could not be verified");
            }
            return false;
        }
    }

    /** The cork's outer transaction ended under it: the writes it held are gone. */
    private void corkLost(String why) {
        if (corked && corkOuterOpen) {
            corkOuterOpen = false;
            corkLost = why;
            log.error("{}: the corked transaction was rolled back ({}); every write applied "
                    + "since cork() is lost, and uncork() will report it", name, why);
        }
    }

    /**
     * The request at {@code index} ended the transaction. Nothing of the group persisted except
     * what that request's own body autocommitted after the end ({@code partial}).
     */
    private List<WriteRequest> groupEnded(List<WriteRequest> group, List<WriteRequest> ran,
            int index, WriteRequest culprit, Throwable failure, boolean partial) {
        // Make sure the connection is outside any transaction before the group runs again.
        boolean clean = connection.rollbackVerified();
        corkLost(culprit.describe() + " ended the transaction: " + failure);
        culprit.fail(failureOf(culprit, partial || !clean ? WriteOutcome.UNKNOWN
                : WriteOutcome.ROLLED_BACK, failure));
        if (!clean) {
            failAfterPoison(group, ran, index);
            poison("the transaction ended inside " + culprit.describe() + " and the connection's "
                    + "state could not be verified: " + failure);
            return List.of();
        }
        return replay(group, ran, index, culprit);
    }

    /**
     * The body at {@code index} committed the group's transaction behind the lane's back: what
     * ran before it is durable and is acknowledged, never replayed; the body's own outcome is
     * unknown; the requests after it run in a fresh transaction.
     */
    private List<WriteRequest> committedInsideBody(List<WriteRequest> group,
            List<WriteRequest> ran, int index, WriteRequest culprit, Throwable failure) {
        boolean clean = connection.rollbackVerified();
        if (corked && corkOuterOpen) {
            corkOuterOpen = false; // the cork's writes so far were committed with it
        }
        culprit.fail(failureOf(culprit, WriteOutcome.UNKNOWN, failure));
        counters.committed.add(ran.size());
        counters.groups.increment();
        if (!clean) {
            failAfterPoison(group, List.of(), index);
            poison("a body committed the transaction and the connection's state could not be "
                    + "verified: " + failure);
            return List.of();
        }
        List<WriteRequest> rest = new ArrayList<>();
        for (int j = index + 1; j < group.size(); j++) {
            rest.add(group.get(j));
        }
        return rest;
    }

    /**
     * A savepoint step failed: give up the whole transaction. The culprit fails, the others run
     * again; if even the rollback cannot be verified, the writer is poisoned.
     */
    private List<WriteRequest> abandon(List<WriteRequest> group, List<WriteRequest> ran, int index,
            WriteRequest culprit, SQLException e, String step, Throwable bodyFailure) {
        boolean clean = connection.rollbackVerified();
        corkLost(step + ": " + e.getMessage());
        boolean bodyRan = culprit.runs > 0 && !step.startsWith("SAVEPOINT");
        WriteFailedException failure = new WriteFailedException(!clean ? WriteOutcome.UNKNOWN
                : bodyRan ? WriteOutcome.ROLLED_BACK : WriteOutcome.NOT_STARTED, name + ": "
                + step + " for " + culprit.describe() + " (" + e.getMessage() + ")"
                + (bodyFailure != null ? " after the body failed: " + bodyFailure : ""),
                bodyFailure != null ? bodyFailure : e);
        if (bodyFailure != null) {
            failure.addSuppressed(e);
        }
        culprit.fail(failure);
        if (!clean) {
            failAfterPoison(group, ran, index);
            poison(step + " and the rollback could not be verified: " + e.getMessage());
            return List.of();
        }
        return replay(group, ran, index, culprit);
    }

    /** The requests to run again after {@code culprit} ended the transaction, in order. */
    private List<WriteRequest> replay(List<WriteRequest> group, List<WriteRequest> ran, int index,
            WriteRequest culprit) {
        List<WriteRequest> again = new ArrayList<>(group.size() - 1);
        for (WriteRequest r : ran) {
            if (r.options.replayable() && r.runs < 2) {
                r.reset();
                again.add(r);
                counters.replays.increment();
            } else {
                r.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name + ": rolled back "
                        + "because " + culprit.describe() + " in the same group ended the shared "
                        + "transaction" + (r.options.replayable() ? " twice" : " (the write is not "
                        + "replayable)"), culprit.failure()));
            }
        }
        // Requests after the culprit, and ones that failed alone before it, keep their place:
        // a failed one stays failed, an untouched one runs for the first time.
        for (int j = 0; j < group.size(); j++) {
            WriteRequest r = group.get(j);
            if (j > index && !r.recorded()) {
                again.add(r);
            }
        }
        return again;
    }

    /** After an unverifiable rollback: what ran is unknown, what did not run never started. */
    private void failAfterPoison(List<WriteRequest> group, List<WriteRequest> ran, int index) {
        for (WriteRequest r : ran) {
            r.fail(new WriteFailedException(WriteOutcome.UNKNOWN, name + ": the group's rollback "
                    + "could not be verified; whether this write persisted is unknown", null));
        }
        for (int j = index + 1; j < group.size(); j++) {
            WriteRequest r = group.get(j);
            r.fail(new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the writer "
                    + "was poisoned before this write ran; it never ran", null));
        }
    }

    private void runTopLevel(WriteRequest r) {
        WriterConnection c = connection;
        long commitsBefore = c.commits();
        Object value = null;
        Throwable failure = null;
        long bodyStart = System.nanoTime();
        try {
            value = runBody(r, c, false);
        } catch (Throwable t) {
            failure = t;
        }
        r.bodyNanos = System.nanoTime() - bodyStart;
        boolean open;
        try {
            open = c.inTransaction();
        } catch (SQLException e) {
            open = true;
        }
        if (open) {
            boolean clean = c.rollbackVerified();
            r.fail(new WriteFailedException(WriteOutcome.UNKNOWN, name + ": the maintenance "
                    + "request left a transaction open" + (clean ? " (rolled back)" : ""), failure));
            poison("a maintenance request left a transaction open");
            return;
        }
        if (failure != null) {
            // Statements outside a transaction autocommit one by one: if any committed, the
            // request may have applied in part. An I/O error (a VACUUM or checkpoint whose sync
            // failed) leaves the file's state unknown.
            boolean ioFailure = SqliteConnections.causedByIoFailure(failure);
            r.fail(failureOf(r, c.commits() != commitsBefore || ioFailure ? WriteOutcome.UNKNOWN
                    : WriteOutcome.ROLLED_BACK, failure));
            if (ioFailure) {
                poison("a maintenance request failed with an I/O error (" + failure + "); the "
                        + "file's state is not known");
            }
        } else {
            r.succeed(value);
            counters.committed.increment();
        }
    }

    private void notifyCommitted(CommitObserver observer, java.util.Set<String> tables) {
        try {
            observer.committed(tables);
        } catch (RuntimeException e) {
            log.error("{}: the commit observer failed; the commit stands", name, e);
        }
    }

    /** Runs a request's body or statement; a guard's refusal the body swallowed still fails it. */
    private Object runBody(WriteRequest r, WriterConnection c, boolean inTransaction)
            throws Exception {
        r.runs++;
        if (r.kind == Kind.STATEMENT) {
            useGeneratedKeys(c, false);
            return executeStatement(r, c);
        }
        useGeneratedKeys(c, true);
        return runGuarded(r, c, inTransaction);
    }

    private Object runGuarded(WriteRequest r, WriterConnection c, boolean inTransaction)
            throws Exception {
        GuardedConnection guard = new GuardedConnection(c.raw, inTransaction,
                inTransaction ? null : diskReserve::checkVacuumHeadroom);
        Object value;
        try {
            value = r.body.apply(guard);
        } catch (Exception | Error e) {
            // A library (jOOQ, JDBI) may wrap the guard's refusal in its own exception: the
            // refusal is what the caller must see, the wrapper rides along.
            InvalidRequestException refusal = guard.refusal();
            if (refusal != null && refusal != e) {
                refusal.addSuppressed(e);
                throw refusal;
            }
            throw e;
        } finally {
            guard.end();
        }
        if (guard.refusal() != null) {
            throw guard.refusal();
        }
        return value;
    }

    /**
     * The driver eagerly runs {@code SELECT last_insert_rowid()} after every insert unless told
     * not to; statements from {@code execute} never read it, bodies may.
     */
    private void useGeneratedKeys(WriterConnection c, boolean on) {
        if (generatedKeys != on) {
            c.raw.getConnectionConfig().setGetGeneratedKeys(on);
            generatedKeys = on;
        }
    }

    private static Integer executeStatement(WriteRequest r, WriterConnection c)
            throws SQLException {
        PreparedStatement s = c.cache.get(r.sql);
        try {
            Rows.bind(s, r.args);
            long before = c.totalChanges();
            int count = s.executeUpdate();
            c.cache.release(r.sql, s);
            // The driver reports sqlite3_changes(), which a statement that changes no rows
            // (DDL, PRAGMA) leaves at the previous statement's count.
            return c.totalChanges() == before ? 0 : count;
        } catch (SQLException | RuntimeException e) {
            c.cache.evict(r.sql, s);
            throw e;
        }
    }

    private LanesException failureOf(WriteRequest r, WriteOutcome outcome, Throwable cause) {
        if (cause instanceof BatchFailure) {
            BatchFailure b = (BatchFailure) cause;
            return new dev.lanes.BatchFailedException(outcome, name + ": " + b.getMessage()
                    + (outcome == WriteOutcome.ROLLED_BACK ? "; the whole batch was rolled back"
                    : "; whether the batch persisted in part is unknown"), b.index, b.index,
                    b.getCause());
        }
        if (cause instanceof InvalidRequestException) {
            return new InvalidRequestException(outcome, name + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof dev.lanes.CapacityFloorException && outcome == WriteOutcome.ROLLED_BACK) {
            return new dev.lanes.CapacityFloorException(cause.getMessage(), cause);
        }
        String what = outcome == WriteOutcome.UNKNOWN ? "failed, and whether it persisted in "
                + "part is unknown" : "failed and was rolled back";
        return new WriteFailedException(outcome, name + ": " + r.describe() + " " + what + ": "
                + cause, cause);
    }

    // ------------------------------------------------------------------ transactions and cork

    private void runTxBegin(WriteRequest r) {
        WriterConnection c = connection;
        InteractiveTransaction tx = r.tx;
        if (corked) {
            if (!corkOuterOpen) {
                if (!begin(List.of(r))) {
                    return;
                }
                corkOuterOpen = true;
            }
            try {
                c.transaction.begin();
            } catch (SQLException e) {
                r.fail(new WriteFailedException(WriteOutcome.NOT_STARTED, name + ": SAVEPOINT for "
                        + "the transaction failed (" + e.getMessage() + ")", e));
                return;
            }
        } else {
            c.trackTables(commitObserver.tracksTables());
            if (!begin(List.of(r)) || !aboveFloor(List.of(r), true)) {
                return;
            }
        }
        long now = System.nanoTime();
        tx.openedAtNanos = now;
        tx.lastActivityNanos = now;
        lock.lock();
        try {
            pinned = tx;
            tx.state = InteractiveTransaction.State.OPEN;
        } finally {
            lock.unlock();
        }
        transactionStateChanged(true);
        r.succeed(tx);
    }

    private void runTxStep(WriteRequest r) {
        InteractiveTransaction tx = r.tx;
        lock.lock();
        try {
            if (pinned != tx) {
                r.fail(tx.notOpen());
                return;
            }
        } finally {
            lock.unlock();
        }
        WriterConnection c = connection;
        switch (r.step) {
            case EXPIRE:
                long idle = System.nanoTime() - tx.lastActivityNanos;
                if (idle >= tx.idleTimeout.toNanos()) {
                    log.warn("{}: rolling back an interactive transaction idle for {} ms "
                            + "(transactionIdleTimeout {} ms)", name,
                            TimeUnit.NANOSECONDS.toMillis(idle), tx.idleTimeout.toMillis());
                    rollBackTransaction(tx, "it sat idle for more than "
                            + tx.idleTimeout.toMillis() + " ms");
                }
                r.succeed(null);
                return;
            case ROLLBACK:
                rollBackTransaction(tx, r.sql == null ? "rollback() was called" : r.sql);
                if (tx.state == InteractiveTransaction.State.UNKNOWN) {
                    r.fail(tx.notOpen());
                } else {
                    r.succeed(null);
                }
                return;
            case COMMIT:
                commitTransaction(tx, r);
                return;
            default:
                break;
        }
        boolean savepoint = r.step == WriteRequest.Step.RUN;
        if (savepoint) {
            try {
                c.request.begin();
            } catch (SQLException e) {
                r.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name + ": SAVEPOINT "
                        + "failed (" + e.getMessage() + "); the transaction stays open", e));
                return;
            }
        }
        long commitsBefore = c.commits();
        long eventsBefore = c.transactionEvents();
        Object value = null;
        Throwable failure = null;
        r.runs++;
        long bodyStart = System.nanoTime();
        try {
            value = runStep(r, c);
        } catch (Throwable t) {
            failure = t;
        }
        r.bodyNanos = System.nanoTime() - bodyStart;
        tx.lastActivityNanos = System.nanoTime();
        tx.statements++;
        if (c.transactionEvents() != eventsBefore) {
            boolean clean = c.rollbackVerified();
            corkLost("a statement of an interactive transaction ended it: " + failure);
            boolean partial = c.commits() != commitsBefore || !clean;
            endTransaction(tx, partial ? InteractiveTransaction.State.UNKNOWN
                    : InteractiveTransaction.State.ROLLED_BACK, "a statement ended it: " + failure);
            if (failure == null) {
                failure = new IllegalStateException("the body returned normally although the "
                        + "transaction ended inside it (it swallowed an error)");
            }
            r.fail(failureOf(r, partial ? WriteOutcome.UNKNOWN : WriteOutcome.ROLLED_BACK, failure));
            if (!clean) {
                poison("an interactive transaction ended inside a statement and the connection's "
                        + "state could not be verified");
            }
            return;
        }
        if (failure == null) {
            if (savepoint) {
                try {
                    c.request.release();
                } catch (SQLException e) {
                    r.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name + ": RELEASE "
                            + "failed (" + e.getMessage() + ")", e));
                    rollBackTransaction(tx, "RELEASE failed: " + e.getMessage());
                    return;
                }
            }
            r.succeed(value);
            return;
        }
        if (savepoint) {
            try {
                c.request.rollBack();
            } catch (SQLException e) {
                r.fail(failureOf(r, WriteOutcome.ROLLED_BACK, failure));
                rollBackTransaction(tx, "ROLLBACK TO failed: " + e.getMessage());
                return;
            }
        }
        // The statement (or body) undid itself; the transaction stays open.
        r.fail(failureOf(r, WriteOutcome.ROLLED_BACK, failure));
    }

    private Object runStep(WriteRequest r, WriterConnection c) throws Exception {
        switch (r.step) {
            case EXECUTE:
                useGeneratedKeys(c, false);
                return executeStatement(r, c);
            case QUERY:
                PreparedStatement s = c.cache.get(r.sql);
                try {
                    Rows.bind(s, r.args);
                    List<dev.lanes.Row> rows;
                    try (java.sql.ResultSet rs = s.executeQuery()) {
                        rows = Rows.read(rs);
                    }
                    c.cache.release(r.sql, s);
                    return rows;
                } catch (SQLException | RuntimeException e) {
                    c.cache.evict(r.sql, s);
                    throw e;
                }
            case RUN:
            default:
                useGeneratedKeys(c, true);
                return runGuarded(r, c, true);
        }
    }

    private void commitTransaction(InteractiveTransaction tx, WriteRequest r) {
        WriterConnection c = connection;
        if (corked) {
            try {
                c.transaction.release();
                endTransaction(tx, InteractiveTransaction.State.COMMITTED, "committed into the cork");
                counters.committed.increment();
                r.succeed(null);
            } catch (SQLException e) {
                rollBackTransaction(tx, "RELEASE failed: " + e.getMessage());
                r.fail(new WriteFailedException(tx.state == InteractiveTransaction.State.UNKNOWN
                        ? WriteOutcome.UNKNOWN : WriteOutcome.ROLLED_BACK, name + ": committing "
                        + "the transaction into the cork failed (" + e.getMessage() + ")", e));
            }
            return;
        }
        long changed;
        try {
            changed = c.changesSinceBegin();
            c.commit();
        } catch (SQLException e) {
            boolean clean = c.rolledBackAfterFailedCommit(e);
            endTransaction(tx, clean ? InteractiveTransaction.State.ROLLED_BACK
                    : InteractiveTransaction.State.UNKNOWN, "COMMIT failed: " + e.getMessage());
            r.fail(new WriteFailedException(clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN,
                    name + ": COMMIT failed (" + e.getMessage() + ")" + (clean ? "; the "
                    + "transaction was rolled back" : "; whether it persisted is unknown"), e));
            if (!clean) {
                poison(WriterConnection.commitUnknown("the COMMIT of an interactive transaction", e));
            }
            return;
        }
        long age = tx.ageNanos();
        endTransaction(tx, InteractiveTransaction.State.COMMITTED, "committed");
        counters.committed.increment();
        counters.groups.increment();
        report(m -> m.groupCommitted(name, 1, age));
        if (changed > 0) {
            notifyCommitted(commitObserver, c.takeChangedTables());
        }
        r.succeed(null);
    }

    /** Rolls the pinned transaction back (verified) and unpins the lane. */
    private void rollBackTransaction(InteractiveTransaction tx, String reason) {
        WriterConnection c = connection;
        boolean clean;
        if (corked && corkOuterOpen) {
            try {
                c.transaction.rollBack();
                clean = true;
            } catch (SQLException e) {
                clean = c.rollbackVerified();
                corkLost("rolling back an interactive transaction failed: " + e.getMessage());
            }
        } else {
            clean = c.rollbackVerified();
        }
        endTransaction(tx, clean ? InteractiveTransaction.State.ROLLED_BACK
                : InteractiveTransaction.State.UNKNOWN, reason);
        if (!clean) {
            poison("the rollback of an interactive transaction could not be verified");
        }
    }

    /** Ends the pinned transaction and unpins the lane; its queued steps fail. */
    private void endTransaction(InteractiveTransaction tx, InteractiveTransaction.State end,
            String reason) {
        lock.lock();
        try {
            if (pinned != tx) {
                return;
            }
            tx.endReason = reason;
            tx.state = end;
            pinned = null;
            if (tx.idleCheck != null) {
                tx.idleCheck.cancel(false);
                tx.idleCheck = null;
            }
            for (WriteRequest step : steps) {
                if (step.step == WriteRequest.Step.ROLLBACK || step.step == WriteRequest.Step.EXPIRE) {
                    step.succeed(null);
                } else {
                    step.fail(tx.notOpen());
                }
                drained.add(step);
            }
            steps.clear();
        } finally {
            lock.unlock();
        }
        transactionStateChanged(false);
    }

    // guarded by lock: checks the pinned transaction once its idle timeout has passed
    private void armIdleCheck(InteractiveTransaction tx) {
        if (tx.idleCheck != null) {
            tx.idleCheck.cancel(false);
        }
        long due = tx.idleTimeout.toNanos() - (System.nanoTime() - tx.lastActivityNanos);
        tx.idleCheck = runtime.timer().schedule(() -> expireIfIdle(tx), Math.max(0, due),
                TimeUnit.NANOSECONDS);
    }

    private void expireIfIdle(InteractiveTransaction tx) {
        boolean schedule = false;
        lock.lock();
        try {
            if (pinned != tx || !steps.isEmpty()) {
                return;
            }
            steps.addLast(WriteRequest.txStep(tx, WriteRequest.Step.EXPIRE, null, null, null));
            schedule = scheduleIfIdle();
        } finally {
            lock.unlock();
        }
        if (schedule) {
            pool.submit(this);
        }
    }

    private void runCork(WriteRequest r) {
        if (!begin(List.of(r))) {
            resetCork();
            return;
        }
        connection.trackTables(commitObserver.tracksTables());
        corkOuterOpen = true;
        corkLost = null;
        corked = true;
        r.succeed(null);
    }

    private void runUncork(WriteRequest r) {
        WriterConnection c = connection;
        try {
            if (!corked) {
                r.fail(new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": not corked", null));
                return;
            }
            String lost = corkLost;
            if (corkOuterOpen) {
                long changed;
                try {
                    changed = c.changesSinceBegin();
                    c.commit();
                } catch (SQLException e) {
                    boolean clean = c.rolledBackAfterFailedCommit(e);
                    r.fail(new WriteFailedException(clean ? WriteOutcome.ROLLED_BACK
                            : WriteOutcome.UNKNOWN, name + ": uncork's COMMIT failed ("
                            + e.getMessage() + ")" + (clean ? "; none of the corked writes "
                            + "persisted" : "; whether the corked writes persisted is unknown"), e));
                    if (!clean) {
                        poison(WriterConnection.commitUnknown("uncork's COMMIT", e));
                    }
                    return;
                }
                counters.groups.increment();
                if (changed > 0) {
                    notifyCommitted(commitObserver, c.takeChangedTables());
                }
            }
            if (lost != null) {
                r.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name + ": writes "
                        + "corked before this failure were rolled back and did not persist: "
                        + lost + "; writes corked after it were committed", null));
            } else {
                r.succeed(null);
            }
        } finally {
            corked = false;
            corkOuterOpen = false;
            corkLost = null;
            resetCork();
        }
    }

    // ------------------------------------------------------------------ poison, death, close

    private String poisonCause() {
        lock.lock();
        try {
            return poisonCause;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses all later work and fails what is queued, NOT_STARTED. Reads are not affected. */
    private void poison(String cause) {
        log.error("{}: writer poisoned: {}. Queued writes fail NOT_STARTED; later writes are "
                + "refused until the database is reopened", name, cause);
        lock.lock();
        try {
            if (poisonCause == null) {
                poisonCause = cause;
            }
            if (pinned != null) {
                endTransaction(pinned, InteractiveTransaction.State.UNKNOWN, "the writer was "
                        + "poisoned: " + cause);
            }
            drainQueue(r -> new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the "
                    + "writer was poisoned (" + cause + ") before this write ran; it never ran",
                    null));
        } finally {
            lock.unlock();
        }
    }

    private void markDead(Throwable cause) {
        ready.completeExceptionally(new DatabaseDeadException(name + ": the database cannot be "
                + "opened (" + cause + ")", cause));
        lock.lock();
        try {
            if (state == DatabaseState.RUNNING) {
                state = DatabaseState.DEAD;
            }
            deadCause = cause;
            terminated.complete(new dev.lanes.Termination(DatabaseState.DEAD,
                    java.util.Optional.of(cause)));
            drainQueue(r -> new DatabaseDeadException(name + ": the database cannot be opened ("
                    + cause + "); the request never ran", cause));
        } finally {
            lock.unlock();
        }
    }

    // guarded by lock: fails every queued request except the close marker
    private void drainQueue(java.util.function.Function<WriteRequest, LanesException> failure) {
        WriteRequest closeMarker = null;
        for (WriteRequest r : queue) {
            if (r.kind == Kind.CLOSE) {
                closeMarker = r;
            } else {
                r.fail(failure.apply(r));
                drained.add(r);
            }
        }
        queue.clear();
        if (closeMarker != null) {
            queue.add(closeMarker);
        }
        if (notFullWaiters > 0) {
            notFull.signalAll();
        }
    }

    /**
     * Stops admission and queues the close behind all accepted work ({@code drain}) or after
     * failing the queued work {@code NOT_STARTED}. Idempotent.
     *
     * @return completes when the connection is closed
     */
    CompletableFuture<Void> beginClose(boolean drain) {
        boolean schedule = false;
        List<WriteRequest> refused = new ArrayList<>();
        lock.lock();
        try {
            if (!drain) {
                for (WriteRequest r : queue) {
                    if (r.kind != Kind.CLOSE) {
                        r.fail(new ClosedException(name + ": the database was shut down before "
                                + "this write ran; it never ran"));
                        refused.add(r);
                    }
                }
                queue.removeIf(r -> r.kind != Kind.CLOSE);
                if (pinned != null && steps.stream().noneMatch(r -> r.step == WriteRequest.Step.ROLLBACK)) {
                    steps.addLast(WriteRequest.txStep(pinned, WriteRequest.Step.ROLLBACK, null,
                            "the database was shut down", null));
                    schedule = scheduleIfIdle();
                }
            }
            if (idleCheck != null) {
                idleCheck.cancel(false);
                idleCheck = null;
                idleCheckArmed = false;
            }
            if (state == DatabaseState.RUNNING || state == DatabaseState.DEAD) {
                state = DatabaseState.CLOSING;
                queue.addLast(WriteRequest.close(!drain));
                schedule |= scheduleIfIdle();
            }
            if (notFullWaiters > 0) {
                notFull.signalAll();
            }
        } finally {
            lock.unlock();
        }
        for (WriteRequest r : refused) {
            deliver(r);
        }
        if (schedule) {
            pool.submit(this);
        }
        return closed;
    }

    private void closeConnection(WriteRequest marker) {
        WriterConnection c = connection;
        connection = null;
        if (c != null && corked && corkOuterOpen) {
            if (marker.discard) {
                boolean clean = c.rollbackVerified();
                log.warn("{}: shut down while corked: the corked writes were rolled back{}", name,
                        clean ? "" : " (not verified; SQLite rolls back on close)");
            } else {
                try {
                    c.commit();
                    log.info("{}: closed while corked: the corked writes were committed", name);
                } catch (SQLException e) {
                    boolean clean = c.rolledBackAfterFailedCommit(e);
                    log.error("{}: closed while corked, and committing the corked writes failed; "
                            + "{}", name, clean ? "they did not persist"
                            : "whether they persisted is unknown", e);
                }
            }
            corked = false;
            corkOuterOpen = false;
        }
        connection = c;
        closeQuietly();
        lock.lock();
        try {
            state = DatabaseState.CLOSED;
        } finally {
            lock.unlock();
        }
        runtime.connectionsReleased(this);
        marker.succeed(null);
        long closeNanos = System.nanoTime() - marker.enqueuedAt;
        report(m -> m.databaseClosed(name, closeNanos, false));
        runtime.closed(path, this);
        ready.completeExceptionally(new ClosedException(name + ": the database closed before it "
                + "was ready"));
        terminated.complete(new dev.lanes.Termination(DatabaseState.CLOSED,
                java.util.Optional.empty()));
        closed.complete(null);
    }

    // ------------------------------------------------------------------ views

    DatabaseState state() {
        lock.lock();
        try {
            return state;
        } finally {
            lock.unlock();
        }
    }

    /** A consistent view of the lane for diagnostics; never touches SQLite. */
    View view() {
        lock.lock();
        try {
            InteractiveTransaction tx = pinned;
            return new View(state, poisonCause, deadCause == null ? null : deadCause.toString(),
                    (int) queue.stream().filter(r -> r.kind != Kind.CLOSE).count(),
                    options.writeQueueCapacity(), counters.committed.sum(), counters.failed.sum(),
                    counters.groups.sum(), counters.overloads.sum(), counters.replays.sum(),
                    background, counters.snapshot(),
                    tx == null ? null : new dev.lanes.DatabaseDiagnostics.TransactionInfo(
                            Duration.ofNanos(tx.ageNanos()), tx.statements),
                    corked, lastWrite);
        } finally {
            lock.unlock();
        }
    }

    record View(DatabaseState state, String poisonCause, String deadCause, int queued,
            int capacity, long committed, long failed, long groups, long overloads, long replays,
            boolean background, dev.lanes.DatabaseDiagnostics.WriterCounters writer,
            dev.lanes.DatabaseDiagnostics.TransactionInfo transaction, boolean corked,
            dev.lanes.WriteObservation lastWrite) {}
}
