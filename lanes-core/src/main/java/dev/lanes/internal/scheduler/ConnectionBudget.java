package dev.lanes.internal.scheduler;

import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Timer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.LoggerFactory;

/**
 * The runtime's budget of open SQLite connections ({@code maxOpenConnections}; 0 for none).
 * Every connection the runtime opens or closes is counted here, and idle databases give up their
 * connections, least recently used first ({@link EvictionOrder}), in two ways:
 * <ul>
 *   <li><b>Ahead, in the background.</b> Past the {@linkplain #target() target} (at most the
 *       cap less a reserve of a sixteenth; see "The working target"), an open hands the
 *       eviction to background turns of the pool, which close victims until the count is back
 *       at the target. At most {@link #MAX_BACKGROUND_EVICTORS} run at once near the target,
 *       and more, up to {@link #MAX_CATCHING_UP_EVICTORS}, while the count is far past it (see
 *       {@link #evictorsFor}). The opener does not wait: closing a victim is the costly part (the
 *       last connection of a written database checkpoints it, syncing its WAL and its file, and
 *       deletes the WAL), and at the cap it sat on the path of whichever request opened next,
 *       most often a read that needed no sync itself. The reserve lets opens go on while the
 *       background catches up.
 *   <li><b>At the cap, at once.</b> An open that passes the cap itself evicts on the platform
 *       thread that just opened, as before: the background fell behind, and the descriptor bound
 *       comes before the caller's latency. After a few victims the open goes on, and the next
 *       open evicts again, so a burst of opens cannot stall one caller for long; the cap can
 *       therefore be passed briefly by the connections being opened at that moment, never by
 *       the background's work, which only closes.
 * </ul>
 * A victim is taken out of the order, so no other eviction chooses it too; one found busy by the
 * time it is evicted is given back. Budgets under 16 connections have no reserve: every eviction
 * is at the cap.
 *
 * <h2>The working target</h2>
 * Every connection open costs more the more database files the process has open: SQLite's unix
 * VFS walks one process-wide list of open files on each open, twice. At 100,000 tenants whose
 * requests mostly found their database evicted, that walk was a third of the CPU with 5,000
 * connections open, and the budget, full, made Lanes 0.28x as fast as a connection opened per
 * request; held at 100 connections it was 0.82x. Connections kept open pay for that walk only
 * while they are reused. So when {@linkplain #adaptEvery adapting}, the budget counts, each
 * period, the requests that needed a connection ({@link #used}) and the connections opened at
 * the target (past it, or within the evictors' overshoot below it), each of which displaces
 * another. Their share of the uses is the share that found no connection where the budget is
 * full, and the rest is the hit rate. Opens below the target
 * (a hot set connecting at start-up) displace nothing and are not counted, and neither are the
 * evictions that follow a lower target, which no use asked for.
 * <ul>
 *   <li>when the hit rate is under {@value #SHRINK_BELOW_HIT_PERCENT} % (the connections are
 *       churning, not reused), the target goes straight to the {@link #floor()}. The victims
 *       are the least recently used, so a smaller target keeps a subset of what a larger one
 *       keeps and cannot hit more often: a target shrunk in steps ends at the floor all the
 *       same, only later. At 100,000 tenants, shrinking in proportion to the hit rate took four
 *       periods to reach the floor, and the bench's measured window ran mostly above it;
 *   <li>when it is over {@value #GROW_ABOVE_HIT_PERCENT} %, the target is doubled, up to the
 *       full target (the cap less the reserve).
 * </ul>
 * Below the full target the hit rate alone cannot show what a larger one would hit: at the floor,
 * a hot set a little larger than the floor misses as often as uniform churn does. So the budget
 * also counts the <em>would-be hits</em>: a database's first connection after all its
 * connections were closed, when fewer connections closed in between than the full target keeps
 * beyond the working one ({@link #closes} against the stamp of {@link Evictable#releasedAt}). The
 * full target would have kept it open. Both rules above read the hit rate plus that share, which
 * is the hit rate the full target would have had; at the full target there are none, and the rules
 * are as stated.
 * A period with fewer than {@value #MIN_USES_PER_PERIOD} uses changes nothing. A workload whose
 * hot set fits the budget evicts little, so its target stays full.
 *
 * <p>Thread-safe: the counts are atomic and the order has its own lock; an eviction runs with no
 * lock of this class held. {@link #evictors} counts the background turns submitted and not yet
 * finished; a turn increments it only by compare-and-set below the maximum for the backlog it
 * finds ({@link #evictorsFor}) and decrements it when it stops, so at most that many run, and
 * an open that finds them all busy leaves the work to them (each checks the count again before
 * it stops, and the next open past the target starts one again). {@link #target} is volatile,
 * written only by {@link #adapt} on the timer's thread, which alone reads and writes the {@code
 * last*} counts. A database's release stamp is its own ({@link Evictable#takeReleasedAt} swaps
 * it out atomically, so of a writer and a reader opening at once only one counts it).
 */
public final class ConnectionBudget {
    /** Victims one open may evict. */
    private static final int MAX_EVICTIONS_PER_OPEN = 8;
    /** Background turns evicting at once near the target: closes that sync can overlap. */
    static final int MAX_BACKGROUND_EVICTORS = 8;
    /**
     * Background turns evicting at once far past the target, as after the target shrank: a
     * close mostly waits, for its checkpoint's syncs or for SQLite's process-wide lock of open
     * files, so more of them overlap. At 100,000 tenants, 8 evictors took over 15 s to bring
     * 5,000 connections down to the floor, as fast as new ones opened; 32 took 2 s.
     */
    static final int MAX_CATCHING_UP_EVICTORS = 32;
    /** Connections past the target per evictor, once that makes more than the usual. */
    static final int BACKLOG_PER_EVICTOR = 64;
    /** Victims one background turn evicts before it gives its thread back to the pool. */
    private static final int EVICTIONS_PER_TURN = 4;
    /** The reserve below the cap that background eviction keeps free: cap / this. */
    static final int RESERVE_DIVISOR = 16;
    /** How often the working target is reconsidered. */
    public static final long ADAPT_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Below this share of uses that found their connection open, the target shrinks. */
    static final int SHRINK_BELOW_HIT_PERCENT = 25;
    /** Above this share, it is doubled back toward the full target. */
    static final int GROW_ABOVE_HIT_PERCENT = 50;
    /** Uses a period needs before its hit rate moves the target. */
    static final int MIN_USES_PER_PERIOD = 200;
    /** The lowest working target: the cap / this, and never under {@link #MIN_FLOOR}. */
    static final int FLOOR_DIVISOR = 32;
    static final int MIN_FLOOR = 64;

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

        /**
         * Keeps {@code closes}, the budget's count of closed connections when this database's
         * connections were all closed; see "The working target".
         */
        void releasedAt(long closes);

        /** The stamp {@link #releasedAt} kept, cleared as it is read: 0 when none since. */
        long takeReleasedAt();
    }

    private final int max;
    /** The cap less the reserve: the working target when connections are reused. */
    private final int fullTarget;
    /** What background eviction brings the count back to; see "The working target". */
    private volatile int target;
    private final WorkerPool pool;
    private final AtomicInteger open = new AtomicInteger();
    /** Requests that needed a connection; counted only under a cap. */
    private final LongAdder uses = new LongAdder();
    /** Connections opened at the target, each displacing another; see "The working target". */
    private final LongAdder displacingOpens = new LongAdder();
    /** First connections that the full target would have kept open; see "The working target". */
    private final LongAdder wouldBeHits = new LongAdder();
    /** Connections closed since the runtime started: the distance of a would-be hit. */
    private final AtomicLong closes = new AtomicLong();
    // read and written only by adapt, on the timer's thread
    private long lastUses;
    private long lastDisplacing;
    private long lastWouldBeHits;
    private final AtomicInteger evictors = new AtomicInteger();
    private final EvictionOrder order = new EvictionOrder();

    /** A budget that evicts only at the cap, on the opening thread (for tests and no pool). */
    public ConnectionBudget(int maxOpenConnections) {
        this(maxOpenConnections, null);
    }

    /**
     * A budget whose evictions ahead of the cap run as background turns of {@code pool} (none
     * when null).
     */
    public ConnectionBudget(int maxOpenConnections, WorkerPool pool) {
        this.max = maxOpenConnections;
        this.pool = pool;
        this.fullTarget = pool == null ? maxOpenConnections
                : maxOpenConnections - maxOpenConnections / RESERVE_DIVISOR;
        this.target = fullTarget;
    }

    /**
     * Reconsiders the working target every {@link #ADAPT_PERIOD_NANOS} on {@code timer}, until
     * the timer shuts down; a budget without a cap or without a pool has none to move.
     */
    public void adaptEvery(Timer timer) {
        if (max <= 0 || fullTarget == max) {
            return;
        }
        try {
            timer.scheduleWithFixedDelay(this::adapt, ADAPT_PERIOD_NANOS);
        } catch (RejectedExecutionException e) {
            // the runtime is shutting down
        }
    }

    /** A request needed a connection (a read, or a turn of a writer lane). */
    public void used() {
        if (max > 0) {
            uses.increment();
        }
    }

    /** The lowest the working target goes. */
    int floor() {
        return Math.min(fullTarget, Math.max(MIN_FLOOR, max / FLOOR_DIVISOR));
    }

    /** One period's look at the hit rate; on the timer's thread. */
    void adapt() {
        long u = uses.sum();
        long d = displacingOpens.sum();
        long w = wouldBeHits.sum();
        long periodUses = u - lastUses;
        long periodDisplacing = d - lastDisplacing;
        long periodWouldBe = w - lastWouldBeHits;
        lastUses = u;
        lastDisplacing = d;
        lastWouldBeHits = w;
        if (periodUses < MIN_USES_PER_PERIOD) {
            return;
        }
        // the hits, and the misses the full target would have kept open
        long fullHitPercent = Math.min(100, Math.max(0, 100 - periodDisplacing * 100 / periodUses)
                + periodWouldBe * 100 / periodUses);
        int was = target;
        int now = was;
        if (fullHitPercent < SHRINK_BELOW_HIT_PERCENT) {
            now = floor(); // no smaller target hits more often; see "The working target"
        } else if (fullHitPercent > GROW_ABOVE_HIT_PERCENT) {
            now = Math.min(fullTarget, was * 2);
        }
        if (now == was) {
            return;
        }
        target = now;
        LoggerFactory.getLogger(LogNames.LIFECYCLE).debug("connection budget: {} connections "
                + "opened at the target ({} of them kept open by the full target) for {} uses, "
                + "a hit rate of {} % at the full target; working target {} -> {} of {}",
                periodDisplacing, periodWouldBe, periodUses, fullHitPercent, was, now, max);
        if (open.get() > now) {
            try {
                startBackgroundEviction();
            } catch (RuntimeException e) {
                // a failed submit must not end the timer's periodic task; the next open past
                // the target starts the eviction again
                LoggerFactory.getLogger(LogNames.LIFECYCLE).warn("connection budget: could not "
                        + "start evicting down to the new target", e);
            }
        }
    }

    /**
     * A connection opened: past the cap, idle databases lose theirs now, on this thread; past
     * the target, in the background.
     */
    public void opened() {
        int now = open.incrementAndGet();
        if (max <= 0) {
            return;
        }
        if (now > max) {
            evict(max, MAX_EVICTIONS_PER_OPEN);
        }
        int t = target;
        if (now > t - MAX_BACKGROUND_EVICTORS) {
            // at the target: the evictors running side by side can leave the count up to one
            // victim each below it, and an open there still displaces a connection
            displacingOpens.increment();
        }
        if (t < max && open.get() > t) {
            startBackgroundEviction();
        }
    }

    /** A connection closed. */
    public void closed() {
        open.decrementAndGet();
        closes.incrementAndGet();
    }

    /** Connections open now. */
    public int open() {
        return open.get();
    }

    /** The cap; 0 for none. */
    public int max() {
        return max;
    }

    /**
     * The count background eviction brings the open connections back to now: the cap without a
     * pool, else at most the cap less the reserve (see "The working target").
     */
    public int target() {
        return target;
    }

    /**
     * {@code db} opened a connection: it is a candidate until {@link #released}. Its first
     * after a release is a would-be hit when the full target would have kept it open.
     */
    public void candidate(Evictable db) {
        long releasedAt = db.takeReleasedAt();
        if (releasedAt != 0 && closes.get() - releasedAt < fullTarget - target) {
            wouldBeHits.increment();
        }
        order.opened(db);
    }

    /** {@code db}'s connections were all closed (by an eviction or its close). */
    public void released(Evictable db) {
        db.releasedAt(Math.max(1, closes.get()));
        order.released(db);
    }

    /**
     * Evicts victims while more than {@code limit} connections are open, at most {@code most}.
     *
     * @return whether it stopped for want of an evictable victim
     */
    private boolean evict(int limit, int most) {
        for (int attempts = 0; attempts < most && open.get() > limit; attempts++) {
            Evictable victim = order.takeVictim();
            if (victim == null) {
                return true; // nothing idle to evict now; the next open tries again
            }
            if (!victim.evictNow()) {
                order.requeue(victim);
            }
        }
        return false;
    }

    /**
     * How many background evictors may run at once with {@code backlog} connections past the
     * target: one per {@link #BACKLOG_PER_EVICTOR}, at least {@link #MAX_BACKGROUND_EVICTORS},
     * and past that at most {@link #MAX_CATCHING_UP_EVICTORS} and half the pool's threads (the
     * rest stay free for the lanes and readers).
     */
    static int evictorsFor(int backlog, int poolThreads) {
        int wanted = Math.min(MAX_CATCHING_UP_EVICTORS, backlog / BACKLOG_PER_EVICTOR);
        return Math.max(MAX_BACKGROUND_EVICTORS, Math.min(wanted, poolThreads / 2));
    }

    private void startBackgroundEviction() {
        int most = evictorsFor(open.get() - target, pool.maxThreads());
        for (int n = evictors.get(); n < most; n = evictors.get()) {
            if (evictors.compareAndSet(n, n + 1)) {
                try {
                    pool.submit(new BackgroundEviction());
                } catch (RuntimeException | Error e) {
                    evictors.decrementAndGet(); // no turn will run to give the claim back
                    throw e;
                }
                return;
            }
        }
    }

    /**
     * One background evictor: a few victims per turn, submitted again while the count is past
     * the target and victims are found.
     */
    private final class BackgroundEviction implements WorkerPool.Task {
        @Override
        public void runTurn() {
            boolean starved = true;
            try {
                starved = evict(target, EVICTIONS_PER_TURN);
            } catch (RuntimeException | Error e) {
                // An eviction reports its own failures; this one escaped. Stop; an open retries.
                LoggerFactory.getLogger(LogNames.LIFECYCLE)
                        .warn("a background eviction failed; the next open evicts again", e);
            }
            if (!starved && open.get() > target) {
                pool.submit(this);
                return;
            }
            evictors.decrementAndGet();
            // An open that found every evictor busy just before this one stopped left the work
            // to it: look once more, unless this one stopped because nothing could be evicted
            // (then the next open past the target tries again; looping here would spin).
            if (!starved && open.get() > target) {
                startBackgroundEviction();
            }
        }

        @Override
        public boolean background() {
            return true;
        }
    }
}
