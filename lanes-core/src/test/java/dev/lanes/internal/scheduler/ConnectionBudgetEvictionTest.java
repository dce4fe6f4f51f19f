package dev.lanes.internal.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.internal.util.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The connection budget's two ways of evicting ({@link ConnectionBudget}): past the target (the
 * cap less a sixteenth) background turns of the pool close idle databases, least recently used
 * first, while the opener goes on without waiting; at the cap itself the opener evicts at once,
 * even when no pool thread is free. The databases are stand-ins that count their connections
 * against the budget as the runtime's do, so the count the budget keeps is the one asserted.
 * The working target follows how often a use found its connection open: it drops to the floor
 * while the connections churn, and doubles back once they are reused (each period is run by
 * hand here, as the runtime's timer runs it every second).
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionBudgetEvictionTest {
    /** A database with one connection; its eviction can be held on a latch. */
    private final class Tenant extends EvictionOrderTest.Candidate {
        volatile CountDownLatch hold;
        /** Counted down when an eviction of this database starts, before any hold. */
        volatile CountDownLatch evicting;
        volatile Thread evictedOn;
        private final AtomicInteger connections = new AtomicInteger();

        Tenant(String name, long lastUsed) {
            super(name, lastUsed);
        }

        void open() {
            connections.incrementAndGet();
            budget.candidate(this);
            budget.opened();
        }

        @Override
        public boolean evictNow() {
            if (!evictable) {
                return false;
            }
            CountDownLatch started = evicting;
            if (started != null) {
                started.countDown();
            }
            CountDownLatch h = hold;
            if (h != null) {
                try {
                    h.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            evictedOn = Thread.currentThread();
            evictedInOrder.add(this);
            for (int n = connections.getAndSet(0); n > 0; n--) {
                budget.closed();
            }
            budget.released(this);
            return true;
        }
    }

    private WorkerPool pool;
    private ConnectionBudget budget;
    /** The full target of the budget {@link #budgetOf} made. */
    private int fullTarget;
    private final List<Tenant> evictedInOrder = java.util.Collections.synchronizedList(
            new ArrayList<>());

    @AfterEach
    void stopPool() {
        if (pool != null) {
            pool.shutdown();
        }
    }

    private List<Tenant> tenants(int n) {
        List<Tenant> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Tenant("t" + i, i)); // t0 least recently used
        }
        return out;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    /**
     * {@code opening} uses that open a connection for a database not open, and {@code hitting}
     * uses that found theirs open; then waits for the background to bring the count back to the
     * target, so that the period's evictions are all counted when it ends.
     */
    private int period(List<Tenant> t, int from, int opening, int hitting)
            throws InterruptedException {
        for (int i = from; i < from + opening; i++) {
            t.get(i).open();
            budget.used();
        }
        for (int i = 0; i < hitting; i++) {
            budget.used();
        }
        settle();
        return from + opening;
    }

    /** A budget of {@code cap} on a pool of {@code threads}; returns its full target. */
    private int budgetOf(String poolName, int threads, int cap) {
        pool = new WorkerPool(poolName, threads, 0, Clock.SYSTEM);
        budget = new ConnectionBudget(cap, pool);
        fullTarget = cap - cap / ConnectionBudget.RESERVE_DIVISOR;
        assertThat(budget.target()).as("the cap less a sixteenth").isEqualTo(fullTarget);
        return fullTarget;
    }

    /**
     * A {@linkplain #budgetOf budget} with {@code n} stand-ins, as many connected as its full
     * target keeps and a period looked at.
     */
    private List<Tenant> connectedUpToTheTarget(String poolName, int threads, int cap, int n)
            throws InterruptedException {
        int full = budgetOf(poolName, threads, cap);
        List<Tenant> t = tenants(n);
        period(t, 0, full, 0);
        budget.adapt();
        assertThat(budget.target()).as("connected up to the target: nothing evicted")
                .isEqualTo(full);
        return t;
    }

    /** Waits for the background to bring the count back to the target and for its evictors. */
    private void settle() throws InterruptedException {
        int target = budget.target();
        await("the background to evict down to " + target, () -> budget.open() <= target);
        await("the evictors to finish", () -> {
            WorkerPool.Snapshot p = pool.snapshot();
            return p.busyThreads() == 0 && p.runnableBackground() == 0;
        });
    }

    /** Work for one period of the budget. */
    private interface Period {
        void run() throws InterruptedException;
    }

    /** Runs {@code period} then the budget's look, until the target is full; it must double. */
    private void doublesBackToFull(String why, Period period) throws InterruptedException {
        int expected = budget.target();
        while (expected < fullTarget) {
            period.run();
            budget.adapt();
            expected = Math.min(fullTarget, expected * 2);
            assertThat(budget.target()).as(why).isEqualTo(expected);
        }
    }

    @Test
    void whileConnectionsChurnTheTargetDropsToTheFloorAndGrowsBackOnceTheyAreReused()
            throws Exception {
        List<Tenant> t = connectedUpToTheTarget("budget-adapt", 4, 640, 4_000);
        int floor = budget.floor();
        assertThat(floor).as("the floor").isEqualTo(ConnectionBudget.MIN_FLOOR);

        // 1,000 uses; 800 open a connection past the target, each displacing another: 20 %
        // found theirs open, and a smaller target, keeping fewer of the same, would find fewer.
        int next = period(t, 600, 800, 200);
        budget.adapt();
        assertThat(budget.target()).as("a fifth reused: straight to the floor").isEqualTo(floor);
        await("the background to evict down to the floor", () -> budget.open() <= floor);

        period(t, next, 700, 0);
        budget.adapt();
        assertThat(budget.target()).as("never below the floor").isEqualTo(floor);
        assertThat(budget.open()).as("at the floor").isLessThanOrEqualTo(floor);

        doublesBackToFull("doubled after a period of reuse", () -> period(t, 0, 0, 1_000));
    }

    @Test
    void atTheFloorReopeningAHotSetLargerThanItGrowsTheTargetBackToWhatHoldsIt()
            throws Exception {
        List<Tenant> t = connectedUpToTheTarget("budget-would-be", 4, 640, 2_000);
        int floor = budget.floor();
        int next = period(t, 600, 700, 0); // uniform churn
        budget.adapt();
        assertThat(budget.target()).isEqualTo(floor);

        // Then the requests turn to 300 databases, more than the floor holds: at the floor each
        // use still opens, but of a database closed fewer connections ago than the full target
        // keeps beyond the floor.
        List<Tenant> hot = t.subList(next, next + 300);
        long[] clock = {10_000};
        useEach(hot, clock);
        budget.adapt();
        assertThat(budget.target()).as("first connections of databases never released: no "
                + "sign yet that a larger target would hit").isEqualTo(floor);
        useEach(hot, clock);
        budget.adapt();
        assertThat(budget.target()).as("every reopen one the full target would have kept open")
                .isEqualTo(2 * floor);
        doublesBackToFull("doubled while the full target would hit", () -> useEach(hot, clock));
        int evicted = evictedInOrder.size();
        useEach(hot, clock);
        assertThat(evictedInOrder).as("a pass over the hot set evicts nothing").hasSize(evicted);
    }

    /** One use of each database, most recently used last; opens those without a connection. */
    private void useEach(List<Tenant> dbs, long[] clock) throws InterruptedException {
        for (Tenant x : dbs) {
            x.lastUsed = ++clock[0];
            if (x.connections.get() == 0) {
                x.open();
            }
            budget.used();
        }
        settle();
    }

    @Test
    void connectingForTheFirstTimeOrReusingOrQuietKeepsTheFullTarget() throws Exception {
        int full = budgetOf("budget-keep", 4, 640);
        List<Tenant> t = tenants(2_000);

        int next = period(t, 0, 800, 0);
        budget.adapt();
        assertThat(budget.target()).as("every use opened a connection, as at start-up, but only "
                + "the 200 past the target displaced another: 75 % is no churn").isEqualTo(full);

        next = period(t, next, 500, 10_000);
        budget.adapt();
        assertThat(budget.target()).as("evicting, but 95 % of uses found their connection open")
                .isEqualTo(full);

        period(t, next, ConnectionBudget.MIN_USES_PER_PERIOD - 1, 0);
        budget.adapt();
        assertThat(budget.target()).as("too few uses in the period to judge").isEqualTo(full);
    }

    @Test
    void pastTheTargetBackgroundTurnsEvictTheLeastRecentlyUsedWhileTheOpenerGoesOn()
            throws Exception {
        pool = new WorkerPool("budget-bg", 4, 0, Clock.SYSTEM);
        budget = new ConnectionBudget(32, pool);
        assertThat(budget.target()).as("the cap less a sixteenth").isEqualTo(30);
        List<Tenant> t = tenants(32);
        for (int i = 0; i < 30; i++) {
            t.get(i).open();
        }
        assertThat(evictedInOrder).as("nothing evicted up to the target").isEmpty();

        // The evictions are held: the opens past the target must return all the same.
        CountDownLatch hold = new CountDownLatch(1);
        for (Tenant x : t) {
            x.hold = hold;
        }
        t.get(30).open();
        t.get(31).open();
        assertThat(budget.open()).as("the opener did not wait for the eviction").isEqualTo(32);
        hold.countDown();

        // Evictors running side by side may each take one victim more than the last needed:
        // the count comes back to the target or just below it, never above the cap.
        await("the count back at the target", () -> budget.open() <= 30);
        // The count can reach the target while another evictor still records its victim (t0's
        // may be the last to finish): the order is read once every evictor is done.
        await("the evictors to finish", () -> {
            WorkerPool.Snapshot p = pool.snapshot();
            return p.busyThreads() == 0 && p.runnableBackground() == 0
                    && p.runnableForeground() == 0;
        });
        assertThat(budget.open()).isGreaterThanOrEqualTo(30 - ConnectionBudget.MAX_BACKGROUND_EVICTORS);
        assertThat(evictedInOrder).as("the least recently used first").contains(t.get(0), t.get(1))
                .allSatisfy(v -> assertThat(v.lastUsed).isLessThan(2 + ConnectionBudget.MAX_BACKGROUND_EVICTORS));
        for (Tenant victim : evictedInOrder) {
            assertThat(victim.evictedOn.getName()).as("%s evicted on a pool thread", victim)
                    .startsWith("budget-bg-worker-");
        }
    }

    @Test
    void atTheCapTheOpenerEvictsAtOnceEvenWithEveryPoolThreadBusy() throws Exception {
        pool = new WorkerPool("budget-cap", 1, 0, Clock.SYSTEM);
        budget = new ConnectionBudget(32, pool);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.submit(new WorkerPool.Task() {
            @Override
            public void runTurn() {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public boolean background() {
                return false;
            }
        });
        running.await();
        try {
            List<Tenant> t = tenants(33);
            for (int i = 0; i < 32; i++) {
                t.get(i).open();
            }
            assertThat(evictedInOrder).as("the background cannot run: its only thread is held")
                    .isEmpty();

            t.get(32).open(); // passes the cap
            assertThat(budget.open()).as("back within the cap when the open returns")
                    .isLessThanOrEqualTo(32);
            assertThat(evictedInOrder).containsExactly(t.get(0));
            assertThat(t.get(0).evictedOn).as("evicted by the opener itself")
                    .isSameAs(Thread.currentThread());
        } finally {
            release.countDown();
        }
        await("the background to bring the count to the target", () -> budget.open() == 30);
        assertThat(evictedInOrder).extracting(x -> x.name).containsExactly("t0", "t1", "t2");
    }

    @Test
    void backgroundEvictionStopsWhenNothingIsEvictableAndResumesOnTheNextOpen()
            throws Exception {
        pool = new WorkerPool("budget-none", 4, 0, Clock.SYSTEM);
        budget = new ConnectionBudget(32, pool);
        List<Tenant> t = tenants(32);
        for (Tenant x : t) {
            x.evictable = false; // every database busy
        }
        for (int i = 0; i < 31; i++) {
            t.get(i).open();
        }
        // The background turns find no victim and end: the pool goes idle, nothing evicted.
        await("the pool to go idle", () -> {
            WorkerPool.Snapshot s = pool.snapshot();
            return s.busyThreads() == 0 && s.runnableBackground() == 0;
        });
        assertThat(evictedInOrder).isEmpty();
        assertThat(budget.open()).isEqualTo(31);

        t.get(5).evictable = true;
        t.get(31).open();
        await("the next open's background eviction", () -> !evictedInOrder.isEmpty());
        assertThat(evictedInOrder).containsExactly(t.get(5));
    }

    @Test
    void farPastTheTargetMoreEvictorsOverlapUpToHalfThePool() throws Exception {
        List<Tenant> t = connectedUpToTheTarget("budget-catch-up", 64, 4_096, 3_840 + 1_100);
        int full = budget.target();
        int floor = budget.floor();
        assertThat(full).isEqualTo(3_840);
        assertThat(floor).isEqualTo(128);
        int next = period(t, full, 1_000, 0); // every use opens, displacing another
        // From here every eviction is held, so each evictor started stays busy. The target
        // drops to the floor with the full target's connections open: 3,712 past it allow the
        // catching-up bound, where 8 run near the target.
        int expected = ConnectionBudget.evictorsFor(full - floor, 64);
        assertThat(expected).isEqualTo(ConnectionBudget.MAX_CATCHING_UP_EVICTORS);
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(expected);
        for (Tenant x : t) {
            x.hold = hold;
            x.evicting = started;
        }
        try {
            budget.adapt(); // starts one evictor; each open past the target one more
            assertThat(budget.target()).isEqualTo(floor);
            for (int i = next; i < next + expected; i++) {
                t.get(i).open();
            }
            assertThat(started.await(20, TimeUnit.SECONDS)).as("%d evictions under way at once",
                    expected).isTrue();
            assertThat(pool.snapshot().busyThreads()).as("no more than the backlog allows")
                    .isEqualTo(expected);
        } finally {
            hold.countDown();
        }
        await("the count down to the floor", () -> budget.open() <= floor);
        assertThat(budget.open()).as("each evictor at most one victim past it")
                .isGreaterThanOrEqualTo(floor - expected);
    }

    @Test
    void theEvictorsAllowedGrowWithTheBacklogWithinTheirBounds() {
        assertThat(ConnectionBudget.evictorsFor(0, 64))
                .isEqualTo(ConnectionBudget.MAX_BACKGROUND_EVICTORS);
        assertThat(ConnectionBudget.evictorsFor(500, 64)).as("covered by the usual evictors")
                .isEqualTo(ConnectionBudget.MAX_BACKGROUND_EVICTORS);
        assertThat(ConnectionBudget.evictorsFor(1_280, 64)).isEqualTo(20);
        assertThat(ConnectionBudget.evictorsFor(5_000, 64)).as("at most the catching-up bound")
                .isEqualTo(ConnectionBudget.MAX_CATCHING_UP_EVICTORS);
        assertThat(ConnectionBudget.evictorsFor(5_000, 24)).as("at most half the pool")
                .isEqualTo(12);
        assertThat(ConnectionBudget.evictorsFor(5_000, 4)).as("the usual evictors, whatever the "
                + "pool: they queue for its threads as before").isEqualTo(
                ConnectionBudget.MAX_BACKGROUND_EVICTORS);
    }

    @Test
    void aBudgetUnderSixteenConnectionsOrWithoutAPoolHasNoReserve() {
        pool = new WorkerPool("budget-small", 1, 0, Clock.SYSTEM);
        assertThat(new ConnectionBudget(15, pool).target()).isEqualTo(15);
        assertThat(new ConnectionBudget(5_623, pool).target()).isEqualTo(5_623 - 351);
        assertThat(new ConnectionBudget(5_623).target()).isEqualTo(5_623);
    }
}
