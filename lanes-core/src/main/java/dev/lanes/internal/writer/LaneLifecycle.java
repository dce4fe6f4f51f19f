package dev.lanes.internal.writer;

import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseState;
import dev.lanes.Termination;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The life of one writer lane: {@code RUNNING → CLOSING → CLOSED}, or {@code DEAD} when its
 * connection cannot be opened; and its poisoning, after which it refuses writes (reads go on)
 * until the database is reopened.
 *
 * <h2>Concurrency</h2>
 * {@link #state}, {@link #poisonCause} and {@link #deadCause} are guarded by the lane's lock;
 * the methods marked "guarded by the lane's lock" expect the caller to hold it, the others take
 * it, but for {@link #state()} and {@link #poisonCause()}: those two fields are volatile, so that
 * gauges and diagnostics read them without the lock. The futures complete once, from whichever
 * thread ends the phase they stand for.
 */
final class LaneLifecycle {
    private final String name;
    private final ReentrantLock laneLock;
    /** Completes once the connection is open and initialized; fails when it never will be. */
    final CompletableFuture<Void> ready = new CompletableFuture<>();
    /** Completes with the final state: CLOSED, or DEAD with its cause. */
    final CompletableFuture<Termination> terminated = new CompletableFuture<>();
    /** Completes once the connection is closed. */
    final CompletableFuture<Void> closed = new CompletableFuture<>();

    // guarded by laneLock (written); state and poisonCause are read anywhere
    private volatile DatabaseState state = DatabaseState.RUNNING;
    private volatile String poisonCause;
    private Throwable deadCause;

    LaneLifecycle(String name, ReentrantLock laneLock) {
        this.name = name;
        this.laneLock = laneLock;
    }

    // guarded by the lane's lock: refuses new work unless the lane runs and is not poisoned
    void checkAdmission() {
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
                throw new DatabaseDeadException(name + ": the database is dead (" + deadCause
                        + "); the request never ran. Reopen it once the cause is fixed",
                        deadCause);
        }
        if (poisonCause != null) {
            throw new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the writer is "
                    + "poisoned and refuses work (" + poisonCause + "); reads continue. Check "
                    + "the data, then close and reopen the database", null);
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

    Throwable deadCause() {
        laneLock.lock();
        try {
            return deadCause;
        } finally {
            laneLock.unlock();
        }
    }

    // guarded by the lane's lock: the first cause is kept
    void poison(String cause) {
        if (poisonCause == null) {
            poisonCause = cause;
        }
    }

    // guarded by the lane's lock
    void dead(Throwable cause) {
        ready.completeExceptionally(new DatabaseDeadException(name + ": the database cannot be "
                + "opened (" + cause + ")", cause));
        if (state == DatabaseState.RUNNING) {
            state = DatabaseState.DEAD;
        }
        deadCause = cause;
        terminated.complete(new Termination(DatabaseState.DEAD, Optional.of(cause)));
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
        laneLock.lock();
        try {
            state = DatabaseState.CLOSED;
        } finally {
            laneLock.unlock();
        }
        ready.completeExceptionally(new ClosedException(name + ": the database closed before it "
                + "was ready"));
        terminated.complete(new Termination(DatabaseState.CLOSED, Optional.empty()));
        closed.complete(null);
    }
}
