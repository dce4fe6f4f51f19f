package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.lanes.Synchronous;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One soak: what ran, every sample, what the external checkpointer did, and the verdict. The
 * {@code soaks} of the {@code --json} file are these.
 *
 * @param setup what ran
 * @param samples every sample, in the order taken, the first as the load started
 * @param external what the Litestream-style checkpointer of the {@code EXTERNAL} databases did
 * @param verdict whether it passed
 */
record SoakResult(Setup setup, List<SoakSample> samples, ExternalCheckpoints external,
        SoakVerdict verdict) {

    SoakResult {
        samples = List.copyOf(samples);
    }

    /**
     * What a soak runs.
     *
     * @param databases databases open in the one runtime
     * @param clients client threads, each sending one request after the other
     * @param hotDatabases the size of the hot window that gets {@value SoakScenario#HOT_PERCENT} %
     *     of requests; it moves on to the next databases every {@code hotRotationSeconds}, so
     *     that databases that were hot go idle and are released
     * @param connectionBudget the runtime's {@code maxOpenConnections}
     * @param connectionLimit the most connections the verdict allows at any moment: the budget
     *     and one connection per thread that may be opening one (clients and pool threads),
     *     since the budget evicts after an open
     * @param maxThreads the runtime's cap on pool threads
     * @param readersPerDatabase each database's {@code readers}
     * @param idleReleaseSeconds each database's {@code idleRelease}
     * @param autoDatabases databases in {@code CheckpointMode.AUTO}
     * @param dedicatedDatabases databases in {@code CheckpointMode.DEDICATED}
     * @param externalDatabases databases in {@code CheckpointMode.EXTERNAL}, checkpointed by the
     *     soak's own connection every {@code externalCheckpointSeconds}
     * @param keptRows the rows of {@code events} each database keeps: a trim deletes the older
     * @param durationSeconds how long the load ran
     * @param sampleIntervalSeconds the time between samples
     * @param setupSeconds how long creating and opening the databases took (before the load)
     */
    record Setup(
            Synchronous synchronous,
            int databases,
            int clients,
            int hotDatabases,
            double hotRotationSeconds,
            int connectionBudget,
            int connectionLimit,
            int maxThreads,
            int readersPerDatabase,
            double idleReleaseSeconds,
            int autoDatabases,
            int dedicatedDatabases,
            int externalDatabases,
            double externalCheckpointSeconds,
            int keptRows,
            double durationSeconds,
            double sampleIntervalSeconds,
            double setupSeconds) {}

    /**
     * What the external checkpointer did: {@code PRAGMA wal_checkpoint(TRUNCATE)} on its own
     * connection to each {@code EXTERNAL} database, as Litestream does.
     *
     * @param completed checkpoints that copied the whole WAL back and truncated it
     * @param busy checkpoints SQLite could not finish within the busy timeout (readers or the
     *     writer in the way); harmless once, a leak when every one is
     * @param failures checkpoints that threw
     * @param lastFailure why the latest failure failed, or null
     */
    record ExternalCheckpoints(long completed, long busy, long failures, String lastFailure) {}

    /** Successful requests over the whole load. */
    @JsonProperty
    long requests() {
        return samples.stream().mapToLong(SoakSample::requests).sum();
    }

    /** Requests that failed on purpose, and as they should, over the whole load. */
    @JsonProperty
    long deliberateFailures() {
        return samples.stream().mapToLong(SoakSample::deliberateFailures).sum();
    }

    /** Requests that failed otherwise over the whole load, by kind. */
    @JsonProperty
    Map<String, Long> errors() {
        Map<String, Long> all = new TreeMap<>();
        samples.forEach(s -> s.errors().forEach((kind, n) -> all.merge(kind, n, Long::sum)));
        return all;
    }
}
