package dev.lanes.internal.writer;

import dev.lanes.DatabaseState;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener;
import dev.lanes.OverloadedException;
import dev.lanes.QueueFullException;
import dev.lanes.SqlFunction;
import dev.lanes.Termination;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterDiagnostics;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.writer.WriteRequest.Maintenance;
import dev.lanes.internal.writer.WriteRequest.TransactionBegin;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of one database: admits requests, runs them one turn at a time on one
 * connection, and delivers their outcomes. What its lock guards is {@link LaneState}'s alone,
 * which decides (lead, queue, schedule, hand to, idle); this class acts on each decision once the
 * lock is released, and runs the turns ({@link LaneTurn}).
 *
 * <h2>Concurrency</h2>
 * The lock is {@link LaneState}'s and never leaves it; nothing here holds it while SQL or a
 * caller's callback runs. Exactly one thread, the holder, runs a turn; the writer connection and
 * the turn's parts are touched only by the holder. The gauges ({@link #queueDepth()}, {@link
 * #poisoned()}, {@link #transactionOpen()}, {@link #state()}) read volatile mirrors and never
 * lock. {@link #commitObserver} and {@link #background} are volatile, installed once by the
 * database and read by the turns and the pool.
 *
 * <h2>Metrics</h2>
 * The request factories ({@link #body}, {@link #statement}, {@link #maintenance}, {@link
 * #begin}, {@link #readBody}) run on the caller's thread and bracket the request for the metrics
 * listener there; {@link WriteTelemetry} ends the bracket once, at delivery or refusal.
 */
public final class WriterLane implements WorkerPool.Task {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    /** The database's name, options, clock and shared services. */
    private final LaneSetup setup;
    private volatile CommitObserver commitObserver = CommitObserver.NONE;
    private volatile boolean background;
    private final LaneState state;
    private final LaneLifecycle lifecycle = new LaneLifecycle();
    private final LaneTurn turns;
    private final OwnLaneWatch watch;

    public WriterLane(LaneSetup setup) {
        this.setup = setup;
        this.state = new LaneState(setup, this);
        this.turns = new LaneTurn(setup, state, lifecycle);
        this.watch = new OwnLaneWatch(setup, this::withdrawFromParkedBody);
    }

    /** The database's name, options, clock and the runtime's services it uses. */
    public LaneSetup setup() {
        return setup;
    }

    /** Installs a fault injector; for tests of the failure paths. */
    public void faults(FaultInjector injector) {
        turns.faults(injector);
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
            turns.telemetry().started(r, MetricsListener.Operation.READ);
        }
        return r;
    }

    public WriteRequest statement(StatementShape shape, Object[] args) {
        return statement(shape, args, Returns.COUNT);
    }

    /** A statement whose shape its caller admitted. */
    public WriteRequest statement(StatementShape shape, Object[] args,
            Returns returns) {
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
        turns.telemetry().started(r, r.operation());
        return r;
    }

    /**
     * Tells the metrics listener that {@code r} was refused before admission (the database
     * refused it, say, after finding its file swapped); the caller then throws {@code e}.
     */
    public void refused(WriteRequest r, LanesException e) {
        turns.telemetry().refused(r, e);
    }

    // ------------------------------------------------------------------ admission

    /**
     * Admits a request, then runs its turn on this thread (leader path) or queues it.
     *
     * @param mayLead whether the caller may run the turn itself: a platform thread that will wait
     *     for the result anyway
     * @param waits whether the caller will block on the result (refused from inside a body of
     *     this same lane, where it would wait for itself)
     * @throws LanesException when the request is refused; it then never ran
     */
    public void submit(WriteRequest r, boolean mayLead, boolean waits) {
        LaneDecision.Admitted admitted;
        try {
            admitted = state.admit(r, mayLead, waits);
        } catch (LanesException refusal) {
            if (refusal instanceof OverloadedException || refusal instanceof QueueFullException) {
                turns.telemetry().overload();
            }
            turns.telemetry().refused(r, refusal);
            throw refusal;
        }
        if (admitted != LaneDecision.Admitted.LEAD && r.ticket.startTimeoutNanos > 0) {
            armStartTimeout(r);
        }
        proceed(r, admitted);
    }

    /**
     * Submits a request whose caller does not wait for it now, and returns its future. Queued
     * from inside a body of this lane, the request cannot run before that body's turn ends, so
     * the future refuses to be waited for on the lane's holder ({@link OwnLaneFuture}) instead of
     * waiting forever, and a wait through another future (a latch, {@code allOf}) ends once the
     * holder stayed parked ({@link OwnLaneWatch}): the request is then withdrawn unrun.
     */
    public CompletableFuture<Object> submitAsync(WriteRequest r) {
        submit(r, false, false);
        if (r.ticket.queuedInTurn == 0) {
            return r.ticket.future;
        }
        watch.queued(r);
        return new OwnLaneFuture<>(this, r).following(r.ticket.future);
    }

    /**
     * The lane's holder asks to wait for {@code r} inside a body: refuses it, withdrawing {@code
     * r} unrun when it is still queued (its failure is delivered after the turn).
     *
     * @return null when the calling thread does not hold the lane (it may wait), else the
     *     refusal to throw
     */
    LanesException refuseWaitOnHolder(WriteRequest r) {
        LaneDecision.Withdrawn w = state.withdraw(r, LaneDecision.Withdrawal.HOLDER_WAITS);
        if (w == null) {
            return null;
        }
        if (w.withdrawn()) {
            r.stages.fail(LaneRefusals.joinedInItsOwnBody(name(), r.describe(), true));
            turns.deliverAfterTurn(r);
        }
        return LaneRefusals.joinedInItsOwnBody(name(), r.describe(), w.withdrawn());
    }

    /**
     * On the timer: withdraws {@code r}, queued by a body that stayed parked, when it is still
     * queued and that body's turn still runs; it fails as a wait for it on the holder does. It is
     * delivered on the timer's thread only when no pool thread is free: the parked body may hold
     * the last one.
     */
    private void withdrawFromParkedBody(WriteRequest r) {
        if (state.withdraw(r, LaneDecision.Withdrawal.BODY_PARKED) != null) {
            r.stages.fail(LaneRefusals.joinedInItsOwnBody(name(), r.describe(), true));
            WorkerPool.Snapshot pool = setup.pool().snapshot();
            if (pool.busyThreads() < pool.maxThreads()) {
                deliverOnPool(r);
            } else {
                turns.deliver(r);
            }
        }
    }

    /** Admits one step of the pinned interactive transaction; it runs ahead of the queue. */
    void submitStep(TransactionStep r, boolean mayLead) {
        proceed(r, state.admitStep(r, mayLead));
    }

    /** Acts on an admission, with the lock released: leads the turn, or submits the lane. */
    private void proceed(WriteRequest r, LaneDecision.Admitted admitted) {
        if (admitted == LaneDecision.Admitted.LEAD) {
            turn(r);
        } else if (admitted == LaneDecision.Admitted.SCHEDULE) {
            state.submit();
        }
    }

    /**
     * Runs {@code r} to its outcome for a caller that blocks on it: on a platform thread, the
     * caller may lead the turn itself, or be handed the lane to lead a later one. Uninterruptible:
     * an accepted write may still commit.
     */
    public <T> T runAndWait(WriteRequest r, boolean platform) {
        if (platform) {
            r.ticket.waitedForBy(Thread.currentThread());
        }
        submit(r, platform, true);
        if (r.ticket.waiter != null) {
            leadWhileWaiting(r);
        }
        return Failures.join(r.ticket.future);
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
        r.ticket.startTimeoutNanos = Math.max(1, startTimeout.toNanos());
        try {
            return runAndWait(r, platform);
        } finally {
            Timer.Scheduled expiry = r.ticket.startExpiry;
            if (expiry != null) {
                expiry.cancel();
            }
        }
    }

    /** Leads any turn the lane is handed while {@code r} waits, until its outcome arrived. */
    private void leadWhileWaiting(WriteRequest r) {
        while (true) {
            CompletableFuture<Void> wake = r.ticket.wake;
            if (wake.isDone()) {
                wake = new CompletableFuture<>();
                r.ticket.wake = wake; // armed before the checks, so no wake-up is missed
            }
            // Checked before completion: a lane handed over must be run even if this request's
            // outcome arrived another way (drained by a shutdown).
            if (r.ticket.leadGranted) {
                r.ticket.leadGranted = false;
                turn(null);
                continue;
            }
            if (r.ticket.future.isDone()) {
                return;
            }
            wake.join();
        }
    }

    /** Arms the withdrawal of a queued request with a start timeout. */
    private void armStartTimeout(WriteRequest r) {
        try {
            r.ticket.startExpiry = setup.timer().schedule(() -> withdrawIfUnstarted(r),
                    r.ticket.startTimeoutNanos);
        } catch (RejectedExecutionException e) {
            // the runtime is shutting down: its close fails the queued requests NOT_STARTED
        }
    }

    /**
     * On the timer: fails {@code r} {@code NOT_STARTED} when it is still queued; delivered by a
     * pool turn ({@link #deliverOnPool}), since its caller waits for it.
     */
    private void withdrawIfUnstarted(WriteRequest r) {
        LaneDecision.Withdrawn w = state.withdraw(r, LaneDecision.Withdrawal.START_TIMEOUT);
        if (w == null) {
            return;
        }
        r.stages.fail(new DeadlineExceededException(WriteOutcome.NOT_STARTED, name() + ": "
                + r.describe() + " did not start within its "
                + TimeUnit.NANOSECONDS.toMillis(r.ticket.startTimeoutNanos) + " ms timeout ("
                + (w.pinned() ? "an interactive transaction holds the writer, " : "") + w.queued()
                + " other writes queued); it never ran. Retry later", null));
        deliverOnPool(r);
    }

    /**
     * Delivers a request withdrawn off the lane's turns by a pool turn, so that the metrics
     * listener and the future's callbacks never run on the timer's thread; foreground work.
     */
    private void deliverOnPool(WriteRequest r) {
        setup.pool().submit(new WorkerPool.Task() {
            @Override
            public void runTurn() {
                turns.deliver(r);
            }

            @Override
            public boolean background() {
                return false;
            }
        });
    }

    /** Corks the lane; returns once the outer transaction is open. */
    public void cork(boolean mayLead) {
        state.admitCork();
        WriteRequest r = new WriteRequest.Cork(clock().nanoTime());
        try {
            submit(r, mayLead, true);
        } catch (LanesException e) {
            state.cork(LaneDecision.CorkPhase.OFF);
            throw e;
        }
        Failures.join(r.ticket.future);
    }

    /**
     * Requests the uncork. Returns the request to wait for, or null when it was deferred behind
     * an open interactive transaction (then nobody waits for it).
     */
    public WriteRequest uncork(boolean mayLead) {
        WriteRequest r = new WriteRequest.Uncork(clock().nanoTime());
        if (state.admitUncork(r)) {
            r.ticket.future.whenComplete((v, e) -> {
                if (e != null) {
                    log.error("{}: the deferred uncork failed", name(), e);
                }
            });
            return null;
        }
        try {
            submit(r, mayLead, true);
        } catch (LanesException e) {
            state.uncorkRefused(); // it never ran, so it can be asked for again
            throw e;
        }
        return r;
    }

    /** Completes when the connection is open and initialized; opens it if nobody has yet. */
    public CompletableFuture<Void> awaitReady() {
        if (!lifecycle.readyDone() && state.requestOpen()) {
            submit(new WriteRequest.Open(clock().nanoTime()), false, false);
        }
        return lifecycle.ready();
    }

    // ------------------------------------------------------------------ turns

    @Override
    public void runTurn() {
        state.started();
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
        LaneTurn.Done done = turns.run(first, commitObserver);
        watch.turnEnded();
        LaneDecision.Next next = state.finishTurn();
        setup.events().used();
        act(next);
        turns.finish(done);
    }

    // ------------------------------------------------------------------ close

    /**
     * Stops admission and queues the close behind all accepted work ({@code drain}) or after
     * failing the queued work {@code NOT_STARTED}. Idempotent.
     *
     * @return completes when the connection is closed
     */
    public CompletableFuture<Void> beginClose(boolean drain) {
        LaneDecision.Closing closing = state.beginClose(drain, clock().nanoTime());
        turns.deliverAll(closing.refused());
        if (closing.schedule()) {
            state.submit();
        }
        return lifecycle.closed();
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
        if (!state.claimIfIdle()) {
            return false;
        }
        try {
            turns.release(release);
        } finally {
            act(state.finishTurn());
        }
        return true;
    }

    /** Acts on the decision of a turn's end, with the lock released. */
    private void act(LaneDecision.Next next) {
        if (next.schedule()) {
            state.submit();
        } else if (next.handedTo() != null) {
            next.handedTo().ticket.wake.complete(null);
        }
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
        return state.idleHint();
    }

    // ------------------------------------------------------------------ views

    public String name() {
        return setup.name();
    }

    public Clock clock() {
        return setup.clock();
    }

    public DatabaseState state() {
        return state.lifecycle();
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
        return state.corked();
    }

    /** Whether an interactive transaction pins the lane now; never blocks. */
    public boolean transactionOpen() {
        return state.pinned() != null;
    }

    /**
     * The interactive transaction that pins the lane, if the calling thread began it; else null.
     * Never blocks: the transaction may end as soon as this returns, when its steps fail.
     */
    public InteractiveTransaction transactionOfCurrentThread() {
        InteractiveTransaction tx = state.pinned();
        return tx != null && tx.owner == Thread.currentThread() ? tx : null;
    }

    public boolean poisoned() {
        return state.poisonCause() != null;
    }

    /** Reports a close that gave up waiting; the close itself goes on. */
    public void closeTimedOut(long nanos) {
        turns.telemetry().closed(nanos, true);
    }

    /** Reports a database collected without close. */
    public void uncleanClose() {
        turns.telemetry().uncleanClose();
    }

    /** Writes waiting in the queue now, without the lane's lock (a gauge). */
    public int queueDepth() {
        return state.queueDepth();
    }

    /** A consistent view of the lane for diagnostics; never touches SQLite. */
    public View view() {
        LaneDecision.View v = state.view();
        InteractiveTransaction tx = v.pinned();
        Throwable dead = v.deadCause();
        Optional<WriterDiagnostics.TransactionInfo> open = tx == null ? Optional.empty()
                : Optional.of(new WriterDiagnostics.TransactionInfo(
                        Duration.ofNanos(tx.ageNanos()), tx.statements));
        return new View(v.lifecycle(), dead == null ? null : dead.toString(),
                new WriterDiagnostics(v.poisonCause() != null,
                        Optional.ofNullable(v.poisonCause()), v.queued(),
                        setup.options().writeQueueCapacity(), v.corked(), background, open,
                        Optional.ofNullable(turns.telemetry().lastWrite()),
                        turns.telemetry().counters.snapshot()));
    }

    /** The lane's diagnostics at one instant: the database's state, why it died, the writer. */
    public record View(DatabaseState state, String deadCause, WriterDiagnostics writer) {}
}
