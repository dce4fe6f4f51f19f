package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Writer threads on a cluster database, each writing unique values into {@code t(v)} as fast as
 * they are answered: mostly single-row inserts ({@code wK-s-W-N}), every fifth a batch of three
 * rows ({@code wK-b-W-N-0..2}), {@code K} telling sets apart, and a ledger of every write's outcome. {@link #check} then holds the
 * table against the ledger: every acknowledged write is there exactly once, a batch is all or
 * nothing, a write that failed certainly ({@code ROLLED_BACK}, {@code NOT_STARTED}) left nothing,
 * no write is there twice.
 *
 * <p>Concurrency: each thread writes its own keys into the concurrent ledger; {@link #acks}
 * releases a permit per acknowledged write, so that a test waits for progress without polling;
 * {@link #stop} is read by every thread.
 */
final class Writers implements AutoCloseable {
    /** What became of one write. */
    enum Outcome { ACKED, ROLLED_BACK, NOT_STARTED, UNKNOWN }

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Database db;
    /** Tells this set's values from those of earlier sets on the same table. */
    private final String prefix = "w" + INSTANCES.incrementAndGet() + "-";
    private final Map<String, Outcome> ledger = new ConcurrentHashMap<>();
    private final Map<String, Throwable> failures = new ConcurrentHashMap<>();
    private final Semaphore acks = new Semaphore(0);
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;

    Writers(Database db, int count) {
        this.db = db;
        for (int w = 0; w < count; w++) {
            int writer = w;
            Thread t = new Thread(() -> loop(writer), "cluster-writer-" + w);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    private void loop(int writer) {
        for (int n = 0; !stop; n++) {
            boolean batch = n % 5 == 4;
            String key = prefix + (batch ? "b-" : "s-") + writer + "-" + n;
            try {
                if (batch) {
                    db.executeBatch(List.of(
                            Statement.of("INSERT INTO t(v) VALUES (?)", key + "-0"),
                            Statement.of("INSERT INTO t(v) VALUES (?)", key + "-1"),
                            Statement.of("INSERT INTO t(v) VALUES (?)", key + "-2")));
                } else {
                    db.execute("INSERT INTO t(v) VALUES (?)", key);
                }
                ledger.put(key, Outcome.ACKED);
                acks.release();
            } catch (LanesException e) {
                ledger.put(key, Outcome.valueOf(e.outcome().name()));
                failures.put(key, e);
            }
        }
    }

    /** Waits until {@code n} more writes were acknowledged. */
    void awaitAcks(int n) throws InterruptedException {
        if (!acks.tryAcquire(n, 60, TimeUnit.SECONDS)) {
            throw new AssertionError("the writers did not get " + n + " more writes acknowledged"
                    + " within 60 s; failures so far: " + failureSummary());
        }
    }

    /** Stops the writers and waits for them: each finishes the write it is in. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as(t.getName() + " still writing").isFalse();
        }
    }

    /** The outcomes by kind. */
    Map<Outcome, Long> outcomes() {
        Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
        ledger.values().forEach(o -> counts.merge(o, 1L, Long::sum));
        return counts;
    }

    long acknowledged() {
        return outcomes().getOrDefault(Outcome.ACKED, 0L);
    }

    String failureSummary() {
        Map<String, Long> kinds = new HashMap<>();
        failures.values().forEach(f -> kinds.merge(f.getClass().getSimpleName() + ": "
                + f.getMessage(), 1L, Long::sum));
        return kinds.toString();
    }

    /**
     * Holds the table against the ledger (after {@link #close()}); returns the rows the ledger
     * accounts for.
     */
    long check() {
        Map<String, Long> rows = new HashMap<>();
        for (Row row : db.query("SELECT v, count(*) AS n FROM t WHERE v LIKE ? GROUP BY v",
                prefix + "%")) {
            rows.put(row.getString("v"), row.getLong("n"));
        }
        assertThat(rows.values()).as("no write is there twice").allMatch(n -> n == 1);
        long accounted = 0;
        for (Map.Entry<String, Outcome> e : ledger.entrySet()) {
            String key = e.getKey();
            Outcome outcome = e.getValue();
            boolean batch = key.startsWith(prefix + "b-");
            long parts = batch ? Stream.of("-0", "-1", "-2")
                    .filter(part -> rows.containsKey(key + part)).count()
                    : rows.containsKey(key) ? 1 : 0;
            if (batch) {
                assertThat(parts).as("batch " + key + " is all or nothing").isIn(0L, 3L);
            }
            accounted += parts;
            long present = parts > 0 ? 1 : 0;
            assertThat(outcome).as(key + " has an outcome, never UNKNOWN: "
                    + failures.get(key)).isNotEqualTo(Outcome.UNKNOWN);
            assertThat(present).as(key + " " + outcome + ": " + failures.get(key))
                    .isEqualTo(outcome == Outcome.ACKED ? 1L : 0L);
        }
        assertThat(rows.size()).as("every row is a write of the ledger").isEqualTo(accounted);
        return accounted;
    }

    /** Whether every write was acknowledged. */
    boolean noFailures() {
        return failures.isEmpty();
    }
}
