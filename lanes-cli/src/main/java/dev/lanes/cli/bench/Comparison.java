package dev.lanes.cli.bench;

import dev.lanes.Synchronous;

/**
 * Lanes against its baseline at one configuration, as ratios where above 1 means Lanes is better:
 * Lanes' writes per second over the baseline's, and the baseline's p99 latency over Lanes'. A
 * ratio is {@code null} when its divisor is zero (a system that completed no write).
 *
 * @param baseline the baseline system's name ({@code hikari} or {@code raw})
 */
record Comparison(
        Synchronous synchronous, int threads, String baseline, Double throughputRatio, Double p99Ratio) {

    static Comparison of(RunResult lanes, RunResult baseline) {
        return new Comparison(
                lanes.synchronous(),
                lanes.threads(),
                baseline.system(),
                ratio(lanes.writesPerSecond(), baseline.writesPerSecond()),
                ratio(baseline.p99Micros(), lanes.p99Micros()));
    }

    private static Double ratio(double dividend, double divisor) {
        return divisor > 0 ? dividend / divisor : null;
    }
}
