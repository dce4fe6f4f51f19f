package dev.lanes;

import static dev.lanes.TestLanes.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Many readers racing for few connections, synchronously and asynchronously, with cancellations
 * and admission timeouts mixed in: every read ends, no slot or connection leaks, and no more
 * readers than configured ever run at once.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderStressTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();


    @Test
    void racingReadsNeverExceedTheCapNorLeakASlotOrAConnection() throws Exception {
        int readers = 3;
        Lanes lanes = runtime.start(Lanes.builder().name("stress").maxThreads(8));
        Database db = runtime.openWithTable("stress.db", DatabaseOptions.builder()
                .readers(readers).readerCheckoutTimeout(Duration.ofMillis(2)).build());
        db.execute("INSERT INTO t(v) VALUES ('x')");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        LongAdder succeeded = new LongAdder();
        LongAdder timedOut = new LongAdder();
        LongAdder cancelled = new LongAdder();
        SqlFunction<Long> body = c -> {
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                if (ThreadLocalRandom.current().nextInt(8) == 0) {
                    // a few reads linger a little longer
                    for (long end = System.nanoTime() + 1_000_000; System.nanoTime() < end; ) {
                        Thread.onSpinWait();
                    }
                }
                return rs.getLong(1);
            } finally {
                inside.decrementAndGet();
            }
        };

        int threads = 8;
        int perThread = 400;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                TestLanes.await(go, "the start");
                ThreadLocalRandom random = ThreadLocalRandom.current();
                List<CompletableFuture<Long>> async = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    try {
                        switch (random.nextInt(4)) {
                            case 0:
                                async.add(db.readAsync(body));
                                break;
                            case 1:
                                CompletableFuture<Long> f = db.readAsync(body);
                                f.cancel(true);
                                async.add(f);
                                break;
                            case 2:
                                db.query("SELECT v FROM t WHERE id = ?", 1);
                                succeeded.increment();
                                break;
                            default:
                                db.read(body);
                                succeeded.increment();
                        }
                    } catch (AdmissionTimeoutException e) {
                        timedOut.increment();
                    } catch (Throwable e) {
                        unexpected.add(e);
                    }
                }
                for (CompletableFuture<Long> f : async) {
                    try {
                        f.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                        succeeded.increment();
                    } catch (java.util.concurrent.CancellationException e) {
                        cancelled.increment();
                    } catch (java.util.concurrent.ExecutionException e) {
                        if (e.getCause() instanceof AdmissionTimeoutException) {
                            timedOut.increment();
                        } else {
                            unexpected.add(e.getCause());
                        }
                    } catch (Exception e) {
                        unexpected.add(e);
                    }
                }
            }, "stress-" + t);
            worker.start();
            workers.add(worker);
        }
        go.countDown();
        for (Thread worker : workers) {
            worker.join(TestLanes.WAIT.toMillis());
            assertThat(worker.isAlive()).as(worker.getName() + " finished").isFalse();
        }

        assertThat(unexpected).isEmpty();
        assertThat(succeeded.sum() + timedOut.sum() + cancelled.sum())
                .isEqualTo((long) threads * perThread);
        assertThat(succeeded.sum()).isPositive();
        assertThat(mostInside.get()).as("never more bodies at once than readers")
                .isLessThanOrEqualTo(readers);
        TestLanes.awaitTrue("every lease to come back",
                () -> db.diagnostics().readers().currentCheckouts() == 0);
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.waiting()).isZero();
        assertThat(r.availableSlots()).isEqualTo(readers);
        assertThat(r.openConnections()).isBetween(1, readers);
        assertThat(r.peakCheckouts()).isLessThanOrEqualTo(readers);
        assertThat(r.acquisitions()).isEqualTo(r.completedCheckouts());
        assertThat(r.replacedConnections()).isZero();
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(1);
    }
}
