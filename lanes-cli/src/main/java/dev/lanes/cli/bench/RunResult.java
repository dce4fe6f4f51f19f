package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The measured outcome of one system at one configuration. Latencies are of the writes that
 * succeeded within the measured window; {@code errors} counts the requests that failed in it, by
 * kind. {@code acknowledged} counts every successful insert of the run, warm-up included, and
 * {@code rows} is what the table held afterwards: the two agree unless a write was lost or a
 * failed one committed after all.
 */
record RunResult(
        Synchronous synchronous,
        String system,
        int threads,
        double seconds,
        long writes,
        double writesPerSecond,
        double p50Micros,
        double p99Micros,
        double maxMicros,
        Map<String, Long> errors,
        long acknowledged,
        long rows) {

    RunResult {
        // sorted by kind, so the JSON and the table list kinds in a stable order
        errors = Collections.unmodifiableMap(new TreeMap<>(errors));
    }

    static RunResult of(
            Synchronous synchronous,
            String system,
            int threads,
            Duration measured,
            LatencyRecorder latency,
            ErrorTally errors,
            long acknowledged,
            long rows) {
        double seconds = measured.toNanos() / 1e9;
        return new RunResult(
                synchronous,
                system,
                threads,
                seconds,
                latency.count(),
                latency.count() / seconds,
                micros(latency.percentile(50)),
                micros(latency.percentile(99)),
                micros(latency.max()),
                errors.counts(),
                acknowledged,
                rows);
    }

    /** How many requests failed in the measured window, of every kind. */
    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}
