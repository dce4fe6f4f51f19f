package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
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
}
