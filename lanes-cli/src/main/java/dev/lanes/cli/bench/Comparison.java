package dev.lanes.cli.bench;

import dev.lanes.Synchronous;

/**
 * Lanes against its baseline in one configuration of a scenario, as ratios where above 1 means
 * Lanes is better: Lanes' throughput over the baseline's, and the baseline's p50 and p99
 * latencies over Lanes'. A ratio is {@code null} when its divisor is zero (a system that
 * completed no request in the window).
 *
 * @param baseline the baseline system's name ({@code hikari} or {@code raw})
 */
record Comparison(
        Scenario scenario,
        String variant,
        Synchronous synchronous,
        int threads,
        String baseline,
        Double throughputRatio,
        Double p50Ratio,
        Double p99Ratio) {

    static Comparison of(RunResult lanes, RunResult baseline) {
        return new Comparison(
                lanes.scenario(),
                lanes.variant(),
                lanes.synchronous(),
                lanes.threads(),
                baseline.system(),
                throughputRatio(lanes.operationsPerSecond(), baseline.operationsPerSecond()),
                latencyRatio(baseline.latency().p50Micros(), lanes.latency().p50Micros()),
                latencyRatio(baseline.latency().p99Micros(), lanes.latency().p99Micros()));
    }

    private static Double throughputRatio(double lanes, double baseline) {
        return baseline > 0 ? lanes / baseline : null;
    }

    private static Double latencyRatio(double baseline, double lanes) {
        // a system that answered nothing has no latency: no ratio, rather than 0 or infinity
        return baseline > 0 && lanes > 0 ? baseline / lanes : null;
    }
}
