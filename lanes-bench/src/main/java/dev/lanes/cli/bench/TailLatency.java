package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario's latency percentiles as one published figure: one row per synchronous level,
 * thread count and system, each the median of every run of that system there ({@link
 * Repetitions#median}), ordered by level, then threads, then the order the systems first ran.
 * {@code --markdown} and {@code --report} show it for the write scenario, whose {@code --writers}
 * sets the thread counts.
 */
final class TailLatency {
    private TailLatency() {}

    /**
     * One system at one level and thread count.
     *
     * @param operationsPerSecond the median throughput, in the scenario's unit
     * @param latency the median of each percentile
     */
    record Row(Synchronous synchronous, int threads, String system, double operationsPerSecond,
            Latency latency) {}

    /** The rows of {@code scenario}'s runs in {@code report}; none when it did not run. */
    static List<Row> of(BenchReport report, Scenario scenario) {
        Map<List<Object>, List<RunResult>> series = new LinkedHashMap<>();
        for (RunResult run : report.runs()) {
            if (run.scenario() == scenario) {
                series.computeIfAbsent(List.of(run.synchronous(), run.threads(), run.system()),
                        k -> new ArrayList<>()).add(run);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (List<RunResult> runs : series.values()) {
            RunResult median = Repetitions.median(runs);
            rows.add(new Row(median.synchronous(), median.threads(), median.system(),
                    median.operationsPerSecond(), median.latency()));
        }
        // stable: systems keep the order they first ran in
        rows.sort(Comparator.comparing(Row::synchronous, Comparator.nullsLast(
                Comparator.<Synchronous>naturalOrder())).thenComparingInt(Row::threads));
        return rows;
    }
}
