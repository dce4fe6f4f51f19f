package dev.lanes.cli.bench;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link WorkloadRunner} measured in one run, before a scenario turns it into a {@link
 * RunResult}: the latencies of the requests that succeeded within the measured window (all of
 * them, and by kind), the failures in the window by kind, and every success of the run, warm-up
 * included, for checking against what the database holds afterwards.
 *
 * @param seconds the length of the measured window
 * @param latency every successful request of the window
 * @param latencyByKind the same, by the kind each {@link Operation#run()} returned
 * @param errors the requests of the window that failed, by kind
 * @param acknowledged successful requests of the whole run, warm-up included
 * @param backgroundOperations successful requests of the background thread within the window,
 *     or -1 when the run had none
 * @param cpuNanos the process CPU time consumed over the window ({@link ProcessCpu}), or {@link
 *     ProcessCpu#UNAVAILABLE}
 * @param cpuWallNanos the wall time between the two CPU samples {@code cpuNanos} is the
 *     difference of, which is the window give or take one request
 * @param windowStart the wall-clock instant the measured window began, to match events stamped on
 *     that clock (JFR's) against the window; null when unknown
 * @param served how many of the measured threads had a request answered in the window (a
 *     thread never scheduled, or waiting all the window long, had none); -1 when unknown
 */
record Measurement(
        double seconds,
        LatencyRecorder latency,
        Map<String, LatencyRecorder> latencyByKind,
        ErrorTally errors,
        long acknowledged,
        long backgroundOperations,
        long cpuNanos,
        long cpuWallNanos,
        Instant windowStart,
        int served) {

    Measurement {
        latencyByKind = Collections.unmodifiableMap(new TreeMap<>(latencyByKind));
    }

    /** The wall-clock instant the measured window ended; null when its start is unknown. */
    Instant windowEnd() {
        return windowStart == null ? null : windowStart.plusNanos(Math.round(seconds * 1e9));
    }

    /** Successful requests per second within the window. */
    double operationsPerSecond() {
        return latency.count() / seconds;
    }

    /** Process CPU microseconds per successful request of the window; null when unknown. */
    Double cpuMicrosPerOperation() {
        return ProcessCpu.microsPerOperation(cpuNanos, latency.count());
    }

    /** The share of the processors the process kept busy in the window; null when unknown. */
    Double cpuUtilisation() {
        return ProcessCpu.utilisation(cpuNanos, cpuWallNanos,
                Runtime.getRuntime().availableProcessors());
    }

    /** The background thread's successful requests per second, or null when it had none. */
    Double backgroundPerSecond() {
        return backgroundOperations < 0 ? null : backgroundOperations / seconds;
    }
}
