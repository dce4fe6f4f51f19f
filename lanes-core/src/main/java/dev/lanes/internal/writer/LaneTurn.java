package dev.lanes.internal.writer;

import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.writer.WriteRequest.Close;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.Maintenance;
import dev.lanes.internal.writer.WriteRequest.TransactionBegin;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turns of one writer lane, run by its holder: takes the turn's work from {@link LaneState},
 * opens the connection when needed ({@link WriterConnectionSlot}), hands the work to the part
 * that runs it ({@link GroupCommit}, {@link MaintenanceRun}, {@link PinnedTransaction}, {@link
 * Cork}), and collects the outcomes, which the lane delivers once it released the lane. It also
 * poisons the lane, and marks it dead, for the parts that find the cause.
 *
 * <h2>Concurrency</h2>
 * Holder only: every method but {@link #deliver} and {@link #deliverAll} runs on the thread that
 * holds the lane, one turn at a time, and the lane lock's hand-offs order one holder's writes
 * before the next one's reads ({@link #drained}, the connection slot, the cork's lost reason). The
 * parts are made per turn from what they need, and none of them reaches the lane.
 */
final class LaneTurn {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    /** What a turn leaves to do once the lane is released. */
    record Done(List<WriteRequest> deliver, boolean opened) {}

    private final LaneSetup setup;
    private final LaneState state;
    private final LaneLifecycle lifecycle;
    private final WriteTelemetry telemetry;
    private final LaneTransaction transaction;
    private final Cork cork;
    /** Made by the lane's first interactive transaction: most lanes never run one. */
    private SharedCommit shared;
    private final WriterConnectionSlot connection;

    // turn only
    /**
     * Requests whose outcome was recorded outside their own turn, to deliver after it; null while
     * there are none (most turns, and every idle lane).
     */
    private List<WriteRequest> drained;

    LaneTurn(LaneSetup setup, LaneState state, LaneLifecycle lifecycle) {
        this.setup = setup;
        this.state = state;
        this.lifecycle = lifecycle;
        DatabaseOptions options = setup.options();
        this.telemetry = new WriteTelemetry(setup);
        this.transaction = new LaneTransaction(setup.name(), options.busyTimeout(),
                setup.diskReserve(), this::poison, options.commitFence(), telemetry);
        this.cork = new Cork(transaction, telemetry, state);
        this.connection = new WriterConnectionSlot(setup, telemetry, transaction);
    }

    WriteTelemetry telemetry() {
        return telemetry;
    }

    void faults(FaultInjector injector) {
        connection.faults(injector);
    }

    /** Runs one turn: {@code first} (the leader's own request) and what follows, or the head. */
    Done run(WriteRequest first, CommitObserver observer) {
        LaneDecision.Taken taken = state.takeTurn(first);
        List<WriteRequest> group = taken.group();
        if (taken.dropped() != null) {
            telemetry.dropped(taken.dropped());
        }
        long started = setup.clock().nanoTime();
        for (WriteRequest r : group) {
            r.stages.startedAt = started;
            r.stages.groupSize = group.size();
        }
        try {
            execute(group, observer);
        } catch (Throwable bug) {
            failedByDefect(group, bug);
        }
        // Observed before the lane is released, so that a caller who sees its outcome also
        // sees its observation.
        telemetry.observe(group);
        // Taken while this thread still holds the lane: the next holder may fill it again (a
        // poison drains the queue into it) as soon as the lane is released.
        List<WriteRequest> deliver = group;
        if (drained != null || sharedOpen()) {
            deliver = new ArrayList<>(group.size());
            for (WriteRequest r : group) {
                if (shared == null || !shared.holds(r)) { // it waits for the shared COMMIT
                    deliver.add(r);
                }
            }
            if (drained != null) {
                for (WriteRequest r : drained) {
                    if (!group.contains(r)) { // a defect's failure settled it in its own turn
                        deliver.add(r);
                    }
                }
            }
            drained = null;
        }
        return new Done(deliver, connection.takeJustOpened());
    }

    /** Every expected failure is handled inside a turn; this is a defect. Keeps outcomes honest. */
    private void failedByDefect(List<WriteRequest> group, Throwable bug) {
        log.error("{}: unexpected failure in a write turn; the writer is poisoned", setup.name(),
                bug);
        if (sharedOpen()) {
            shared.lost(WriteOutcome.UNKNOWN, "internal error in the writer lane before the "
                    + "shared COMMIT: " + bug, null);
        }
        for (WriteRequest r : group) {
            if (!r.stages.recorded()) {
                r.stages.fail(new WriteFailedException(WriteOutcome.UNKNOWN, setup.name()
                        + ": internal error in the writer lane: " + bug, bug));
            }
        }
        poison("internal error in the writer lane: " + bug);
        telemetry.crash();
    }

    private void execute(List<WriteRequest> group, CommitObserver observer) {
        WriteRequest head = group.isEmpty() ? null : group.get(0);
        if (sharedOpen() && !shared.admits(head, state.pinned(), setup.clock().nanoTime())) {
            endShared(observer);
        }
        if (head == null) {
            return;
        }
        if (head instanceof Close) {
            closeConnection((Close) head);
            return;
        }
        if (!ensureOpen(group)) {
            return;
        }
        String poisoned = state.poisonCause();
        if (poisoned != null) {
            for (WriteRequest r : group) {
                r.stages.fail(new WriterPoisonedException(WriteOutcome.NOT_STARTED, setup.name()
                        + ": the writer is poisoned (" + poisoned + "); the request never ran",
                        null));
            }
            return;
        }
        dispatch(group, head, connection.current(), observer);
    }

    /** Hands the turn's work to the part that runs it; every kind of request is named. */
    private void dispatch(List<WriteRequest> group, WriteRequest head, WriterConnection c,
            CommitObserver observer) {
        if (head instanceof GroupWrite) {
            @SuppressWarnings("unchecked") // a group that starts with a group write holds only those
            List<GroupWrite> writes = (List<GroupWrite>) (List<?>) group;
            new GroupCommit(transaction, cork, telemetry, setup.clock()).runToEnd(writes, c,
                    observer);
        } else if (head instanceof Maintenance) {
            new MaintenanceRun(transaction, cork, telemetry, setup.clock(), setup.diskReserve(),
                    this::poison).run((Maintenance) head, c);
        } else if (head instanceof TransactionBegin) {
            pinned().begin((TransactionBegin) head, c, observer);
        } else if (head instanceof TransactionStep) {
            pinned().step((TransactionStep) head, c, observer);
        } else if (head instanceof WriteRequest.Cork) {
            cork.open((WriteRequest.Cork) head, c, observer);
        } else if (head instanceof WriteRequest.Uncork) {
            cork.commit((WriteRequest.Uncork) head, c, observer);
        } else {
            head.stages.succeed(null); // Open: ensureOpen did the work
        }
    }

    /** The pinned transaction's steps, with what they need; made per turn. */
    private PinnedTransaction pinned() {
        if (shared == null) {
            shared = new SharedCommit(setup.name(), state, transaction,
                    setup.options().maxGroupSize(), this::deliverAfterTurn);
        }
        return new PinnedTransaction(setup.name(), state, transaction, cork, shared, telemetry,
                setup.clock(), setup.timer(), setup.transactionListeners(),
                this::deliverAfterTurn);
    }

    private boolean sharedOpen() {
        return shared != null && shared.open();
    }

    /**
     * Work the shared commit does not admit takes the lane: its {@code COMMIT} runs first; on a
     * poisoned writer (a state that is not known), its members end unknown, uncommitted.
     */
    private void endShared(CommitObserver observer) {
        String poisoned = state.poisonCause();
        WriterConnection c = connection.current();
        if (poisoned != null || c == null) {
            shared.lost(WriteOutcome.UNKNOWN, "the writer was poisoned before the shared "
                    + "COMMIT (" + poisoned + "); whether it persisted is unknown", null);
        } else {
            shared.commit(c, 0, observer);
        }
    }

    /**
     * Opens the connection unless it is open. When it cannot be opened (now, or before), fails
     * every request of {@code group}, which never ran: with {@link DatabaseDeadException}, or,
     * when only a reopen failed, retryable ({@code OverloadedException}).
     *
     * @return whether the connection is open
     */
    private boolean ensureOpen(List<WriteRequest> group) {
        if (connection.current() != null) {
            return true;
        }
        Throwable dead = state.deadCause();
        if (dead == null) {
            Throwable failed = connection.openIfClosed();
            if (failed == null) {
                return true;
            }
            if (connection.reopenable(failed)) {
                for (WriteRequest r : group) {
                    r.stages.fail(connection.reopenFailed(group.size(), failed));
                }
                return false;
            }
            dead = failed;
            // Reported once: thrown to every request waiting for the open (and to lanes.open
            // when an initializer or migration failed), kept in deadCause(); not logged again.
            log.debug("{}: cannot open the database at {}; it is dead: {}", setup.name(),
                    setup.path(), failed.toString());
            markDead(failed);
        }
        for (WriteRequest r : group) {
            r.stages.fail(new DatabaseDeadException(setup.name() + ": the database cannot be "
                    + "opened (" + dead + "); the request never ran", dead));
        }
        return false;
    }

    private void closeConnection(Close marker) {
        WriterConnection c = connection.current();
        if (c != null && state.corkPhase() != LaneDecision.CorkPhase.OFF) {
            cork.closeWhileCorked(c, marker.discardHeldWork);
        }
        connection.closeQuietly();
        marker.stages.succeed(null);
        telemetry.closed(setup.clock().nanoTime() - marker.ticket.enqueuedAt, false);
        setup.events().closed();
        state.closed();
        lifecycle.closedNow(setup.name());
    }

    /** An idle release, run as a turn: gives memory back, or closes the connection. */
    void release(Function<WriterLane.Releasable, Boolean> release) {
        try {
            WriterConnection c = connection.current();
            if (Boolean.TRUE.equals(release.apply(c))) {
                connection.closeQuietly();
                telemetry.forgetLastWrite(); // an idle database keeps only what it needs
            }
        } catch (RuntimeException e) {
            log.warn("{}: releasing idle resources failed", setup.name(), e);
        }
    }

    // ------------------------------------------------------------------ poison and death

    /** Refuses all later work and fails what is queued, NOT_STARTED. Reads are not affected. */
    private void poison(String cause) {
        log.error("{}: writer poisoned: {}. Queued writes fail NOT_STARTED; later writes are "
                + "refused until the database is reopened", setup.name(), cause);
        LaneDecision.Failed failed = state.poison(cause);
        failed.requests().forEach(this::deliverAfterTurn);
        if (failed.transactionEnded()) {
            setup.transactionListeners().changed(false);
        }
    }

    /** The connection cannot be opened: the lane is dead, and what is queued fails. */
    private void markDead(Throwable cause) {
        state.markDead(cause).forEach(this::deliverAfterTurn);
        lifecycle.dead(setup.name(), cause);
    }

    /** Collects a request whose outcome was recorded outside its own turn. Holder only. */
    void deliverAfterTurn(WriteRequest r) {
        if (drained == null) {
            drained = new ArrayList<>();
        }
        drained.add(r);
    }

    // ------------------------------------------------------------------ delivery

    /** After the lane was released: delivers the turn's outcomes; completes readiness. */
    void finish(Done done) {
        deliverAll(done.deliver());
        if (done.opened()) {
            lifecycle.markReady();
        }
    }

    void deliverAll(List<WriteRequest> requests) {
        for (WriteRequest r : requests) {
            deliver(r);
        }
    }

    /** Completes {@code r}'s future with its recorded outcome, counted and reported once. */
    void deliver(WriteRequest r) {
        telemetry.delivered(r);
        r.deliver();
    }
}
