package dev.lanes;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How one write spent its time, stage by stage, as the writer lane saw it. A zero stage did not
 * run (a request that failed early) or was below the clock's resolution.
 *
 * @param queueWait from submission until its turn began
 * @param transactionAcquire taking SQLite's write lock ({@code BEGIN IMMEDIATE}, busy retries
 *     included), shared by its group
 * @param body running its own body or statement
 * @param commit the group's {@code COMMIT}
 * @param total from submission until its outcome was known
 * @param queueDepthAtEntry writes queued ahead of it when it was submitted
 * @param groupSize writes in its group
 * @param observedAt when the observation was made
 * @param labels the labels of the slow writes of its group, deduplicated and bounded; empty for
 *     a write under {@link DatabaseOptions#slowWriteThreshold()}, which never resolves labels
 * @param labelsTruncated how many distinct labels were left out past the bound
 */
public record WriteObservation(
        Duration queueWait,
        Duration transactionAcquire,
        Duration body,
        Duration commit,
        Duration total,
        int queueDepthAtEntry,
        int groupSize,
        Instant observedAt,
        List<String> labels,
        int labelsTruncated) {}
