package dev.lanes.fleet.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The local deadline of this node's etcd lease: until when a commit may still count as made by
 * the owner. Each keep-alive that etcd answers moves it to the keep-alive's <em>send</em> time
 * plus the TTL etcd granted, less a safety margin: etcd renews a lease from when it receives the
 * keep-alive, which is after it was sent, so this deadline is never later than the lease's
 * expiry on etcd's side (the margin covers the two clocks' rates, the lessor's own checks and a
 * commit that started just before the deadline). A leader change only extends leases.
 *
 * <p>Thread-safety: one atomic; renewals only move the deadline forward.
 */
public final class LeaseClock {
    private static final long LOST = Long.MIN_VALUE;
    private final long marginNanos;
    private final AtomicLong deadline = new AtomicLong(LOST);
    private volatile boolean lost = true;

    /** A clock whose deadlines stop {@code marginNanos} short of each renewal's TTL. */
    public LeaseClock(long marginNanos) {
        this.marginNanos = marginNanos;
    }

    /** A keep-alive sent at {@code sentNanos} was answered with {@code ttlSeconds}. */
    public void renewed(long sentNanos, long ttlSeconds) {
        long next = sentNanos + ttlSeconds * 1_000_000_000L - marginNanos;
        deadline.accumulateAndGet(next, (cur, n) -> cur == LOST ? n : Math.max(cur, n));
        lost = false;
    }

    /** The lease is gone (revoked, expired, or a new one replaces it). */
    public void lose() {
        lost = true;
        deadline.set(LOST);
    }

    /** Whether a commit ending now was made while the lease was surely held. */
    public boolean held() {
        return !lost && System.nanoTime() - deadline.get() < 0;
    }

    /** Nanoseconds left until the deadline; zero or less once passed or lost. */
    public long remainingNanos() {
        return lost ? 0 : deadline.get() - System.nanoTime();
    }
}
