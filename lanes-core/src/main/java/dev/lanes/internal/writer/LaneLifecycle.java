package dev.lanes.internal.writer;

import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseState;
import dev.lanes.Termination;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of one writer lane: {@code RUNNING → CLOSING → CLOSED}, or {@code DEAD} when its
 * connection cannot be opened; and its poisoning, after which it refuses writes (reads go on)
 * until the database is reopened. Poison and death fail the queued work {@code NOT_STARTED}, and
 * poison ends the pinned transaction; the failed requests are handed to the turn, which delivers
 * them once it released the lane.
 *
 * <h2>Concurrency</h2>
 * {@link #state}, {@link #poisonCause} and {@link #deadCause} are guarded by the lane's lock;
 * the methods marked "guarded by the lane's lock" expect the caller to hold it, the others take
 * it, but for {@link #state()} and {@link #poisonCause()}: those two fields are volatile, so that
 * gauges and diagnostics read them without the lock. {@link #poison(String)} and {@link
 * #markDead} take the lock and run on the lane's holder (the turn that found the cause), and
 * change the queue and the pinned transaction under the same lock hold. The futures complete
 * once, from whichever thread ends the phase they stand for. All three, {@link #ready},
 * {@link #terminated} and {@link #closed}, are made when first asked for or completed, whichever
 * comes first (an open database holds none until then), set once by compare-and-set: asking and
 * completing meet in the same future. A readiness nobody waited for completes as the one shared
 * completed future ({@link VarHandles#complete}); it is never handed to users as is.
 */
final class LaneLifecycle {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    /**
     * The lane, whose parts this one works with: one reference, not one per part, as a database
     * keeps this object while idle. It also collects requests failed here, for the turn to
     * deliver once it released the lane.
     */
    private final WriterLane lane;
    /** Completes once the connection is open and initialized; see {@link #ready()}. */
    private volatile CompletableFuture<Void> ready;
    /** Completes with the final state, CLOSED or DEAD; see {@link #terminated()}. */
    private volatile CompletableFuture<Termination> terminated;
    /** Completes once the connection is closed; see {@link #closed()}. */
    private volatile CompletableFuture<Void> closed;

    private static final VarHandle READY =
            VarHandles.field(MethodHandles.lookup(), "ready", CompletableFuture.class);
    private static final VarHandle TERMINATED =
            VarHandles.field(MethodHandles.lookup(), "terminated", CompletableFuture.class);
    private static final VarHandle CLOSED =
            VarHandles.field(MethodHandles.lookup(), "closed", CompletableFuture.class);

    // guarded by laneLock (written); state and poisonCause are read anywhere
    private volatile DatabaseState state = DatabaseState.RUNNING;
    private volatile String poisonCause;
    private Throwable deadCause;

    LaneLifecycle(WriterLane lane) {
        this.lane = lane;
    }

    // guarded by the lane's lock: refuses new work unless the lane runs and is not poisoned
    void checkAdmission() {
        switch (state) {
            case RUNNING:
                break;
            case CLOSING:
                throw new ClosingException(lane.name() + ": the database is closing and "
                        + "accepts no more work; the request never ran");
            case CLOSED:
                throw new ClosedException(lane.name()
                        + ": the database is closed; the request never ran");
            case DEAD:
            default:
                throw new DatabaseDeadException(lane.name() + ": the database is dead (" + deadCause
                        + "); the request never ran. Reopen it once the cause is fixed",
                        deadCause);
        }
        if (poisonCause != null) {
            throw new WriterPoisonedException(WriteOutcome.NOT_STARTED, lane.name()
                    + ": the writer is poisoned and refuses work (" + poisonCause + "); reads "
                    + "continue. Check the data, then close and reopen the database", null);
        }
    }

    // guarded by the lane's lock
    boolean running() {
        return state == DatabaseState.RUNNING;
    }

    DatabaseState state() {
        return state;
    }

    String poisonCause() {
        return poisonCause;
    }

    /** Completes once the connection is open and initialized; fails when it never will be. */
    CompletableFuture<Void> ready() {
        return VarHandles.getOrSet(READY, this, CompletableFuture::new);
    }

    /** Whether {@link #ready()} is done (either way), without making it. */
    boolean readyDone() {
        CompletableFuture<Void> r = ready;
        return r != null && r.isDone();
    }

    /** The connection opened and was initialized: {@link #ready()} completes. */
    void markReady() {
        VarHandles.complete(READY, this);
    }

    /** Completes with the final state: CLOSED, or DEAD with its cause. */
    CompletableFuture<Termination> terminated() {
        return VarHandles.getOrSet(TERMINATED, this, CompletableFuture::new);
    }

    /** Completes once the connection is closed. */
    CompletableFuture<Void> closed() {
        return VarHandles.getOrSet(CLOSED, this, CompletableFuture::new);
    }

    Throwable deadCause() {
        lane.laneLock().lock();
        try {
            return deadCause;
        } finally {
            lane.laneLock().unlock();
        }
    }

    /** Refuses all later work and fails what is queued, NOT_STARTED. Reads are not affected. */
    void poison(String cause) {
        log.error("{}: writer poisoned: {}. Queued writes fail NOT_STARTED; later writes are "
                + "refused until the database is reopened", lane.name(), cause);
        boolean transactionEnded;
        List<WriteRequest> failed;
        lane.laneLock().lock();
        try {
            if (poisonCause == null) {
                poisonCause = cause; // the first cause is kept
            }
            transactionEnded = lane.pinnedTransaction().endByPoison(cause);
            failed = lane.queue().failQueued(r -> new WriterPoisonedException(
                    WriteOutcome.NOT_STARTED, lane.name() + ": the writer was poisoned (" + cause
                    + ") before this write ran; it never ran", null));
            failed.forEach(lane::deliverAfterTurn);
        } finally {
            lane.laneLock().unlock();
        }
        if (transactionEnded) {
            lane.pinnedTransaction().ended();
        }
    }

    /** The connection cannot be opened: the lane is dead, and what is queued fails. */
    void markDead(Throwable cause) {
        lane.laneLock().lock();
        try {
            dead(cause);
            lane.queue().failQueued(r -> new DatabaseDeadException(lane.name()
                    + ": the database cannot be opened (" + cause + "); the request never ran",
                    cause))
                    .forEach(lane::deliverAfterTurn);
        } finally {
            lane.laneLock().unlock();
        }
    }

    // guarded by the lane's lock
    private void dead(Throwable cause) {
        // the state first: whoever the failed readiness wakes must already see DEAD
        if (state == DatabaseState.RUNNING) {
            state = DatabaseState.DEAD;
        }
        deadCause = cause;
        ready().completeExceptionally(new DatabaseDeadException(lane.name()
                + ": the database cannot be opened (" + cause + ")", cause));
        terminated().complete(new Termination(DatabaseState.DEAD, Optional.of(cause)));
    }

    /** Guarded by the lane's lock. @return whether the close began now */
    boolean beginClosing() {
        if (state == DatabaseState.RUNNING || state == DatabaseState.DEAD) {
            state = DatabaseState.CLOSING;
            return true;
        }
        return false;
    }

    /** The connection closed: the lane's last act. */
    void closedNow() {
        lane.laneLock().lock();
        try {
            state = DatabaseState.CLOSED;
        } finally {
            lane.laneLock().unlock();
        }
        ready().completeExceptionally(new ClosedException(lane.name()
                + ": the database closed before it was ready"));
        terminated().complete(new Termination(DatabaseState.CLOSED, Optional.empty()));
        closed().complete(null);
    }
}
