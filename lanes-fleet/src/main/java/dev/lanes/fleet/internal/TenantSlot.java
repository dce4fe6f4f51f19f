package dev.lanes.fleet.internal;

import dev.lanes.Database;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One tenant this node is taking, serving or giving up, for one ownership epoch:
 * {@code ACQUIRING} (claimed, being restored and opened) → {@code SERVING} → {@code MOVING}
 * (draining, final replication, hand-over) → {@code GONE}. A failed move goes back to
 * {@code SERVING}; a lost lease or a lost key goes straight to {@code GONE}.
 *
 * <p>Thread-safety: the state is one atomic reference changed by compare-and-set; the database
 * and fence are set before the state that publishes them.
 */
final class TenantSlot {
    enum State { ACQUIRING, SERVING, MOVING, GONE }

    final String tenant;
    final CompletableFuture<TenantSlot> ready = new CompletableFuture<>();
    final CompletableFuture<Boolean> gone = new CompletableFuture<>();
    final CompletableFuture<Void> recorded = new CompletableFuture<>();
    /**
     * Completed once the thread that acquires the tenant is done with its files (serving, or
     * failed and cleaned up). A slot lost while being acquired stays in the slot map until then,
     * so no second acquisition restores into the same files meanwhile.
     */
    final CompletableFuture<Void> settled = new CompletableFuture<>();
    private final AtomicReference<State> state = new AtomicReference<>(State.ACQUIRING);
    private volatile Database db;
    private volatile TenantFence fence;

    TenantSlot(String tenant) {
        this.tenant = tenant;
    }

    State state() {
        return state.get();
    }

    Database db() {
        return db;
    }

    TenantFence fence() {
        return fence;
    }

    long token() {
        TenantFence f = fence;
        return f == null ? 0 : f.token();
    }

    /** ACQUIRING → SERVING, publishing the open database; false if it was ended meanwhile. */
    boolean serve(Database database, TenantFence f) {
        this.fence = f;
        this.db = database;
        if (!state.compareAndSet(State.ACQUIRING, State.SERVING)) {
            return false;
        }
        ready.complete(this);
        return true;
    }

    /** SERVING → MOVING; false if it was not serving. */
    boolean beginMove() {
        return state.compareAndSet(State.SERVING, State.MOVING);
    }

    /**
     * ACQUIRING → GONE: the epoch was lost while being acquired; the acquiring thread sees it
     * when it tries to serve, cleans up and ends the slot.
     *
     * @return false if the slot was not being acquired
     */
    boolean abandon() {
        return state.compareAndSet(State.ACQUIRING, State.GONE);
    }

    /** MOVING → SERVING on a reopened database (the move failed); false if it ended meanwhile. */
    boolean resume(Database reopened) {
        this.db = reopened;
        return state.compareAndSet(State.MOVING, State.SERVING);
    }

    /**
     * → GONE. {@code clean}: handed over or released after the final replication, so every
     * write it committed is in the replica the next owner restores.
     */
    void end(boolean clean, Throwable failure) {
        state.set(State.GONE);
        if (failure != null) {
            ready.completeExceptionally(failure);
        } else {
            ready.complete(this);
        }
        recorded.completeExceptionally(new IllegalStateException("epoch over"));
        gone.complete(clean);
    }
}
