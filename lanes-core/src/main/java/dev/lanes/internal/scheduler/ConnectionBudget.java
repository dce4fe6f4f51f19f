package dev.lanes.internal.scheduler;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runtime's budget of open SQLite connections ({@code maxOpenConnections}; 0 for none).
 * Every connection the runtime opens or closes is counted here; past the cap, idle databases give
 * up their connections at once, least recently used first ({@link EvictionOrder}), on the
 * platform thread that just opened one. A victim is taken out of the order, so no other eviction
 * chooses it too; one found busy by the time it is evicted is given back. After a few victims the
 * open goes on, and the next open evicts again, so a burst of opens cannot stall one caller for
 * long; the cap can therefore be passed briefly by the connections being opened at that moment.
 *
 * <p>Thread-safe: the count is atomic and the order has its own lock; an eviction runs with no
 * lock of this class held.
 */
public final class ConnectionBudget {
    /** Victims one open may evict. */
    private static final int MAX_EVICTIONS_PER_OPEN = 8;

    /** A database that holds connections an eviction could close. */
    public interface Evictable {
        /** When it was last used (the runtime's clock); only ever grows. */
        long lastUsedNanos();

        /** Whether it could give up its connections now: a racy hint, never blocking. */
        boolean evictable();

        /**
         * Closes its connections now, on the calling platform thread, if it is still idle.
         *
         * @return whether they were closed
         */
        boolean evictNow();
    }

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final EvictionOrder order = new EvictionOrder();

    public ConnectionBudget(int maxOpenConnections) {
        this.max = maxOpenConnections;
    }

    /** A connection opened; over the cap, idle databases lose theirs. */
    public void opened() {
        int now = open.incrementAndGet();
        if (max > 0 && now > max) {
            evictWhileOverCap();
        }
    }

    /** A connection closed. */
    public void closed() {
        open.decrementAndGet();
    }

    /** Connections open now. */
    public int open() {
        return open.get();
    }

    /** The cap; 0 for none. */
    public int max() {
        return max;
    }

    /** {@code db} has connections open: it is a candidate until {@link #released}. */
    public void candidate(Evictable db) {
        order.opened(db);
    }

    /** {@code db}'s connections were all closed (by an eviction or its close). */
    public void released(Evictable db) {
        order.released(db);
    }

    private void evictWhileOverCap() {
        for (int attempts = 0; attempts < MAX_EVICTIONS_PER_OPEN && open.get() > max;
                attempts++) {
            Evictable victim = order.takeVictim();
            if (victim == null) {
                return; // nothing idle to evict now; the next open tries again
            }
            if (!victim.evictNow()) {
                order.requeue(victim);
            }
        }
    }
}
