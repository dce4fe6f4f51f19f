package dev.lanes.cli.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The one place where the repetitions of {@code --repeat} are aggregated: the median of each
 * figure of one system's runs in a configuration (what a table row shows), and the median,
 * minimum and maximum of a ratio over the repetition pairs ({@link Spread}). Absolute figures on
 * a shared machine drift by up to 2x from run to run, so the bench quotes medians; the order
 * that makes the pairs comparable is decided in {@link BenchSuite}.
 */
final class Repetitions {
    private Repetitions() {}

    /** "repeat 2/3": how a run's repetition is named in progress lines, tables and the report. */
    static String label(int repetition, int repetitions) {
        return "repeat " + repetition + "/" + repetitions;
    }

    /**
     * The median of {@code values}: the middle value, or the mean of the two middle values when
     * their number is even.
     *
     * @throws IllegalArgumentException when there are none
     */
    static double median(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("the median of no values");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The spread of one ratio over its repetition pairs; {@code null} means undefined. */
    static Spread spread(List<Double> perRepetition) {
        double[] defined = perRepetition.stream().filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue).toArray();
        if (defined.length == 0) {
            return new Spread(null, null, null, perRepetition);
        }
        return new Spread(median(defined), Arrays.stream(defined).min().getAsDouble(),
                Arrays.stream(defined).max().getAsDouble(), perRepetition);
    }

    /**
     * One system's runs in one configuration as one result whose every figure is the median over
     * the runs: throughput, each latency percentile and the maximum, each kind's latencies, the
     * concurrent writer's rate, the CPU time per request, the CPU utilisation, the threads
     * served in the window and the waits for a reader (of the runs that have them). Errors, and
     * pinned virtual threads, are summed rather than taken as a median, so that a failure seen
     * in any repetition shows. The
     * consistency checks and footprints stay with each run (they are facts of that run, not
     * figures to average): the median has none, and repetition 0. A single run is its own
     * median, returned as it is.
     *
     * @throws IllegalArgumentException when there are no runs, or they are not of one system in
     *     one configuration
     */
    static RunResult median(List<RunResult> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("the median of no runs");
        }
        RunResult first = runs.get(0);
        for (RunResult run : runs) {
            if (!sameSeries(first, run)) {
                throw new IllegalArgumentException("runs of different systems or configurations: "
                        + describe(first) + " and " + describe(run));
            }
        }
        if (runs.size() == 1) {
            return first;
        }
        Map<String, List<Latency>> kinds = new LinkedHashMap<>();
        Map<String, Long> errors = new TreeMap<>();
        List<Double> background = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Double> utilisation = new ArrayList<>();
        Long pinned = null;
        List<Double> served = new ArrayList<>();
        List<Latency> readerWaits = new ArrayList<>();
        for (RunResult run : runs) {
            if (run.readerWait() != null) {
                readerWaits.add(run.readerWait());
            }
            if (run.served() != null) {
                served.add(run.served().doubleValue());
            }
            if (run.virtualThreadPinned() != null) {
                pinned = (pinned == null ? 0 : pinned) + run.virtualThreadPinned();
            }
            run.latencyByKind().forEach((kind, l) ->
                    kinds.computeIfAbsent(kind, k -> new ArrayList<>()).add(l));
            run.errors().forEach((kind, n) -> errors.merge(kind, n, Long::sum));
            if (run.backgroundPerSecond() != null) {
                background.add(run.backgroundPerSecond());
            }
            if (run.cpuMicrosPerOperation() != null) {
                cpu.add(run.cpuMicrosPerOperation());
            }
            if (run.cpuUtilisation() != null) {
                utilisation.add(run.cpuUtilisation());
            }
        }
        Map<String, Latency> byKind = new LinkedHashMap<>();
        kinds.forEach((kind, latencies) -> byKind.put(kind, medianLatency(latencies)));
        return new RunResult(first.scenario(), first.variant(), first.synchronous(), first.system(),
                first.threads(), 0, first.seconds(),
                Math.round(of(runs, r -> r.operations())),
                of(runs, RunResult::operationsPerSecond),
                medianLatency(runs.stream().map(RunResult::latency).toList()),
                byKind, errors,
                medianOrNull(background), medianOrNull(cpu), medianOrNull(utilisation),
                null, null, pinned,
                served.isEmpty() ? null : (int) Math.round(medianOrNull(served)),
                readerWaits.isEmpty() ? null : medianLatency(readerWaits));
    }

    /**
     * The median of each system's runs in {@code runs} (of one configuration), one per system in
     * the order the systems first ran: what a chart of the configuration draws.
     */
    static List<RunResult> medians(List<RunResult> runs) {
        Map<String, List<RunResult>> bySystem = new LinkedHashMap<>();
        for (RunResult run : runs) {
            bySystem.computeIfAbsent(run.system(), s -> new ArrayList<>()).add(run);
        }
        return bySystem.values().stream().map(Repetitions::median).toList();
    }

    /** The median of the figures the runs have, or null when none has one. */
    private static Double medianOrNull(List<Double> figures) {
        return figures.isEmpty() ? null
                : median(figures.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static Latency medianLatency(List<Latency> latencies) {
        return new Latency(
                Math.round(of(latencies, l -> l.count())),
                of(latencies, Latency::p50Micros),
                of(latencies, Latency::p90Micros),
                of(latencies, Latency::p99Micros),
                of(latencies, Latency::p999Micros),
                of(latencies, Latency::maxMicros));
    }

    private static <T> double of(List<T> items, ToDoubleFunction<T> figure) {
        return median(items.stream().mapToDouble(figure).toArray());
    }

    private static boolean sameSeries(RunResult a, RunResult b) {
        return a.scenario() == b.scenario() && a.variant().equals(b.variant())
                && a.synchronous() == b.synchronous() && a.system().equals(b.system())
                && a.threads() == b.threads();
    }

    private static String describe(RunResult run) {
        return run.scenario().id() + " " + run.system() + ", " + run.threads() + " threads, "
                + run.synchronous() + (run.variant().isEmpty() ? "" : ", " + run.variant());
    }
}
