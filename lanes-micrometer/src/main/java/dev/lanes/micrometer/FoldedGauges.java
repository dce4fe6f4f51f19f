package dev.lanes.micrometer;

import static dev.lanes.micrometer.MeterNames.reported;

import dev.lanes.DatabaseState;
import dev.lanes.MetricsListener.DatabaseGauges;
import java.util.Collection;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the gauges of the shared meters ({@code _other}, {@code _all}) and the state counts of
 * {@code lanes.databases} read: one scan of the open databases, reused for {@code refreshNanos}
 * because a scrape reads many gauges and at 100,000 databases a scan costs milliseconds.
 *
 * <p>Concurrency: {@link #current} is volatile and holds an immutable {@link Snapshot}. A reader
 * whose snapshot is too old scans under {@link #lock}, taken with {@code tryLock} once a snapshot
 * exists, so a reader that loses the race reads the previous snapshot instead of waiting; only
 * the very first read waits. The scan reads the live view of the open databases (a concurrent
 * map's values) and each database's gauges, which take no lock; {@code lock} is never held while
 * another lock is taken.
 */
final class FoldedGauges {
    /** The states {@code lanes.databases} counts; {@code poisoned} is counted apart. */
    static final DatabaseState[] COUNTED_STATES =
            {DatabaseState.RUNNING, DatabaseState.CLOSING, DatabaseState.DEAD};

    private final Collection<OpenDatabase> open;
    /** The meters the folded databases count in: only these fold into the shared gauges. */
    private final DatabaseMeters shared;
    private final long refreshNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Snapshot current;

    FoldedGauges(Collection<OpenDatabase> open, DatabaseMeters shared, long refreshNanos) {
        this.open = open;
        this.shared = shared;
        this.refreshNanos = refreshNanos;
    }

    /** The current snapshot, scanning the open databases when the last scan is too old. */
    Snapshot current() {
        Snapshot seen = current;
        long now = System.nanoTime();
        if (seen != null && now - seen.at < refreshNanos) {
            return seen;
        }
        if (seen != null && !lock.tryLock()) {
            return seen; // another reader scans now
        }
        if (seen == null) {
            lock.lock();
        }
        try {
            Snapshot latest = current;
            if (latest != null && latest != seen && now - latest.at < refreshNanos) {
                return latest;
            }
            Snapshot computed = new Snapshot(open, shared, System.nanoTime());
            current = computed;
            return computed;
        } finally {
            lock.unlock();
        }
    }

    /** One scan of the open databases. Values are NaN where no database reported one. */
    static final class Snapshot {
        final double queueDepth;
        final double poisoned;
        final double transactionsOpen;
        final double walMax;
        final double readersActive;
        final double readersWaiting;
        final double freeMin;
        final double reserveMax;
        final double[] states;
        final double poisonedAll;
        final long at;

        Snapshot(Iterable<OpenDatabase> entries, DatabaseMeters shared, long at) {
            this.at = at;
            long queue = 0;
            long poisonedShared = 0;
            long tx = 0;
            long walMaxSeen = -1;
            long active = -1;
            long waiting = -1;
            long free = -1;
            long reserve = -1;
            long[] counts = new long[COUNTED_STATES.length];
            boolean statesReported = false;
            long poisonedAny = 0;
            boolean any = false;
            for (OpenDatabase e : entries) {
                any = true;
                DatabaseGauges g = e.gauges;
                boolean poisonedNow = g.writerPoisoned();
                DatabaseState state = g.state();
                if (state != null) {
                    statesReported = true;
                    int i = index(state);
                    if (i >= 0) {
                        counts[i]++;
                    }
                }
                if (poisonedNow) {
                    poisonedAny++;
                }
                if (e.meters != shared) {
                    continue;
                }
                queue += g.queueDepth();
                poisonedShared += poisonedNow ? 1 : 0;
                tx += g.transactionOpen() ? 1 : 0;
                walMaxSeen = Math.max(walMaxSeen, g.walBytes());
                active = addReported(active, g.readersInUse());
                waiting = addReported(waiting, g.readersWaiting());
                long f = g.freeBytes();
                if (f >= 0) {
                    free = free < 0 ? f : Math.min(free, f);
                }
                reserve = Math.max(reserve, g.diskReserveBytes());
            }
            queueDepth = queue;
            poisoned = poisonedShared;
            transactionsOpen = tx;
            walMax = reported(walMaxSeen);
            readersActive = reported(active);
            readersWaiting = reported(waiting);
            freeMin = reported(free);
            reserveMax = reported(reserve);
            states = new double[COUNTED_STATES.length];
            for (int i = 0; i < states.length; i++) {
                states[i] = statesReported || !any ? counts[i] : Double.NaN;
            }
            poisonedAll = poisonedAny;
        }

        /** How many open databases are in {@code state}; NaN when no database reports one. */
        double state(DatabaseState state) {
            int i = index(state);
            return i < 0 ? Double.NaN : states[i];
        }

        private static int index(DatabaseState state) {
            for (int i = 0; i < COUNTED_STATES.length; i++) {
                if (COUNTED_STATES[i] == state) {
                    return i;
                }
            }
            return -1;
        }

        private static long addReported(long sum, long value) {
            if (value < 0) {
                return sum;
            }
            return sum < 0 ? value : sum + value;
        }
    }
}
