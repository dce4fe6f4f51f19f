package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanes.Synchronous;
import java.lang.reflect.Method;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

// guards against a hung thread, not speed assertions: each run lasts 100 ms
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class WorkloadRunnerTest {
    private final WorkloadRunner runner =
            new WorkloadRunner(Duration.ofMillis(20), Duration.ofMillis(100));

    @Test
    void failuresAreCountedByKindAndTheThreadsGoOn() throws Exception {
        AtomicLong attempts = new AtomicLong();
        AtomicLong acknowledged = new AtomicLong();
        // every third request fails busy, as a contended pool's would
        Workload workload = thread -> () -> {
            if (attempts.incrementAndGet() % 3 == 0) {
                throw new SQLiteException("database is locked", SQLiteErrorCode.SQLITE_BUSY);
            }
            acknowledged.incrementAndGet();
            return "insert";
        };

        Measurement m = runner.run("test", workload, 3);

        assertThat(m.latency().count()).isPositive();
        assertThat(m.errors().counts()).containsOnlyKeys("SQLITE_BUSY");
        // the warm-up's successes are not measured, but they are acknowledged
        assertThat(m.acknowledged()).isEqualTo(acknowledged.get())
                .isGreaterThanOrEqualTo(m.latency().count());
        assertThat(m.operationsPerSecond()).isEqualTo(m.latency().count() / 0.1);
        assertThat(m.backgroundOperations()).isEqualTo(-1);
        assertThat(m.backgroundPerSecond()).isNull();
        // the window's CPU time, sampled at its ends: positive where the JVM tells it
        if (ProcessCpu.nanos() == ProcessCpu.UNAVAILABLE) {
            assertThat(m.cpuNanos()).isEqualTo(ProcessCpu.UNAVAILABLE);
            assertThat(m.cpuMicrosPerOperation()).isNull();
        } else {
            assertThat(m.cpuNanos()).isPositive();
            assertThat(m.cpuWallNanos()).isPositive();
            assertThat(m.cpuMicrosPerOperation())
                    .isEqualTo(m.cpuNanos() / 1e3 / m.latency().count());
            assertThat(m.cpuUtilisation()).isPositive();
        }
    }

    @Test
    void latenciesAreKeptByKindAndAddUpToTheTotal() throws Exception {
        Workload mixed = thread -> {
            long[] n = {0};
            return () -> ++n[0] % 4 == 0 ? "write" : "read";
        };

        Measurement m = runner.run("mixed", mixed, 2);

        assertThat(m.latencyByKind()).containsOnlyKeys("read", "write");
        assertThat(m.latencyByKind().get("read").count() + m.latencyByKind().get("write").count())
                .isEqualTo(m.latency().count());
    }

    @Test
    void aBackgroundThreadIsCountedButNotMeasured() throws Exception {
        AtomicLong background = new AtomicLong();

        Measurement m = runner.run("with-writer", thread -> () -> "read", 2,
                thread -> () -> {
                    background.incrementAndGet();
                    return "write";
                });

        assertThat(m.latencyByKind()).containsOnlyKeys("read");
        assertThat(m.backgroundOperations()).isPositive().isLessThanOrEqualTo(background.get());
        assertThat(m.backgroundPerSecond()).isPositive();
    }

    @Test
    void eachThreadOpensAndClosesItsOwnOperation() throws Exception {
        AtomicLong opened = new AtomicLong();
        AtomicLong closed = new AtomicLong();
        Workload workload = thread -> {
            opened.incrementAndGet();
            return new Operation() {
                @Override
                public String run() {
                    return "read";
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                }
            };
        };

        runner.run("lifecycle", workload, 4);

        assertThat(opened.get()).isEqualTo(4);
        assertThat(closed.get()).isEqualTo(4);
    }

    @Test
    void anErrorInAThreadVoidsTheRun() {
        Workload workload = thread -> () -> {
            throw new AssertionError("bug in the system under test");
        };

        assertThatThrownBy(() -> runner.run("broken", workload, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a bench thread failed")
                .hasRootCauseInstanceOf(AssertionError.class);
    }

    @Test
    void aThreadThatCannotOpenVoidsTheRunWithoutStrandingTheOthers() {
        Workload workload = thread -> {
            if (thread == 1) {
                throw new SQLException("cannot open");
            }
            return () -> "read";
        };

        assertThatThrownBy(() -> runner.run("unopened", workload, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("cannot open");
    }

    @Test
    void theThreadsComeFromTheFactoryAndAreNamedAfterTheRun() throws Exception {
        Set<Thread> made = ConcurrentHashMap.newKeySet();
        Set<Thread> ran = ConcurrentHashMap.newKeySet();
        WorkloadRunner own = new WorkloadRunner(Duration.ofMillis(20), Duration.ofMillis(100),
                task -> {
                    Thread t = new Thread(task);
                    made.add(t);
                    return t;
                });

        own.run("made", thread -> () -> {
            ran.add(Thread.currentThread());
            return "read";
        }, 3);

        assertThat(made).hasSize(3);
        assertThat(ran).isSubsetOf(made);
        assertThat(made).extracting(Thread::getName)
                .containsExactlyInAnyOrder("bench-made-0", "bench-made-1", "bench-made-2");
    }

    @Test
    void onAJvmWithVirtualThreadsTheRunCanUseThem() throws Exception {
        ThreadFactory virtual = VirtualThreads.factory();
        assumeTrue(virtual != null, "no virtual threads before JDK 21");
        Method isVirtual = Thread.class.getMethod("isVirtual");
        Set<Boolean> seen = ConcurrentHashMap.newKeySet();
        WorkloadRunner onVirtual =
                new WorkloadRunner(Duration.ofMillis(20), Duration.ofMillis(100), virtual);

        Measurement m = onVirtual.run("virtual", thread -> () -> {
            seen.add((Boolean) isVirtual.invoke(Thread.currentThread()));
            return "read";
        }, 100);

        assertThat(seen).containsExactly(true);
        assertThat(m.latency().count()).isPositive();
    }

    @Test
    void aThreadWithNoRequestAnsweredInTheWindowIsNotServed() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AtomicLong slowRequests = new AtomicLong();
        // thread 0's one request outlasts the 120 ms of warm-up and window; thread 1 is answered
        // at once, again and again
        Workload workload = thread -> () -> {
            if (thread == 0) {
                slowRequests.incrementAndGet();
                never.await(500, TimeUnit.MILLISECONDS);
            }
            return "write";
        };

        Measurement m = runner.run("one-slow", workload, 2);

        assertThat(slowRequests.get()).isEqualTo(1);
        assertThat(m.served()).isEqualTo(1);
        assertThat(m.latency().count()).isPositive();
        assertThat(RunResult.of(Scenario.WRITE, "", Synchronous.NORMAL, "lanes", 2, m, null)
                .served()).isEqualTo(1);
    }
}
