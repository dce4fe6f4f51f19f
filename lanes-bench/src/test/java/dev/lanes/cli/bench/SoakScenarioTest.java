package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SoakScenarioTest {
    private static final int LEAK_BYTES = 1024;

    @TempDir
    Path dir;

    @Test
    // a guard against a hung runtime, not a speed assertion: 3 s of load on 50 databases
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aRealLeakOfOneKibibytePerRequestFailsTheHeapSeries() throws Exception {
        BenchOptions options = new BenchOptions(List.of(Scenario.SOAK), 4, Duration.ofSeconds(3),
                Duration.ZERO, 1, List.of(Synchronous.NORMAL), 50, dev.lanes.CheckpointMode.AUTO, null,
                null, null, null,
                Duration.ofSeconds(1));
        SoakScenario leaking = new SoakScenario(options, dir, LEAK_BYTES);

        BenchReport report = new BenchSuite(options, List.of(leaking))
                .run(ReportFixtures.environment(), new BenchListener() {});

        SoakResult soak = report.soaks().get(0);
        SoakVerdict.Growth heap = soak.verdict().growth().get(0);
        assertThat(heap.series()).isEqualTo(SoakSeries.HEAP);
        assertThat(heap.passed()).isFalse();
        assertThat(soak.verdict().passed()).isFalse();
        assertThat(report.soaksPassed()).isFalse();
        assertThat(soak.verdict().failures()).anyMatch(l -> l.startsWith("heap after GC grew"));
        // the slope is what the clients kept: every request of the last window, 1 KiB each
        SoakSample last = soak.samples().get(3);
        double kept = (last.requests() + last.deliberateFailures() + last.errorCount())
                * (double) LEAK_BYTES / SoakFixtures.MIB;
        double expected = kept / (last.windowSeconds() / 60);
        assertThat(heap.slopePerMinute()).isBetween(0.8 * expected, 1.5 * expected);
        // the data stayed right: the leak is the test's, not the runtime's
        assertThat(soak.verdict().checks()).filteredOn(c -> !c.passed()).isEmpty();
    }
}
