package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The measured outcome of one system in one configuration of a scenario. Throughput and latencies
 * are of the requests that succeeded within the measured window; {@code errors} counts the
 * requests that failed in it, by kind.
 *
 * @param scenario the scenario that ran
 * @param variant what distinguishes runs of the scenario beside threads and level, such as {@code
 *     "alone"} or {@code "with writer"} for reads; empty when nothing does
 * @param system {@code lanes}, or the baseline's name: {@code hikari}, {@code raw}
 * @param threads the measured threads
 * @param repetition which of the configuration's {@code --repeat} runs of this system it was,
 *     from 1; 0 for a median of several ({@link Repetitions#median(java.util.List)})
 * @param seconds the measured window
 * @param operations successful requests within the window
 * @param operationsPerSecond {@code operations / seconds}, in the scenario's unit
 * @param latency the latencies of those requests
 * @param latencyByKind the same by kind of request, when a run mixes kinds (tenants: read and
 *     write); empty otherwise
 * @param errors failed requests within the window, by kind
 * @param backgroundPerSecond the concurrent writer's successful writes per second, in runs that
 *     have one; else null
 * @param cpuMicrosPerOperation the process CPU time consumed in the measured window over {@code
 *     operations}, in microseconds ({@link ProcessCpu}); null when the JVM cannot tell the CPU
 *     time or no request succeeded
 * @param cpuUtilisation the share of the machine's processors the process kept busy in the
 *     window, 1 for all of them; null when the CPU time is unknown
 * @param consistency the check of the database against the acknowledged requests; null when the
 *     scenario has none
 * @param footprint what the tenant databases cost; null except in the tenants scenario
 * @param virtualThreadPinned how many {@code jdk.VirtualThreadPinned} events (a virtual thread
 *     that blocked while pinned to its carrier, recorded with a threshold of 0 ms) began in the
 *     measured window ({@link PinnedEvents}); null except in the vt scenario
 * @param served how many of the measured threads had at least one request answered in the
 *     window: a thread that waited all the window long, or never got a processor, is in no
 *     percentile and shows only here; null when unknown
 * @param readerWait Lanes' reads' waits for a reader connection that ended in the window ({@link
 *     ReaderWaits}); null except in runs that measure it (Lanes in the jdbc scenario's {@value
 *     JpaWorkload#MIX_VARIANT} part)
 */
record RunResult(
        Scenario scenario,
        String variant,
        Synchronous synchronous,
        String system,
        int threads,
        int repetition,
        double seconds,
        long operations,
        double operationsPerSecond,
        Latency latency,
        Map<String, Latency> latencyByKind,
        Map<String, Long> errors,
        Double backgroundPerSecond,
        Double cpuMicrosPerOperation,
        Double cpuUtilisation,
        Consistency consistency,
        TenantFootprint footprint,
        Long virtualThreadPinned,
        Integer served,
        Latency readerWait) {

    RunResult {
        variant = variant == null ? "" : variant;
        latencyByKind = Collections.unmodifiableMap(new LinkedHashMap<>(latencyByKind));
        // sorted by kind, so the JSON and the table list kinds in a stable order
        errors = Collections.unmodifiableMap(new TreeMap<>(errors));
    }

    /** A result without the waits for a reader. */
    RunResult(Scenario scenario, String variant, Synchronous synchronous, String system,
            int threads, int repetition, double seconds, long operations,
            double operationsPerSecond, Latency latency, Map<String, Latency> latencyByKind,
            Map<String, Long> errors, Double backgroundPerSecond, Double cpuMicrosPerOperation,
            Double cpuUtilisation, Consistency consistency, TenantFootprint footprint,
            Long virtualThreadPinned, Integer served) {
        this(scenario, variant, synchronous, system, threads, repetition, seconds, operations,
                operationsPerSecond, latency, latencyByKind, errors, backgroundPerSecond,
                cpuMicrosPerOperation, cpuUtilisation, consistency, footprint,
                virtualThreadPinned, served, null);
    }

    /** A result without the counts of pinned virtual threads and of served threads. */
    RunResult(Scenario scenario, String variant, Synchronous synchronous, String system,
            int threads, int repetition, double seconds, long operations,
            double operationsPerSecond, Latency latency, Map<String, Latency> latencyByKind,
            Map<String, Long> errors, Double backgroundPerSecond, Double cpuMicrosPerOperation,
            Double cpuUtilisation, Consistency consistency, TenantFootprint footprint) {
        this(scenario, variant, synchronous, system, threads, repetition, seconds, operations,
                operationsPerSecond, latency, latencyByKind, errors, backgroundPerSecond,
                cpuMicrosPerOperation, cpuUtilisation, consistency, footprint, null, null);
    }

    /** The usual result: the measurement of one system, checked against the database. */
    static RunResult of(Scenario scenario, String variant, Synchronous synchronous, String system,
            int threads, Measurement m, Consistency consistency) {
        return of(scenario, variant, synchronous, system, threads, m, consistency, null);
    }

    /** {@link #of(Scenario, String, Synchronous, String, int, Measurement, Consistency)} with a
     * footprint; latencies by kind are kept when the run mixed kinds. */
    static RunResult of(Scenario scenario, String variant, Synchronous synchronous, String system,
            int threads, Measurement m, Consistency consistency, TenantFootprint footprint) {
        Map<String, Latency> byKind = new LinkedHashMap<>();
        if (m.latencyByKind().size() > 1) {
            m.latencyByKind().forEach((kind, recorder) -> byKind.put(kind, Latency.of(recorder)));
        }
        return new RunResult(scenario, variant, synchronous, system, threads, 1, m.seconds(),
                m.latency().count(), m.operationsPerSecond(), Latency.of(m.latency()), byKind,
                m.errors().counts(), m.backgroundPerSecond(), m.cpuMicrosPerOperation(),
                m.cpuUtilisation(), consistency, footprint, null,
                m.served() < 0 ? null : m.served());
    }

    /** How many requests failed in the measured window, of every kind. */
    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** This result with a consistency check and a footprint added after the measurement. */
    RunResult with(Consistency consistency, TenantFootprint footprint) {
        return new RunResult(scenario, variant, synchronous, system, threads, repetition, seconds,
                operations, operationsPerSecond, latency, latencyByKind, errors,
                backgroundPerSecond, cpuMicrosPerOperation, cpuUtilisation, consistency,
                footprint, virtualThreadPinned, served, readerWait);
    }

    /** This result with the count of pinned virtual threads in its window. */
    RunResult withPinned(long pinned) {
        return new RunResult(scenario, variant, synchronous, system, threads, repetition, seconds,
                operations, operationsPerSecond, latency, latencyByKind, errors,
                backgroundPerSecond, cpuMicrosPerOperation, cpuUtilisation, consistency,
                footprint, pinned, served, readerWait);
    }

    /** This result as the {@code repetition}-th run of its system in its configuration. */
    RunResult inRepetition(int repetition) {
        return new RunResult(scenario, variant, synchronous, system, threads, repetition, seconds,
                operations, operationsPerSecond, latency, latencyByKind, errors,
                backgroundPerSecond, cpuMicrosPerOperation, cpuUtilisation, consistency,
                footprint, virtualThreadPinned, served, readerWait);
    }

    /** This result with the waits for a reader in its window. */
    RunResult withReaderWait(Latency readerWait) {
        return new RunResult(scenario, variant, synchronous, system, threads, repetition, seconds,
                operations, operationsPerSecond, latency, latencyByKind, errors,
                backgroundPerSecond, cpuMicrosPerOperation, cpuUtilisation, consistency,
                footprint, virtualThreadPinned, served, readerWait);
    }
}
