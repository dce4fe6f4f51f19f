package dev.lanes;

import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Read-then-write from many threads: each transaction reads a counter and writes it back plus
 * one. Holding the write lock from BEGIN on means no increment is lost and none fails BUSY
 * (the plain {@code BEGIN} of a pooled JDBC client fails most of them with SQLITE_BUSY).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionCounterTest {
    static final int THREADS = 16;
    static final int PER_THREAD = 100;

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void sixteenThreadsIncrementingThroughReadThenWriteTransactionsLoseNoUpdateAndNeverFailBusy()
            throws Exception {
        Database db = runtime.open("counter.db");
        db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
        db.execute("INSERT INTO counter VALUES (1, 0)");

        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicLong commits = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            workers.add(threads.submit(() -> {
                TestLanes.await(go, "the start signal");
                for (int i = 0; i < PER_THREAD; i++) {
                    try (Transaction tx = db.begin()) {
                        long n = tx.query("SELECT n FROM counter WHERE id = 1").get(0).getLong("n");
                        tx.execute("UPDATE counter SET n = ? WHERE id = 1", n + 1);
                        tx.commit();
                        commits.incrementAndGet();
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
            }));
        }
        go.countDown();
        for (Future<?> w : workers) {
            w.get(TestLanes.WAIT.toSeconds() * 3, TimeUnit.SECONDS);
        }

        assertThat(failures).as("failed transactions").isEmpty();
        assertThat(failures).noneMatch(e -> e instanceof BusyException);
        assertThat(commits.get()).isEqualTo((long) THREADS * PER_THREAD);
        assertThat(scalar(db, "SELECT n FROM counter WHERE id = 1"))
                .as("every increment landed").isEqualTo((long) THREADS * PER_THREAD);
        assertThat(db.diagnostics().writer().counters().failed()).isZero();
    }

    @Test
    void readThenWriteTransactionsInterleavedWithPlainWritesLoseNoUpdate() throws Exception {
        Database db = runtime.open("mixed.db");
        db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
        db.execute("INSERT INTO counter VALUES (1, 0)");

        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            boolean plain = t % 2 == 0;
            workers.add(threads.submit(() -> {
                TestLanes.await(go, "the start signal");
                for (int i = 0; i < PER_THREAD / 2; i++) {
                    try {
                        if (plain) {
                            db.execute("UPDATE counter SET n = n + 1 WHERE id = 1");
                        } else {
                            try (Transaction tx = db.begin()) {
                                long n = tx.query("SELECT n FROM counter WHERE id = 1")
                                        .get(0).getLong("n");
                                tx.execute("UPDATE counter SET n = ? WHERE id = 1", n + 1);
                                tx.commit();
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
            }));
        }
        go.countDown();
        for (Future<?> w : workers) {
            w.get(TestLanes.WAIT.toSeconds() * 3, TimeUnit.SECONDS);
        }

        assertThat(failures).isEmpty();
        assertThat(scalar(db, "SELECT n FROM counter WHERE id = 1"))
                .isEqualTo((long) THREADS * (PER_THREAD / 2));
    }
}
