package dev.lanes;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reads from virtual threads never run SQLite on the virtual thread, so they never pin its
 * carrier. Runs only on JDK 21+; the code compiles with {@code --release 17}, so the JDK 21 API
 * is reached reflectively.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderVirtualThreadsTest {
    /**
     * About two seconds of SQLite work: were it run on a virtual thread, its carrier would be
     * pinned, and with as many slow reads as carriers no other virtual thread (the ticker) could
     * run for that long.
     */
    static final String SLOW_READ = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
            + "SELECT x + 1 FROM c WHERE x < 20000000) SELECT max(x) FROM c";
    /** How late a 10 ms tick may be; generous: a liveness check, not a speed assertion. */
    static final Duration TICK_BOUND = Duration.ofMillis(1500);

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @BeforeAll
    static void requireVirtualThreads() {
        VirtualThreads.assumeAvailable();
    }

    /** Starts a virtual thread running {@code task}. */
    static Thread startVirtual(String name, Runnable task) throws Exception {
        Class<?> builderType = Class.forName("java.lang.Thread$Builder");
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        builder = builderType.getMethod("name", String.class).invoke(builder, name);
        return (Thread) builderType.getMethod("start", Runnable.class).invoke(builder, task);
    }

    @Test
    void aVirtualThreadInterruptedBeforeItsReadStartedFailsNotStartedInsteadOfWaitingForever()
            throws Exception {
        runtime.start(Lanes.builder().name("one-thread").maxThreads(1));
        Database db = runtime.openWithTable("interrupted.db");
        // the only pool thread is held by a write body, so the read waits for it with its reader
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> body = db.writeAsync(c -> {
            holding.countDown();
            release.await();
            return null;
        });
        TestLanes.await(holding, "the write body to hold the pool thread");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread caller = startVirtual("interrupted-read", () -> {
            try {
                db.query("SELECT 1");
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        try {
            TestLanes.awaitTrue("the read to hold its reader",
                    () -> db.diagnostics().readers().currentCheckouts() == 1);
            caller.interrupt();
            caller.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(caller.isAlive()).as("the interrupted caller returned").isFalse();
            assertThat(failure.get()).isInstanceOf(CancelledException.class);
            assertThat(((LanesException) failure.get()).outcome())
                    .isEqualTo(WriteOutcome.NOT_STARTED);
        } finally {
            release.countDown();
        }
        body.join();
        assertThat(db.query("SELECT 2 AS n").get(0).getLong("n")).isEqualTo(2);
        // the cancelled read's pool task gives its lease back when the only pool thread reaches
        // it, which can be just after the write body's future completed
        TestLanes.awaitTrue("the cancelled read's reader to come back",
                () -> db.diagnostics().readers().currentCheckouts() == 0);
    }

    /** A ticker: every 10 ms notes how late it woke; the worst lateness is the evidence. */
    static final class Ticker implements Runnable {
        final AtomicLong worstLatenessNanos = new AtomicLong();
        final AtomicInteger ticks = new AtomicInteger();
        final AtomicBoolean stop = new AtomicBoolean();

        @Override
        public void run() {
            long period = TimeUnit.MILLISECONDS.toNanos(10);
            long next = System.nanoTime() + period;
            while (!stop.get()) {
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    try {
                        Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                long late = System.nanoTime() - next;
                worstLatenessNanos.accumulateAndGet(late, Math::max);
                ticks.incrementAndGet();
                next = Math.max(next + period, System.nanoTime());
            }
        }
    }

    @Tag("slow") // scale and timing: 10,000 virtual threads, tick lateness bounds
    @Test
    void tenThousandVirtualThreadsReadAndWriteWhileTimersStayOnTime() throws Exception {
        int callers = 10_000;
        int slowReaders = Math.max(2, Runtime.getRuntime().availableProcessors());
        Lanes lanes = runtime.start(Lanes.builder().name("vt-read").maxThreads(16));
        Database db = runtime.openWithTable("vt-read.db", DatabaseOptions.builder()
                .writeQueueCapacity(callers).readers(Math.max(4, slowReaders))
                .readerCheckoutTimeout(Duration.ofSeconds(60)).build());
        db.execute("INSERT INTO t(v) VALUES ('seed')");

        Ticker virtualTicker = new Ticker();
        Thread virtualTickerThread = startVirtual("virtual-ticker", virtualTicker);
        Ticker platformTicker = new Ticker();
        ScheduledExecutorService platform = Executors.newSingleThreadScheduledExecutor();
        platform.execute(platformTicker);

        AtomicInteger bodiesOnVirtualThreads = new AtomicInteger();
        AtomicInteger virtualCallers = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> results = new ArrayList<>();
        ExecutorService vts = VirtualThreads.perTaskExecutor();
        try {
            for (int i = 0; i < slowReaders; i++) {
                results.add(vts.submit(() -> {
                    await(go, "the start");
                    for (int round = 0; round < 1; round++) {
                        db.read(c -> {
                            if (VirtualThreads.isVirtual(Thread.currentThread())) {
                                bodiesOnVirtualThreads.incrementAndGet();
                            }
                            try (ResultSet rs = c.createStatement().executeQuery(SLOW_READ)) {
                                rs.next();
                                return rs.getLong(1);
                            }
                        });
                    }
                    return null;
                }));
            }
            for (int i = 0; i < callers; i++) {
                int n = i;
                results.add(vts.submit(() -> {
                    if (VirtualThreads.isVirtual(Thread.currentThread())) {
                        virtualCallers.incrementAndGet();
                    }
                    await(go, "the start");
                    if (n % 2 == 0) {
                        db.execute("INSERT INTO t(v) VALUES (?)", "vt-" + n);
                    }
                    List<Row> rows = db.query("SELECT count(*) AS n FROM t");
                    boolean onVirtual = db.read(c -> VirtualThreads.isVirtual(Thread.currentThread()));
                    if (onVirtual) {
                        bodiesOnVirtualThreads.incrementAndGet();
                    }
                    return rows.get(0).getLong("n");
                }));
            }
            go.countDown();
            for (Future<?> f : results) {
                f.get(90, TimeUnit.SECONDS);
            }
        } finally {
            vts.shutdownNow();
            virtualTicker.stop.set(true);
            platformTicker.stop.set(true);
            platform.shutdownNow();
            virtualTickerThread.join(TestLanes.WAIT.toMillis());
        }

        assertThat(virtualCallers).as("the callers really were virtual").hasValue(callers);
        assertThat(bodiesOnVirtualThreads).as("reads that ran on a virtual thread").hasValue(0);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(1 + callers / 2);
        assertThat(virtualTicker.ticks.get()).as("the virtual ticker ran").isPositive();
        assertThat(Duration.ofNanos(virtualTicker.worstLatenessNanos.get()))
                .as("worst lateness of a virtual thread's 10 ms timer (no pinned carriers)")
                .isLessThan(TICK_BOUND);
        assertThat(Duration.ofNanos(platformTicker.worstLatenessNanos.get()))
                .as("worst lateness of a platform thread's 10 ms timer")
                .isLessThan(TICK_BOUND);
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.peakCheckouts()).isLessThanOrEqualTo(Math.max(4, slowReaders));
        assertThat(r.checkoutTimeouts()).isZero();
        assertThat(lanes.diagnostics().liveThreads()).isLessThanOrEqualTo(16);
    }

    @Test
    void interruptingAVirtualThreadWaitingForItsReadCancelsIt() throws Exception {
        Lanes lanes = runtime.start(Lanes.builder().name("vt-cancel"));
        Database db = runtime.openWithTable("vt-cancel.db",
                DatabaseOptions.builder().readers(1).build());
        CountDownLatch started = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<Throwable> outcome =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread caller = startVirtual("vt-reader", () -> {
            try {
                db.read(c -> {
                    started.countDown();
                    try (ResultSet rs = c.createStatement().executeQuery(
                            ReaderDeadlineTest.RUNAWAY)) {
                        rs.next();
                        return rs.getLong(1);
                    }
                });
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        await(started, "the virtual thread's read to run on the pool");
        caller.interrupt();
        caller.join(TestLanes.WAIT.toMillis());
        assertThat(caller.isAlive()).isFalse();
        assertThat(outcome.get()).isInstanceOf(CancelledException.class);
        assertThat(db.diagnostics().readers().currentCheckouts()).isZero();
        assertThat(db.query("SELECT 1 AS one").get(0).getLong("one")).isEqualTo(1);
        assertThat(db.diagnostics().readers().replacedConnections()).isZero();
    }
}
