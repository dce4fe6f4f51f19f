package dev.lanes.replication;

import dev.lanes.Database;
import dev.lanes.Row;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Sustained writes with concurrent readers on one Lanes database, for as long as it runs.
 *
 * <p>Each writer thread writes requests ({@link Requests#write}) one after the other through
 * {@link Database#write}, paced to its share of a target rate when one is given (a slot every
 * {@code writers / rate} seconds; a writer that fell behind catches up by one slot at most),
 * records the id once the write returned (its acknowledgement), and the write's latency with its
 * wall-clock start. Each reader checks that the latest acknowledged request is visible whole
 * ({@code count = 2}), reads the table's size, and samples the WAL's size from the diagnostics.
 * Every failure is recorded, never swallowed.
 *
 * <h2>Concurrency</h2>
 * {@link #running} is the only signal between the test and the threads; the acknowledged set
 * and the failure queues are concurrent collections; each writer owns its latency arrays until
 * {@link #stop()} has joined it, after which the test thread reads them.
 */
final class Workload {
    private final Database db;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong latestAcked = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong maxWalBytes = new AtomicLong();
    private final Set<Long> acked = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Throwable> writeFailures = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> readFailures = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<Latencies> latencies = new ArrayList<>();

    private final long slotNanos;

    /**
     * @param requestsPerSecond the writers' combined target rate, or 0 to write as fast as they can
     */
    Workload(Database db, int writers, int readers, int requestsPerSecond) {
        this.db = db;
        this.slotNanos = requestsPerSecond == 0 ? 0
                : TimeUnit.SECONDS.toNanos(1) * writers / requestsPerSecond;
        for (int i = 0; i < writers; i++) {
            Latencies own = new Latencies();
            latencies.add(own);
            threads.add(new Thread(() -> writeLoop(own), "workload-writer-" + i));
        }
        for (int i = 0; i < readers; i++) {
            threads.add(new Thread(this::readLoop, "workload-reader-" + i));
        }
    }

    void start() {
        running.set(true);
        threads.forEach(Thread::start);
    }

    /** Stops every thread and waits for them: no write is in flight once this returns. */
    void stop() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            if (t.isAlive()) {
                throw new AssertionError(t.getName() + " did not stop within 30 s");
            }
        }
    }

    private void writeLoop(Latencies own) {
        long slot = System.nanoTime();
        while (running.get()) {
            if (slotNanos > 0) {
                slot = Math.max(slot + slotNanos, System.nanoTime() - slotNanos);
                long wait = slot - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait); // pacing to the target rate, not ordering
                }
            }
            long id = ids.incrementAndGet();
            long startMillis = System.currentTimeMillis();
            long start = System.nanoTime();
            try {
                db.write(c -> Requests.write(c, id));
            } catch (RuntimeException e) {
                writeFailures.add(e);
                continue;
            }
            own.add(startMillis, System.nanoTime() - start);
            acked.add(id);
            latestAcked.accumulateAndGet(id, Math::max);
        }
    }

    private void readLoop() {
        while (running.get()) {
            try {
                long id = latestAcked.get();
                if (id > 0) {
                    List<Row> rows = db.query("SELECT count(*) AS n FROM req WHERE id = ?", id);
                    long n = rows.get(0).getLong("n");
                    if (n != 2) {
                        readFailures.add("acknowledged request " + id + " read " + n + " rows");
                    }
                }
                db.query("SELECT count(*) FROM req");
                maxWalBytes.accumulateAndGet(db.diagnostics().checkpoints().walBytes(), Math::max);
                reads.incrementAndGet();
            } catch (RuntimeException e) {
                readFailures.add(e.toString());
            }
        }
    }

    Set<Long> acked() {
        return Collections.unmodifiableSet(acked);
    }

    List<Throwable> writeFailures() {
        return List.copyOf(writeFailures);
    }

    List<String> readFailures() {
        return List.copyOf(readFailures);
    }

    long reads() {
        return reads.get();
    }

    long maxWalBytes() {
        return maxWalBytes.get();
    }

    /** Every acknowledged write's latency; call after {@link #stop()}. */
    Latencies.Summary latencies() {
        return Latencies.merge(latencies);
    }

    /** One writer's latencies: wall-clock start (ms) and duration (ns) of each acked write. */
    static final class Latencies {
        private long[] startMillis = new long[1 << 14];
        private long[] nanos = new long[1 << 14];
        private int size;

        void add(long start, long duration) {
            if (size == nanos.length) {
                startMillis = Arrays.copyOf(startMillis, size * 2);
                nanos = Arrays.copyOf(nanos, size * 2);
            }
            startMillis[size] = start;
            nanos[size] = duration;
            size++;
        }

        static Summary merge(List<Latencies> all) {
            int total = all.stream().mapToInt(l -> l.size).sum();
            long[] starts = new long[total];
            long[] durations = new long[total];
            int at = 0;
            for (Latencies l : all) {
                System.arraycopy(l.startMillis, 0, starts, at, l.size);
                System.arraycopy(l.nanos, 0, durations, at, l.size);
                at += l.size;
            }
            return new Summary(starts, durations);
        }

        /** All writes' latencies, with queries for percentiles and for a window of time. */
        static final class Summary {
            private final long[] startMillis;
            private final long[] nanos;
            private final long[] sorted;

            Summary(long[] startMillis, long[] nanos) {
                this.startMillis = startMillis;
                this.nanos = nanos;
                this.sorted = nanos.clone();
                Arrays.sort(sorted);
            }

            int count() {
                return sorted.length;
            }

            Duration percentile(double p) {
                if (sorted.length == 0) {
                    return Duration.ZERO;
                }
                int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
                return Duration.ofNanos(sorted[Math.max(0, i)]);
            }

            Duration max() {
                return sorted.length == 0 ? Duration.ZERO
                        : Duration.ofNanos(sorted[sorted.length - 1]);
            }

            /**
             * The slowest write in flight at {@code instant} (started at or before it and ended
             * at or after it, to the millisecond), or zero when none was.
             */
            Duration worstInFlightAt(Instant instant) {
                long at = instant.toEpochMilli();
                long worst = 0;
                for (int i = 0; i < nanos.length; i++) {
                    long end = startMillis[i] + TimeUnit.NANOSECONDS.toMillis(nanos[i]);
                    if (startMillis[i] <= at && end >= at) {
                        worst = Math.max(worst, nanos[i]);
                    }
                }
                return Duration.ofNanos(worst);
            }
        }
    }

    static String millis(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.1f ms", d.toNanos() / 1e6);
    }
}
