package dev.lanes.internal.writer;

import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
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
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.writer.WriteRequest.Close;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.Maintenance;
import dev.lanes.internal.writer.WriteRequest.TransactionBegin;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of one database: admits requests into its {@link WriteQueue}, runs them one
 * turn at a time on one connection, and delivers their outcomes. It coordinates the parts that
 * do the work: {@link GroupCommit} for groups of writes, {@link PinnedTransaction} for
 * interactive transactions, {@link Cork}, {@link LaneLifecycle} for open, poison, death and
 * close, and {@link WriteTelemetry}.
 *
 * <h2>Concurrency</h2>
 * {@link #lock} guards the run state ({@link SerialTask}), the queue, the lifecycle, the pinned
 * transaction and the cork's requests; it is never held while SQL runs or a caller's callback
 * runs. The lane is {@code IDLE}, {@code SCHEDULED} (submitted to the pool exactly once) or
 * {@code RUNNING} (exactly one thread, the holder, runs a turn); only the party that moves it out
 * of {@code IDLE} submits it. The writer connection and the fields marked "turn only" are touched
 * only by the holder; the lock's hand-offs order one holder's writes before the next one's reads.
 * The gauges ({@link #queueDepth()}, {@link #poisoned()}, {@link #transactionOpen()}, {@link
 * #state()}) read volatile mirrors that the parts keep under the lock, and never take it.
 *
 * <h2>Metrics</h2>
 * The request factories ({@link #body}, {@link #statement}, {@link #maintenance}, {@link
 * #begin}, {@link #readBody}) run on the caller's thread and bracket the request for the metrics
 * listener there; {@link WriteTelemetry} ends the bracket once, at delivery or refusal.
 *
 * <h2>Who runs a turn</h2>
 * A platform-thread caller that finds the lane idle with an empty queue becomes the holder and
 * runs the turn on its own thread (a pool hop costs ~60 µs here against ~8 µs for a one-row
 * commit). Everyone else queues and waits on a future. Under contention the leader path is
 * switched off (see {@link WriteQueue}), and a turn that ends with a blocked platform caller at
 * the head of the queue hands the lane to that caller, which must be woken anyway, instead of
 * waking a pool thread too.
 *
 * <h2>Turns</h2>
 * A turn takes the head of the queue: one maintenance request or command alone, or up to {@code
 * maxGroupSize} writes as one group. After the turn the lane requeues itself if more work waits.
 * Outcomes are recorded during the turn and delivered after the lane is released.
 */
public final class WriterLane implements WorkerPool.Task {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    private final String name;
    private final LaneSetup setup;
    private final DatabaseOptions options;
    private final Clock clock;
    private volatile FaultInjector faults = FaultInjector.NONE;
    private volatile CommitObserver commitObserver = CommitObserver.NONE;
    private volatile boolean background;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final SerialTask run = new SerialTask();
    private boolean openRequested;
    private final WriteQueue queue;
    private final LaneLifecycle lifecycle;
    private final Cork cork;
    private final PinnedTransaction pinned;

    private final WriteTelemetry telemetry;
    private final LaneTransaction transaction;
    private final GroupCommit groupCommit;

    // turn only
    private WriterConnection connection;
    private boolean initialized;
    /** Set by the turn that opened the connection, so the turn completes {@code ready}. */
    private boolean justOpened;
    /** Requests whose outcome was recorded outside their own turn, to deliver after it. */
    private final List<WriteRequest> drained = new ArrayList<>();

    public WriterLane(LaneSetup setup) {
        this.setup = setup;
        this.name = setup.name();
        this.options = setup.options();
        this.clock = setup.clock();
        this.queue = new WriteQueue(name, options.writeQueueCapacity(), options.maxGroupSize(),
                clock, lock);
        this.lifecycle = new LaneLifecycle(name, lock);
        this.telemetry = new WriteTelemetry(name, options.slowWriteThreshold(), setup.metrics(),
                clock);
        this.transaction = new LaneTransaction(name, options.busyTimeout(), setup.diskReserve(),
                this::poison);
        this.cork = new Cork(transaction, telemetry, lock);
        this.pinned = new PinnedTransaction(transaction, lock, queue, cork, telemetry,
                setup.transactionListeners(), setup.timer(), clock, run::schedule,
                () -> setup.pool().submit(this), drained::add);
        this.groupCommit = new GroupCommit(transaction, cork, telemetry, clock);
    }

    /** Installs a fault injector; for tests of the failure paths. */
    public void faults(FaultInjector injector) {
        this.faults = injector == null ? FaultInjector.NONE : injector;
    }

    /** Installs the observer told of every commit that changed rows. */
    public void commitObserver(CommitObserver observer) {
        this.commitObserver = observer == null ? CommitObserver.NONE : observer;
    }

    // ------------------------------------------------------------------ requests

    public WriteRequest body(dev.lanes.WriteOptions options, SqlFunction<?> body) {
        return started(new WriteRequest.BodyWrite(options, body, clock.nanoTime()));
    }

    /**
     * A read body run on the lane while corked, so that it sees the corked writes; bracketed for
     * the metrics listener as a read when {@code traced} (else its caller brackets it).
     */
    public WriteRequest readBody(SqlFunction<?> body, boolean traced) {
        WriteRequest r = new WriteRequest.BodyWrite(dev.lanes.WriteOptions.DEFAULTS, body,
                clock.nanoTime());
        if (traced) {
            telemetry.started(r, MetricsListener.Operation.READ);
        }
        return r;
    }

    public WriteRequest statement(String sql, Object[] args) {
        return statement(sql, args, WriteRequest.Returns.COUNT);
    }

    public WriteRequest statement(String sql, Object[] args, WriteRequest.Returns returns) {
        return started(new WriteRequest.StatementWrite(sql, args, returns, clock.nanoTime()));
    }

    public WriteRequest maintenance(SqlFunction<?> body) {
        return started(new Maintenance(body, clock.nanoTime()));
    }

    /** Queues {@code db.begin()} and returns its request, whose value is the transaction. */
    public WriteRequest begin(TransactionOptions options) {
        InteractiveTransaction tx = new InteractiveTransaction(this, name, clock, options,
                this.options.transactionIdleTimeout());
        TransactionBegin r = new TransactionBegin(tx, options.admission(), clock.nanoTime());
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
     * Admits a request, then either runs its turn on this thread (leader path) or queues it.
     *
     * @param mayLead whether the caller may run the turn itself: a platform thread that will wait
     *     for the result anyway
     * @param waits whether the caller will block on the result (refused from inside a body of
     *     this same lane, where it would wait for itself)
     * @throws LanesException when the request is refused; it then never ran
     */
    public void submit(WriteRequest r, boolean mayLead, boolean waits) {
        if (r.traced == null) {
            enqueue(r, mayLead, waits);
            return;
        }
        try {
            enqueue(r, mayLead, waits);
        } catch (LanesException refusal) {
            telemetry.refused(r, refusal);
            throw refusal;
        }
    }

    /** {@link #submit}, without the metrics bracket. */
    private void enqueue(WriteRequest r, boolean mayLead, boolean waits) {
        boolean lead;
        boolean schedule = false;
        lock.lock();
        try {
            if (waits) {
                refuseWaitingInItsOwnBody();
            }
            lifecycle.checkAdmission();
            if (waits) {
                refuseWaitingForItsOwnTransaction();
            }
            queue.awaitRoom(r, lifecycle::checkAdmission, telemetry::overload);
            r.depthAtEntry = queue.queuedWrites();
            lead = mayLead && queue.mayLead() && pinned.pinned() == null && run.claim();
            if (!lead) {
                queue.add(r);
                schedule = run.schedule();
            }
        } finally {
            lock.unlock();
        }
        proceed(r, lead, schedule);
    }

    // guarded by lock: a caller that would wait for the turn it is running waits forever
    private void refuseWaitingInItsOwnBody() {
        if (run.heldByCurrentThread()) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body "
                    + "cannot wait for another write to its own database (it would wait for "
                    + "itself); use writeAsync or do the work in the same body", null);
        }
    }

    // guarded by lock: so does one whose own open transaction holds the lane
    private void refuseWaitingForItsOwnTransaction() {
        InteractiveTransaction tx = pinned.pinned();
        if (tx != null && tx.owner == Thread.currentThread()) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": this thread "
                    + "holds an open transaction on " + name + "; a write from it outside that "
                    + "transaction would wait for the transaction, which waits for this thread. "
                    + "Run the write inside the transaction, or commit or roll it back first; "
                    + "the write never ran", null);
        }
    }

    /** Admits one step of the pinned interactive transaction; it runs ahead of the queue. */
    void submitStep(TransactionStep r, boolean mayLead) {
        boolean lead;
        boolean schedule = false;
        lock.lock();
        try {
            if (run.heldByCurrentThread()) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body "
                        + "cannot call its own transaction (it would wait for itself)", null);
            }
            if (pinned.pinned() != r.tx || r.tx.state != InteractiveTransaction.State.OPEN) {
                throw r.tx.notOpen();
            }
            lead = mayLead && queue.stepsEmpty() && run.claim();
            if (!lead) {
                queue.addStep(r);
                schedule = run.schedule();
            }
        } finally {
            lock.unlock();
        }
        proceed(r, lead, schedule);
    }

    private void proceed(WriteRequest r, boolean lead, boolean schedule) {
        if (lead) {
            turn(r);
        } else if (schedule) {
            setup.pool().submit(this);
        }
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
            leadWhileWaiting(r);
        }
        return Failures.join(r.future);
    }

    /** Leads any turn the lane is handed while {@code r} waits, until its outcome arrived. */
    private void leadWhileWaiting(WriteRequest r) {
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
                turn(null);
                continue;
            }
            if (r.future.isDone()) {
                return;
            }
            wake.join();
        }
    }

    /** Corks the lane; returns once the outer transaction is open. */
    public void cork(boolean mayLead) {
        lock.lock();
        try {
            lifecycle.checkAdmission();
            if (!cork.requestCork()) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": already corked; uncork first", null);
            }
        } finally {
            lock.unlock();
        }
        WriteRequest r = new WriteRequest.Cork(clock.nanoTime());
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
        WriteRequest r = new WriteRequest.Uncork(clock.nanoTime());
        lock.lock();
        try {
            String refused = cork.phase() == Cork.Phase.OFF ? "not corked"
                    : cork.uncorkRequested() ? "an uncork is already pending"
                    // still queued behind the open transaction: an uncork deferred now would run
                    // before it and leave the database corked
                    : pinned.pinned() != null && !cork.corked() ? "cork() has not taken effect "
                            + "yet (it waits behind an open transaction); uncork after it returned"
                    : null;
            if (refused != null) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": "
                        + refused, null);
            }
            cork.requestUncork();
            if (pinned.pinned() != null) {
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
        if (!lifecycle.ready.isDone()) {
            boolean request;
            lock.lock();
            try {
                request = !openRequested && lifecycle.running();
                openRequested = true;
            } finally {
                lock.unlock();
            }
            if (request) {
                submit(new WriteRequest.Open(clock.nanoTime()), false, false);
            }
        }
        return lifecycle.ready;
    }

    // ------------------------------------------------------------------ turns

    @Override
    public void runTurn() {
        lock.lock();
        try {
            run.started();
        } finally {
            lock.unlock();
        }
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
    private void turn(WriteRequest first) {
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
        long started = clock.nanoTime();
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
            telemetry.crash();
        } finally {
            // Observed before the lane is released, so that a caller who sees its outcome also
            // sees its observation.
            telemetry.observe(group);
            // Turn state, taken while this thread still holds the lane: the next holder may fill
            // it again (a poison drains the queue into it) as soon as the lane is released.
            List<WriteRequest> drainedHere = drained.isEmpty() ? List.of()
                    : new ArrayList<>(drained);
            drained.clear();
            boolean opened = justOpened;
            justOpened = false;
            finishTurn(true);
            deliverAll(group);
            deliverAll(drainedHere);
            if (opened) {
                lifecycle.ready.complete(null);
            }
        }
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
        if (!ensureOpen(group)) {
            return;
        }
        String poisoned = lifecycle.poisonCause();
        if (poisoned != null) {
            for (WriteRequest r : group) {
                r.fail(new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the "
                        + "writer is poisoned (" + poisoned + "); the request never ran", null));
            }
            return;
        }
        CommitObserver observer = commitObserver;
        if (head instanceof GroupWrite) {
            @SuppressWarnings("unchecked") // a group that starts with a group write holds only those
            List<GroupWrite> writes = (List<GroupWrite>) (List<?>) group;
            groupCommit.runToEnd(writes, connection, observer);
        } else if (head instanceof Maintenance) {
            runMaintenance((Maintenance) head);
        } else if (head instanceof TransactionBegin) {
            pinned.begin((TransactionBegin) head, connection, observer);
        } else if (head instanceof TransactionStep) {
            pinned.step((TransactionStep) head, connection, observer);
        } else if (head instanceof WriteRequest.Cork) {
            cork.open((WriteRequest.Cork) head, connection, observer);
        } else if (head instanceof WriteRequest.Uncork) {
            cork.commit((WriteRequest.Uncork) head, connection, observer);
        } else {
            head.succeed(null); // Open: ensureOpen did the work
        }
    }

    /**
     * A body without the transaction wrap, alone in its turn. Statements outside a transaction
     * autocommit one by one, so a failure after one of them committed is {@code UNKNOWN}; a body
     * that leaves a transaction open, or fails with an I/O error (a VACUUM or checkpoint whose
     * sync failed), leaves the file's state unknown and poisons the writer.
     */
    private void runMaintenance(Maintenance r) {
        WriterConnection c = connection;
        if (cork.corked()) {
            r.fail(new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": maintenance "
                    + "is refused while corked (it cannot run inside the cork's transaction); "
                    + "uncork first", null));
            return;
        }
        LaneConnection.Watch watch = c.watch();
        Object value = null;
        Throwable failure = null;
        long bodyStart = clock.nanoTime();
        r.runs++;
        try {
            value = c.runGuarded(r.body, false, setup.diskReserve()::checkVacuumHeadroom);
        } catch (Throwable t) {
            failure = t;
        }
        r.bodyNanos = clock.nanoTime() - bodyStart;
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
        } else if (failure != null) {
            boolean ioFailure = SqliteConnections.causedByIoFailure(failure);
            r.fail(transaction.failure(r, watch.committed() || ioFailure ? WriteOutcome.UNKNOWN
                    : WriteOutcome.ROLLED_BACK, failure));
            if (ioFailure) {
                poison("a maintenance request failed with an I/O error (" + failure + "); the "
                        + "file's state is not known");
            }
        } else {
            r.succeed(value);
            telemetry.counters.committed.increment();
        }
    }

    private boolean ensureOpen(List<WriteRequest> group) {
        if (connection != null) {
            return true;
        }
        Throwable dead = lifecycle.deadCause();
        if (dead == null) {
            try {
                open();
                return true;
            } catch (Throwable e) {
                closeQuietly();
                dead = e;
                log.error("{}: cannot open the database at {}; it is dead", name, setup.path(), e);
                markDead(e);
            }
        }
        for (WriteRequest r : group) {
            r.fail(new DatabaseDeadException(name + ": the database cannot be opened (" + dead
                    + "); the request never ran", dead));
        }
        return false;
    }

    private void open() throws Exception {
        long openStart = clock.nanoTime();
        connection = setup.connector().open(new FaultInjector() {
            // reads the field, so that later installations apply
            @Override
            public void before(Point point) throws SQLException {
                faults.before(point);
            }

            @Override
            public void after(Point point) throws SQLException {
                faults.after(point);
            }
        }, telemetry.counters);
        if (initialized) {
            // opened before, so it was closed since (an eviction): a reopen
            telemetry.reopened(clock.nanoTime() - openStart);
        }
        if (!initialized) {
            // Once per database: a reopen after an eviction must not run it again.
            initialize(connection);
            initialized = true;
        }
        justOpened = true;
    }

    /** Runs the initializer, if any, in one transaction; throws when it fails. */
    private void initialize(WriterConnection c) throws Exception {
        SqlFunction<?> initializer = options.initializer();
        if (initializer == null) {
            return;
        }
        c.beginImmediate();
        try {
            c.runInitializer(initializer);
            c.commit();
        } catch (Exception | Error e) {
            c.rollbackVerified();
            throw e;
        }
    }

    private void closeQuietly() {
        WriterConnection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                log.warn("{}: closing the writer connection failed", name, e);
            }
            setup.budget().closed();
        }
    }

    /**
     * Releases the lane after a turn, and requeues it when work waits: to the pool, or to the
     * blocked caller at the head of the queue, which leads the next turn itself.
     *
     * @param used whether the turn served requests (an idle release does not count as use)
     */
    private void finishTurn(boolean used) {
        boolean schedule = false;
        WriteRequest handedTo = null;
        lock.lock();
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
            lock.unlock();
        }
        if (used) {
            setup.events().used();
        }
        if (schedule) {
            setup.pool().submit(this);
        } else if (handedTo != null) {
            handedTo.wake.complete(null);
        }
    }

    private void deliverAll(List<WriteRequest> requests) {
        for (WriteRequest r : requests) {
            telemetry.delivered(r);
            r.deliver();
        }
    }

    // ------------------------------------------------------------------ poison, death, close

    /** Refuses all later work and fails what is queued, NOT_STARTED. Reads are not affected. */
    private void poison(String cause) {
        log.error("{}: writer poisoned: {}. Queued writes fail NOT_STARTED; later writes are "
                + "refused until the database is reopened", name, cause);
        boolean transactionEnded;
        lock.lock();
        try {
            lifecycle.poison(cause);
            transactionEnded = pinned.endByPoison(cause);
            drained.addAll(queue.failQueued(r -> new WriterPoisonedException(
                    WriteOutcome.NOT_STARTED, name + ": the writer was poisoned (" + cause
                    + ") before this write ran; it never ran", null)));
        } finally {
            lock.unlock();
        }
        if (transactionEnded) {
            pinned.ended();
        }
    }

    private void markDead(Throwable cause) {
        lock.lock();
        try {
            lifecycle.dead(cause);
            drained.addAll(queue.failQueued(r -> new DatabaseDeadException(name + ": the "
                    + "database cannot be opened (" + cause + "); the request never ran",
                    cause)));
        } finally {
            lock.unlock();
        }
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
                refused = queue.failQueued(r -> new dev.lanes.ClosedException(name + ": the "
                        + "database was shut down before this write ran; it never ran"));
                schedule = pinned.rollBackOnShutdown() && run.schedule();
            }
            if (lifecycle.beginClosing()) {
                queue.add(new Close(!drain, clock.nanoTime()));
                schedule |= run.schedule();
            }
            queue.signalRoom();
        } finally {
            lock.unlock();
        }
        deliverAll(refused);
        if (schedule) {
            setup.pool().submit(this);
        }
        return lifecycle.closed;
    }

    private void closeConnection(Close marker) {
        if (connection != null && cork.engaged()) {
            cork.closeWhileCorked(connection, marker.discardHeldWork);
        }
        closeQuietly();
        marker.succeed(null);
        telemetry.closed(clock.nanoTime() - marker.enqueuedAt, false);
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
        lock.lock();
        try {
            if (!idleLocked() || !run.claim()) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        try {
            WriterConnection c = connection;
            if (Boolean.TRUE.equals(release.apply(c == null ? null : c::releaseMemory))) {
                closeQuietly();
            }
        } catch (RuntimeException e) {
            log.warn("{}: releasing idle resources failed", name, e);
        } finally {
            finishTurn(false);
        }
        return true;
    }

    /** What an idle release may do to the writer connection without owning it. */
    public interface Releasable {
        /** Gives the connection's memory back; never throws. */
        void releaseMemory();
    }

    /** Whether the lane could give up its connection now: a racy hint that never blocks. */
    public boolean idleNow() {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return idleLocked();
        } finally {
            lock.unlock();
        }
    }

    // guarded by lock
    private boolean idleLocked() {
        return run.isIdle() && queue.isEmpty() && pinned.pinned() == null && !cork.engaged()
                && lifecycle.running();
    }

    // ------------------------------------------------------------------ views

    public String name() {
        return name;
    }

    public Clock clock() {
        return clock;
    }

    public DatabaseState state() {
        return lifecycle.state();
    }

    public CompletableFuture<Termination> whenTerminated() {
        return lifecycle.terminated;
    }

    /** Completes once the connection is closed. */
    public CompletableFuture<Void> closed() {
        return lifecycle.closed;
    }

    /** Whether writes are held by a cork; reads then run on the writer to see them. */
    public boolean corked() {
        return cork.corked();
    }

    /** Whether an interactive transaction pins the lane now; never blocks. */
    public boolean transactionOpen() {
        return pinned.pinnedNow();
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
                    options.writeQueueCapacity(), c.committed.sum(), c.failed.sum(),
                    c.groups.sum(), c.overloads.sum(), c.replays.sum(), background, c.snapshot(),
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
