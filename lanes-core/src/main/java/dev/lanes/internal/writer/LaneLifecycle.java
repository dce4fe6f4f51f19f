package dev.lanes.internal.writer;

import dev.lanes.ClosedException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseState;
import dev.lanes.Termination;
import dev.lanes.internal.util.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The futures of one writer lane's life: ready (the connection opened and was initialized),
 * terminated ({@code CLOSED}, or {@code DEAD} with its cause) and closed. The state they stand
 * for ({@code RUNNING → CLOSING → CLOSED}, or {@code DEAD}) is {@link LaneState}'s; the lane
 * completes these once the state changed.
 *
 * <h2>Concurrency</h2>
 * The futures complete once, from whichever thread ends the phase they stand for. All three are
 * made when first asked for or completed, whichever comes first (an open database holds none
 * until then), set once by compare-and-set: asking and completing meet in the same future. A
 * readiness nobody waited for completes as the one shared completed future ({@link
 * VarHandles#complete}); it is never handed to users as is.
 */
final class LaneLifecycle {
    private volatile CompletableFuture<Void> ready;
    private volatile CompletableFuture<Termination> terminated;
    private volatile CompletableFuture<Void> closed;

    private static final VarHandle READY =
            VarHandles.field(MethodHandles.lookup(), "ready", CompletableFuture.class);
    private static final VarHandle TERMINATED =
            VarHandles.field(MethodHandles.lookup(), "terminated", CompletableFuture.class);
    private static final VarHandle CLOSED =
            VarHandles.field(MethodHandles.lookup(), "closed", CompletableFuture.class);

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

    /** The lane is dead (its state says so already): readiness fails, termination completes. */
    void dead(String name, Throwable cause) {
        ready().completeExceptionally(new DatabaseDeadException(name
                + ": the database cannot be opened (" + cause + ")", cause));
        terminated().complete(new Termination(DatabaseState.DEAD, Optional.of(cause)));
    }

    /** The connection closed (the state says so already): the lane's last act. */
    void closedNow(String name) {
        ready().completeExceptionally(new ClosedException(name
                + ": the database closed before it was ready"));
        terminated().complete(new Termination(DatabaseState.CLOSED, Optional.empty()));
        closed().complete(null);
    }
}
