package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a soak saw at one instant, and in the window since the sample before it. The first sample
 * is taken as the load starts, so its window is empty. Process figures are -1 when this system
 * cannot tell them (no {@code /proc}).
 *
 * @param elapsedSeconds since the load started
 * @param windowSeconds the length of the window this sample closes (0 for the first)
 * @param requests requests that succeeded in the window (the deliberate failures not counted)
 * @param deliberateFailures requests that failed on purpose in the window (a body that throws,
 *     a transaction abandoned) and failed as they should: rolled back
 * @param errors requests that failed otherwise in the window, by kind ({@link ErrorTally#kindOf})
 * @param heapAfterGcBytes Java heap in use right after a full collection, or -1 when the JVM
 *     ignores {@code System.gc()}
 * @param heapCommittedBytes Java heap the JVM holds from the OS now
 * @param rssBytes the resident set size ({@code VmRSS} of {@code /proc/self/status})
 * @param openFiles descriptors open now ({@code /proc/self/fd})
 * @param threads live JVM threads (every thread: the runtime's pool, the clients, the JVM's own)
 * @param poolThreads the runtime's live pool threads
 * @param openConnections SQLite connections the runtime has open now
 * @param mostConnections the most it had open at any sampled moment of the window (sampled every
 *     {@value SoakScenario#CONNECTION_PEAK_MILLIS} ms)
 * @param readerConnections reader connections open now, over all databases
 * @param walBytes the {@code -wal} files' sizes now, over all databases
 * @param loadAverage the machine's load average over the last minute, or a negative value when
 *     the system cannot tell: what else competed for the cores
 */
record SoakSample(
        double elapsedSeconds,
        double windowSeconds,
        long requests,
        long deliberateFailures,
        Map<String, Long> errors,
        long heapAfterGcBytes,
        long heapCommittedBytes,
        long rssBytes,
        long openFiles,
        int threads,
        int poolThreads,
        int openConnections,
        int mostConnections,
        int readerConnections,
        long walBytes,
        double loadAverage) {

    SoakSample {
        errors = Collections.unmodifiableMap(new TreeMap<>(errors));
    }

    /** Successful requests per second in the window; 0 for an empty window. */
    @JsonProperty
    double requestsPerSecond() {
        return windowSeconds > 0 ? requests / windowSeconds : 0;
    }

    /** Failed requests in the window, of every kind, the deliberate ones not counted. */
    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
