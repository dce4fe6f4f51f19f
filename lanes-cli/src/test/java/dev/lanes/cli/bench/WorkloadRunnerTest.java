package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Synchronous;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

// guards against a hung writer, not speed assertions: each run lasts 100 ms
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class WorkloadRunnerTest {
    private final WorkloadRunner runner =
            new WorkloadRunner(3, Duration.ofMillis(20), Duration.ofMillis(100));

    @Test
    void failuresAreCountedByKindAndTheWritersGoOn() throws Exception {
        // every third insert fails busy, as a contended pool's would
        FakeSystem system = new FakeSystem(n -> n % 3 == 0
                ? new SQLiteException("database is locked", SQLiteErrorCode.SQLITE_BUSY)
                : null);

        RunResult result = runner.run(system, Synchronous.NORMAL);

        assertThat(result.threads()).isEqualTo(3);
        assertThat(result.writes()).isPositive();
        assertThat(result.errors()).containsOnlyKeys("SQLITE_BUSY");
        assertThat(result.errors().get("SQLITE_BUSY")).isPositive();
        // the warm-up's acknowledged writes are not measured, but they are in the table
        assertThat(result.acknowledged()).isGreaterThanOrEqualTo(result.writes());
        assertThat(result.rows()).isEqualTo(system.acknowledged.get());
        assertThat(result.writesPerSecond()).isEqualTo(result.writes() / 0.1);
    }

    @Test
    void anErrorInAWriterVoidsTheRun() {
        FakeSystem system = new FakeSystem(n -> {
            throw new AssertionError("bug in the system under test");
        });

        assertThatThrownBy(() -> runner.run(system, Synchronous.NORMAL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a writer thread died")
                .hasRootCauseInstanceOf(AssertionError.class);
    }

    /** Decides, by the insert's sequence number, whether it fails and how. */
    private interface Failures {
        SQLException failureOf(long n);
    }

    /** A system that stores nothing and fails when told to. */
    private static final class FakeSystem implements BenchSystem {
        private final Failures failures;
        private final AtomicLong attempts = new AtomicLong();
        final AtomicLong acknowledged = new AtomicLong();

        FakeSystem(Failures failures) {
            this.failures = failures;
        }

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public void insert(String payload) throws SQLException {
            assertThat(payload).hasSize(100);
            SQLException failure = failures.failureOf(attempts.incrementAndGet());
            if (failure != null) {
                throw failure;
            }
            acknowledged.incrementAndGet();
        }

        @Override
        public long countRows() {
            return acknowledged.get();
        }

        @Override
        public void close() {}
    }
}
