package dev.lanes.internal.writer;

import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener;
import dev.lanes.SqlFunction;
import dev.lanes.Termination;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteObservation;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.scheduler.SerialTask;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.writer.WriteRequest.Close;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.Maintenance;
import dev.lanes.internal.writer.WriteRequest.TransactionBegin;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of one database: admits requests ({@link LaneAdmission}) into its {@link
 * WriteQueue}, runs them one turn at a time on one connection ({@link WriterConnectionSlot}), and
 * delivers their outcomes. It coordinates the parts that do the work: {@link TurnScheduler} for
 * who runs a turn, {@link GroupCommit} for groups of writes, {@link MaintenanceRun}, {@link
 * PinnedTransaction} for interactive transactions, {@link Cork}, {@link IdleReleaseTurn}, {@link
 * LaneLifecycle} for open, poison, death and close, and {@link WriteTelemetry}.
 *
 * <h2>Concurrency</h2>
 * {@link #lock} guards the run state (in {@link TurnScheduler}), the queue, the lifecycle, the
 * pinned transaction and the cork's requests, and the database's idle check (see {@code
 * engine.IdleRelease}); it is never held while SQL runs or a caller's callback runs. Exactly
 * one thread, the holder, runs a turn; the writer connection and the fields marked "turn only"
 * are touched only by the holder, and the lock's hand-offs order one holder's writes before the
 * next one's reads. The gauges ({@link #queueDepth()}, {@link #poisoned()}, {@link
 * #transactionOpen()}, {@link #state()}) read volatile mirrors that the parts keep under the
 * lock, and never take it. {@link #commitObserver} and {@link #background} are
 * volatile, installed once by the database and read by the turns and the pool.
 *
 * <h2>Metrics</h2>
 * The request factories ({@link #body}, {@link #statement}, {@link #maintenance}, {@link
 * #begin}, {@link #readBody}) run on the caller's thread and bracket the request for the metrics
 * listener there; {@link WriteTelemetry} ends the bracket once, at delivery or refusal.
 *
 * <h2>Turns</h2>
 * A turn takes the head of the queue: one maintenance request or command alone, or up to {@code
 * maxGroupSize} writes as one group. After the turn the lane requeues itself if more work waits.
 * Outcomes are recorded during the turn and delivered after the lane is released.
 */
public final class WriterLane implements WorkerPool.Task {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    /** The database's name, options, clock and shared services. */
    private final LaneSetup setup;
    private volatile CommitObserver commitObserver = CommitObserver.NONE;
    private volatile boolean background;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private boolean openRequested;
    private final WriteQueue queue;
    private final LaneLifecycle lifecycle;
    private final Cork cork;
    private final PinnedTransaction pinned;
    private final TurnScheduler scheduler;

    private final WriteTelemetry telemetry;
    private final LaneTransaction transaction;
    /** {@link #poison(String)}, one instance for every part that may poison the lane. */
    private final Consumer<String> poison;
    private final WriterConnectionSlot connection;

    // turn only
    /**
     * Requests whose outcome was recorded outside their own turn, to deliver after it; null while
     * there are none (most turns, and every idle lane).
     */
    private List<WriteRequest> drained;

    public WriterLane(LaneSetup setup) {
        this.setup = setup;
        this.queue = new WriteQueue(this);
        DatabaseOptions options = setup.options();
        this.telemetry = new WriteTelemetry(setup);
        // one instance of each callback the parts share, not one per part
        this.poison = this::poison;
        this.transaction = new LaneTransaction(name(), options.busyTimeout(), setup.diskReserve(),
                poison, options.commitFence());
        this.cork = new Cork(transaction, telemetry, lock);
        // The parts that live as long as the lane reach each other through it (the accessors
        // below), and call back into it by its package-private methods: one reference each,
        // not one per part they use, and no lambda each. An idle database keeps all of them.
        this.pinned = new PinnedTransaction(this);
        this.lifecycle = new LaneLifecycle(this);
        this.scheduler = new TurnScheduler(new SerialTask(), this);
        this.connection = new WriterConnectionSlot(this);
    }

    // ------------------------------------------------------------------ parts, for the parts

    /** The database's name, options, clock and the runtime's services it uses. */
    public LaneSetup setup() {
        return setup;
    }

    /**
     * The lock that guards the run state, the queue, the lifecycle and the pinned transaction,
     * and the database's idle check ({@code engine.IdleRelease}), which keeps no lock of its own.
     */
    public ReentrantLock laneLock() {
        return lock;
    }

    WriteQueue queue() {
        return queue;
    }

    LaneTransaction laneTransaction() {
        return transaction;
    }

    /** The cork itself; {@link #cork(boolean)} is the request to cork the lane. */
    Cork cork() {
        return cork;
    }

    WriteTelemetry telemetry() {
        return telemetry;
    }

    PinnedTransaction pinnedTransaction() {
        return pinned;
    }

    LaneLifecycle lifecycle() {
        return lifecycle;
    }

    // turn only
    /** Collects a request whose outcome was recorded outside its own turn, to deliver after it. */
    void deliverAfterTurn(WriteRequest r) {
        if (drained == null) {
            drained = new ArrayList<>();
        }
        drained.add(r);
    }

    // guarded by lock
    /** Schedules an idle lane; whether the caller must {@link #submitSelf} it, unlocked. */
    boolean scheduleIfIdle() {
        return scheduler.schedule();
    }

    /** Submits the lane to the pool, after {@link #scheduleIfIdle} said so. */
    void submitSelf() {
        setup.pool().submit(this);
    }

    /** Installs a fault injector; for tests of the failure paths. */
    public void faults(FaultInjector injector) {
        connection.faults(injector);
    }

    /** Installs the observer told of every commit that changed rows. */
    public void commitObserver(CommitObserver observer) {
        this.commitObserver = observer == null ? CommitObserver.NONE : observer;
    }

    // ------------------------------------------------------------------ requests

    public WriteRequest body(dev.lanes.WriteOptions options, SqlFunction<?> body) {
        return started(new WriteRequest.BodyWrite(options, body, clock().nanoTime()));
    }

    /**
     * A read body run on the lane while corked, so that it sees the corked writes; bracketed for
     * the metrics listener as a read when {@code traced} (else its caller brackets it).
     */
    public WriteRequest readBody(SqlFunction<?> body, boolean traced) {
        WriteRequest r = new WriteRequest.BodyWrite(dev.lanes.WriteOptions.DEFAULTS, body,
                clock().nanoTime());
        if (traced) {
            telemetry.started(r, MetricsListener.Operation.READ);
        }
        return r;
    }

    public WriteRequest statement(StatementShape shape, Object[] args) {
        return statement(shape, args, WriteRequest.Returns.COUNT);
    }

    /** A statement whose shape its caller admitted. */
    public WriteRequest statement(StatementShape shape, Object[] args,
            WriteRequest.Returns returns) {
        return started(new WriteRequest.StatementWrite(shape, args, returns,
                clock().nanoTime()));
    }

    public WriteRequest maintenance(SqlFunction<?> body) {
        return started(new Maintenance(body, clock().nanoTime()));
    }

    /**
     * Maintenance the database asks for itself (a checkpoint's tail), not a caller: it runs as
     * {@link #maintenance} does, but is neither reported to the metrics listener as a request
     * nor counted as a commit.
     */
    public WriteRequest backgroundMaintenance(SqlFunction<?> body) {
        return new Maintenance(body, clock().nanoTime(), true);
    }

    /** Queues {@code db.begin()} and returns its request, whose value is the transaction. */
    public WriteRequest begin(TransactionOptions options) {
        InteractiveTransaction tx = new InteractiveTransaction(this, name(), clock(), options,
                setup.options().transactionIdleTimeout());
        TransactionBegin r = new TransactionBegin(tx, options.admission(), clock().nanoTime());
        tx.begun = r;
        return started(r);
    }

    /** Brackets a request a caller just made, for the metrics listener; see WriteTelemetry. */
    private WriteRequest started(WriteRequest r) {
        telemetry.started(r, r.operation());
        return r;
    }

    /**
     * Tells the metrics listener that {@code r} was refused before admission (the database
     * refused it, say, after finding its file swapped); the caller then throws {@code e}.
     */
    public void refused(WriteRequest r, LanesException e) {
        telemetry.refused(r, e);
    }

    // ------------------------------------------------------------------ admission

    /**
     * The lane's door, made per request: it is stateless but for the lane's parts (its state is
     * theirs, under the lane's lock), and an idle lane keeps none.
     */
    private LaneAdmission admission() {
        return new LaneAdmission(name(), lock, lifecycle, queue, pinned, scheduler, telemetry,
                this);
    }

    /** Admits a request, then leads its turn or queues it; see {@link LaneAdmission#submit}. */
    public void submit(WriteRequest r, boolean mayLead, boolean waits) {
        admission().submit(r, mayLead, waits);
    }

    /** Admits one step of the pinned interactive transaction; it runs ahead of the queue. */
    void submitStep(TransactionStep r, boolean mayLead) {
        admission().submitStep(r, mayLead);
    }

    /**
     * Runs {@code r} to its outcome for a caller that blocks on it: on a platform thread, the
     * caller may lead the turn itself, or be handed the lane to lead a later one. Uninterruptible:
     * an accepted write may still commit.
     */
    public <T> T runAndWait(WriteRequest r, boolean platform) {
        if (platform) {
            r.waitedForBy(Thread.currentThread());
        }
        submit(r, platform, true);
        if (r.waiter != null) {
            scheduler.leadWhileWaiting(r);
        }
        return Failures.join(r.future);
    }

    /**
     * {@link #runAndWait(WriteRequest, boolean)} with a start timeout (null: none): if no turn
     * has taken {@code r} within {@code startTimeout} of its admission, it is withdrawn from the
     * queue unrun and fails {@code NOT_STARTED} with {@link DeadlineExceededException}. Once a
     * turn took it, it runs to its outcome however long that takes: a running write is never
     * interrupted, since SQLite's interrupt would roll back the whole group it runs in.
     */
    public <T> T runAndWait(WriteRequest r, boolean platform, Duration startTimeout) {
        if (startTimeout == null) {
            return runAndWait(r, platform);
        }
        r.startTimeoutNanos = Math.max(1, startTimeout.toNanos());
        try {
            return runAndWait(r, platform);
        } finally {
            Timer.Scheduled expiry = r.startExpiry;
            if (expiry != null) {
                expiry.cancel();
            }
        }
    }

    // guarded by lock: when admission queued a request with a start timeout
    void armStartTimeout(WriteRequest r) {
        try {
            r.startExpiry = setup.timer().schedule(() -> withdrawIfUnstarted(r),
                    r.startTimeoutNanos);
        } catch (RejectedExecutionException e) {
            // the runtime is shutting down: its close fails the queued requests NOT_STARTED
        }
    }

    /**
     * On the timer: fails {@code r} {@code NOT_STARTED} when it is still queued. A request the
     * lane was handed to (its caller is about to lead the turn that runs it) has started. The
     * outcome is delivered by a pool turn, so that the metrics listener never runs on the timer's
     * thread; foreground work, since the caller is waiting for it.
     */
    private void withdrawIfUnstarted(WriteRequest r) {
        int queued;
        boolean pinnedNow;
        lock.lock();
        try {
            if (r.leadGranted || !queue.withdraw(r)) {
                return;
            }
            queued = queue.queuedWrites();
            pinnedNow = pinned.pinned() != null;
        } finally {
            lock.unlock();
        }
        r.fail(new DeadlineExceededException(WriteOutcome.NOT_STARTED, name() + ": "
                + r.describe() + " did not start within its "
                + TimeUnit.NANOSECONDS.toMillis(r.startTimeoutNanos) + " ms timeout ("
                + (pinnedNow ? "an interactive transaction holds the writer, " : "") + queued
                + " other writes queued); it never ran. Retry later", null));
        WorkerPool.Task delivery = new WorkerPool.Task() {
            @Override
            public void runTurn() {
                telemetry.delivered(r);
                r.deliver();
            }

            @Override
            public boolean background() {
                return false;
            }
        };
        setup.pool().submit(delivery);
    }

    /** Corks the lane; returns once the outer transaction is open. */
    public void cork(boolean mayLead) {
        lock.lock();
        try {
            lifecycle.checkAdmission();
            cork.admitCork();
        } finally {
            lock.unlock();
        }
        WriteRequest r = new WriteRequest.Cork(clock().nanoTime());
        try {
            submit(r, mayLead, true);
        } catch (LanesException e) {
            cork.off();
            throw e;
        }
        Failures.join(r.future);
    }

    /**
     * Requests the uncork. Returns the request to wait for, or null when it was deferred behind
     * an open interactive transaction (then nobody waits for it).
     */
    public WriteRequest uncork(boolean mayLead) {
        WriteRequest r = new WriteRequest.Uncork(clock().nanoTime());
        lock.lock();
        try {
            cork.admitUncork(pinned.pinned() != null);
            if (pinned.pinned() != null) {
                // Deferred: it runs when the transaction ends, ahead of writes queued since.
                queue.addFirst(r);
                r.future.whenComplete((v, e) -> {
                    if (e != null) {
                        log.error("{}: the deferred uncork failed", name(), e);
                    }
                });
                return null;
            }
        } finally {
            lock.unlock();
        }
        try {
            submit(r, mayLead, true);
        } catch (LanesException e) {
            lock.lock();
            try {
                cork.uncorkRefused(); // it never ran, so it can be asked for again
            } finally {
                lock.unlock();
            }
            throw e;
        }
        return r;
    }

    /** Completes when the connection is open and initialized; opens it if nobody has yet. */
    public CompletableFuture<Void> awaitReady() {
        if (!lifecycle.readyDone()) {
            boolean request;
            lock.lock();
            try {
                request = !openRequested && lifecycle.running();
                openRequested = true;
            } finally {
                lock.unlock();
            }
            if (request) {
                submit(new WriteRequest.Open(clock().nanoTime()), false, false);
            }
        }
        return lifecycle.ready();
    }

    // ------------------------------------------------------------------ turns

    @Override
    public void runTurn() {
        scheduler.started();
        turn(null);
    }

    @Override
    public boolean background() {
        return background;
    }

    public void background(boolean background) {
        this.background = background;
    }

    /** One turn, run by the holder; {@code first} is the leader's own request, if any. */
    void turn(WriteRequest first) {
        List<WriteRequest> group;
        List<WriteRequest> dropped;
        lock.lock();
        try {
            group = queue.takeGroup(first, pinned.pinned() != null);
            dropped = queue.takeDropped();
        } finally {
            lock.unlock();
        }
        if (dropped != null) {
            telemetry.dropped(dropped);
        }
        long started = clock().nanoTime();
        for (WriteRequest r : group) {
            r.startedAt = started;
            r.groupSize = group.size();
        }
        try {
            execute(group);
        } catch (Throwable bug) {
            failedByDefect(group, bug);
        } finally {
            // Observed before the lane is released, so that a caller who sees its outcome also
            // sees its observation.
            telemetry.observe(group);
            // Turn state, taken while this thread still holds the lane: the next holder may fill
            // it again (a poison drains the queue into it) as soon as the lane is released.
            List<WriteRequest> drainedHere = drained == null ? List.of() : drained;
            drained = null;
            boolean opened = connection.takeJustOpened();
            scheduler.finishTurn(true);
            deliverAll(group);
            deliverAll(drainedHere);
            if (opened) {
                lifecycle.markReady();
            }
        }
    }

    /** Every expected failure is handled inside a turn; this is a defect. Keeps outcomes honest. */
    private void failedByDefect(List<WriteRequest> group, Throwable bug) {
        log.error("{}: unexpected failure in a write turn; the writer is poisoned", name(), bug);
        for (WriteRequest r : group) {
            if (!r.recorded()) {
                r.fail(new WriteFailedException(WriteOutcome.UNKNOWN, name() + ": internal "
                        + "error in the writer lane: " + bug, bug));
            }
        }
        poison("internal error in the writer lane: " + bug);
        telemetry.crash();
    }

    private void execute(List<WriteRequest> group) {
        if (group.isEmpty()) {
            return;
        }
        WriteRequest head = group.get(0);
        if (head instanceof Close) {
            closeConnection((Close) head);
            return;
        }
        if (!connection.ensureOpen(group)) {
            return;
        }
        String poisoned = lifecycle.poisonCause();
        if (poisoned != null) {
            for (WriteRequest r : group) {
                r.fail(new WriterPoisonedException(WriteOutcome.NOT_STARTED, name() + ": the "
                        + "writer is poisoned (" + poisoned + "); the request never ran", null));
            }
            return;
        }
        WriterConnection c = connection.current();
        CommitObserver observer = commitObserver;
        if (head instanceof GroupWrite) {
            @SuppressWarnings("unchecked") // a group that starts with a group write holds only those
            List<GroupWrite> writes = (List<GroupWrite>) (List<?>) group;
            // stateless but for the lane's parts, so made per group rather than kept per lane
            new GroupCommit(transaction, cork, telemetry, clock()).runToEnd(writes, c, observer);
        } else if (head instanceof Maintenance) {
            new MaintenanceRun(transaction, cork, telemetry, clock(), setup.diskReserve(), poison)
                    .run((Maintenance) head, c);
        } else if (head instanceof TransactionBegin) {
            pinned.begin((TransactionBegin) head, c, observer);
        } else if (head instanceof TransactionStep) {
            pinned.step((TransactionStep) head, c, observer);
        } else if (head instanceof WriteRequest.Cork) {
            cork.open((WriteRequest.Cork) head, c, observer);
        } else if (head instanceof WriteRequest.Uncork) {
            cork.commit((WriteRequest.Uncork) head, c, observer);
        } else {
            head.succeed(null); // Open: ensureOpen did the work
        }
    }

    private void deliverAll(List<WriteRequest> requests) {
        for (WriteRequest r : requests) {
            telemetry.delivered(r);
            r.deliver();
        }
    }

    // ------------------------------------------------------------------ poison, death, close

    private void poison(String cause) {
        lifecycle.poison(cause);
    }

    /**
     * Stops admission and queues the close behind all accepted work ({@code drain}) or after
     * failing the queued work {@code NOT_STARTED}. Idempotent.
     *
     * @return completes when the connection is closed
     */
    public CompletableFuture<Void> beginClose(boolean drain) {
        boolean schedule = false;
        List<WriteRequest> refused = List.of();
        lock.lock();
        try {
            if (!drain) {
                refused = queue.failQueued(r -> new dev.lanes.ClosedException(name() + ": the "
                        + "database was shut down before this write ran; it never ran"));
                schedule = pinned.rollBackOnShutdown() && scheduler.schedule();
            }
            if (lifecycle.beginClosing()) {
                queue.add(new Close(!drain, clock().nanoTime()));
                schedule |= scheduler.schedule();
            }
            queue.signalRoom();
        } finally {
            lock.unlock();
        }
        deliverAll(refused);
        if (schedule) {
            scheduler.submit();
        }
        return lifecycle.closed();
    }

    private void closeConnection(Close marker) {
        WriterConnection c = connection.current();
        if (c != null && cork.engaged()) {
            cork.closeWhileCorked(c, marker.discardHeldWork);
        }
        connection.closeQuietly();
        marker.succeed(null);
        telemetry.closed(clock().nanoTime() - marker.enqueuedAt, false);
        setup.events().closed();
        lifecycle.closedNow();
    }

    // ------------------------------------------------------------------ idle release

    /**
     * Runs {@code release} as a turn of the lane, on the calling platform thread, if the lane is
     * idle now: nothing queued or running, no transaction or cork holding it, still running.
     * {@code release} gets the writer connection's memory release (null when it is closed) and
     * returns whether the connection must close; an idle release does not count as use.
     *
     * @return whether it ran (false: the lane was in use)
     */
    public boolean releaseIfIdle(Function<Releasable, Boolean> release) {
        return idleReleaseTurn().releaseIfIdle(release);
    }

    /**
     * The idle release's view of the lane. Like {@link GroupCommit} and {@link MaintenanceRun},
     * it is stateless but for the lane's parts, so it is made when used rather than kept by every
     * lane (most lanes of a large runtime are idle).
     */
    private IdleReleaseTurn idleReleaseTurn() {
        return new IdleReleaseTurn(name(), lock, scheduler, queue, pinned, cork, lifecycle,
                connection);
    }

    /** What an idle release may do to the writer connection without owning it. */
    public interface Releasable {
        /** Gives the connection's memory back; never throws. */
        void releaseMemory();

        /**
         * Checkpoints the whole WAL into the database file and truncates it to zero bytes,
         * keeping the file ({@code PRAGMA wal_checkpoint(TRUNCATE)}); whether it did. Never
         * waits and never throws: a checkpoint that would wait for a reader still reading the
         * WAL, or that fails, leaves the WAL as it was.
         */
        boolean emptyWal();
    }

    /** Whether the lane could give up its connection now: a racy hint that never blocks. */
    public boolean idleNow() {
        return idleReleaseTurn().idleNow();
    }

    // ------------------------------------------------------------------ views

    public String name() {
        return setup.name();
    }

    public Clock clock() {
        return setup.clock();
    }

    public DatabaseState state() {
        return lifecycle.state();
    }

    public CompletableFuture<Termination> whenTerminated() {
        return lifecycle.terminated();
    }

    /** Completes once the connection is closed. */
    public CompletableFuture<Void> closed() {
        return lifecycle.closed();
    }

    /** Whether writes are held by a cork; reads then run on the writer to see them. */
    public boolean corked() {
        return cork.corked();
    }

    /** Whether an interactive transaction pins the lane now; never blocks. */
    public boolean transactionOpen() {
        return pinned.pinnedNow();
    }

    /**
     * The interactive transaction that pins the lane, if the calling thread began it; else null.
     * Never blocks: the transaction may end as soon as this returns, when its steps fail.
     */
    public InteractiveTransaction transactionOfCurrentThread() {
        return pinned.heldBy(Thread.currentThread());
    }

    public boolean poisoned() {
        return lifecycle.poisonCause() != null;
    }

    /** Reports a close that gave up waiting; the close itself goes on. */
    public void closeTimedOut(long nanos) {
        telemetry.closed(nanos, true);
    }

    /** Reports a database collected without close. */
    public void uncleanClose() {
        telemetry.uncleanClose();
    }

    /** Writes waiting in the queue now, without the lane's lock (a gauge). */
    public int queueDepth() {
        return queue.depth();
    }

    /** A consistent view of the lane for diagnostics; never touches SQLite. */
    public View view() {
        lock.lock();
        try {
            InteractiveTransaction tx = pinned.pinned();
            WriterCounters c = telemetry.counters;
            Throwable dead = lifecycle.deadCause();
            return new View(lifecycle.state(), lifecycle.poisonCause(),
                    dead == null ? null : dead.toString(), queue.queuedWrites(),
                    setup.options().writeQueueCapacity(), c.sum(WriterCounters.COMMITTED),
                    c.sum(WriterCounters.FAILED), c.sum(WriterCounters.GROUPS),
                    c.sum(WriterCounters.OVERLOADS), c.sum(WriterCounters.REPLAYS), background,
                    c.snapshot(),
                    tx == null ? null : new DatabaseDiagnostics.TransactionInfo(
                            Duration.ofNanos(tx.ageNanos()), tx.statements),
                    cork.corked(), telemetry.lastWrite());
        } finally {
            lock.unlock();
        }
    }

    /** The lane's diagnostics at one instant. */
    public record View(DatabaseState state, String poisonCause, String deadCause, int queued,
            int capacity, long committed, long failed, long groups, long overloads, long replays,
            boolean background, DatabaseDiagnostics.WriterCounters writer,
            DatabaseDiagnostics.TransactionInfo transaction, boolean corked,
            WriteObservation lastWrite) {}
}
