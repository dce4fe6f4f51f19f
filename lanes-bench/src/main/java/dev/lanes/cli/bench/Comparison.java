package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lanes.Synchronous;
import java.util.ArrayList;
import java.util.List;

/**
 * Lanes against its baseline in one configuration of a scenario, as ratios where above 1 means
 * Lanes is better: Lanes' throughput over the baseline's, the baseline's p50 and p99 latencies
 * over Lanes', and the baseline's process CPU time per acknowledged request over Lanes' (above 1:
 * Lanes spends less CPU on each). A ratio is {@code null} when its divisor is zero (a system that
 * completed no request in the window), and the CPU ratio also when either side's CPU time is
 * unknown.
 *
 * <p>Under {@code --repeat N} each ratio is taken per repetition pair (repetition i of Lanes
 * against repetition i of the baseline, which ran next to each other) and summarised as a {@link
 * Spread}; {@link #throughputRatio()}, {@link #p50Ratio()}, {@link #p99Ratio()} and {@link
 * #cpuRatio()} are the medians, the fields a single run has in the JSON.
 *
 * @param baseline the baseline system's name ({@code hikari} or {@code raw})
 * @param throughput Lanes' throughput over the baseline's, per repetition pair
 * @param p50 the baseline's p50 latency over Lanes', per repetition pair
 * @param p99 the baseline's p99 latency over Lanes', per repetition pair
 * @param cpu the baseline's CPU microseconds per request over Lanes', per repetition pair
 */
@JsonPropertyOrder({"scenario", "variant", "synchronous", "threads", "baseline",
        "throughputRatio", "p50Ratio", "p99Ratio", "cpuRatio", "repetitions"})
record Comparison(
        Scenario scenario,
        String variant,
        Synchronous synchronous,
        int threads,
        String baseline,
        Spread throughput,
        Spread p50,
        Spread p99,
        Spread cpu) {

    /** One run of Lanes against one of the baseline. */
    static Comparison of(RunResult lanes, RunResult baseline) {
        return of(List.of(lanes), List.of(baseline));
    }

    /**
     * The repetitions of Lanes against those of the baseline, pair by pair in order.
     *
     * @throws IllegalArgumentException when there are none, or not as many of each
     */
    static Comparison of(List<RunResult> lanes, List<RunResult> baselines) {
        if (lanes.isEmpty() || lanes.size() != baselines.size()) {
            throw new IllegalArgumentException("repetition pairs need as many runs of each side,"
                    + " at least one: " + lanes.size() + " of lanes, " + baselines.size()
                    + " of the baseline");
        }
        List<Double> throughput = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            RunResult l = lanes.get(i);
            RunResult b = baselines.get(i);
            throughput.add(throughputRatio(l.operationsPerSecond(), b.operationsPerSecond()));
            p50.add(latencyRatio(b.latency().p50Micros(), l.latency().p50Micros()));
            p99.add(latencyRatio(b.latency().p99Micros(), l.latency().p99Micros()));
            cpu.add(cpuRatio(b.cpuMicrosPerOperation(), l.cpuMicrosPerOperation()));
        }
        RunResult first = lanes.get(0);
        return new Comparison(first.scenario(), first.variant(), first.synchronous(),
                first.threads(), baselines.get(0).system(), Repetitions.spread(throughput),
                Repetitions.spread(p50), Repetitions.spread(p99), Repetitions.spread(cpu));
    }

    /** The median throughput ratio; null when no repetition has one. */
    @JsonProperty
    Double throughputRatio() {
        return throughput.median();
    }

    /** The median p50 ratio; null when no repetition has one. */
    @JsonProperty
    Double p50Ratio() {
        return p50.median();
    }

    /** The median p99 ratio; null when no repetition has one. */
    @JsonProperty
    Double p99Ratio() {
        return p99.median();
    }

    /** The median CPU-per-request ratio; null when no repetition has one. */
    @JsonProperty
    Double cpuRatio() {
        return cpu.median();
    }

    /** How many repetition pairs the ratios are of. */
    @JsonProperty
    int repetitions() {
        return throughput.perRepetition().size();
    }

    private static Double throughputRatio(double lanes, double baseline) {
        return baseline > 0 ? lanes / baseline : null;
    }

    /** The baseline's CPU per request over Lanes'; null when either is unknown or zero. */
    static Double cpuRatio(Double baseline, Double lanes) {
        return baseline == null || lanes == null ? null : latencyRatio(baseline, lanes);
    }

    private static Double latencyRatio(double baseline, double lanes) {
        // a system that answered nothing has no latency: no ratio, rather than 0 or infinity
        return baseline > 0 && lanes > 0 ? baseline / lanes : null;
    }
}
