package dev.lanes;

import java.time.Duration;
import java.util.Optional;

/**
 * A point-in-time view of one database's writer: its health, its queue, the interactive
 * transaction it is pinned to, its latest write, and its counters since open. Read without
 * touching SQLite.
 *
 * @param poisoned whether the writer refuses work after an unverifiable rollback
 * @param poisonCause why the writer was poisoned, when it is
 * @param queued writes waiting in the queue now
 * @param capacity the queue's bound ({@link DatabaseOptions#writeQueueCapacity()})
 * @param corked whether writes are held by {@link Database#cork()}
 * @param background whether the database's work runs in the background class
 * @param transaction the open interactive transaction, if any
 * @param lastWrite the latest write's stage-by-stage observation, once one completed and until
 *     an idle release or the connection budget closed the writer connection
 * @param counters what the writer did since open
 */
public record WriterDiagnostics(
        boolean poisoned,
        Optional<String> poisonCause,
        int queued,
        int capacity,
        boolean corked,
        boolean background,
        Optional<TransactionInfo> transaction,
        Optional<WriteObservation> lastWrite,
        Counters counters) {

    /**
     * What the writer did since open.
     *
     * @param committed writes committed
     * @param failed writes that failed, whatever their outcome
     * @param groupsCommitted transactions committed; {@code committed / groupsCommitted} is the
     *     mean group size
     * @param overloads writes refused because the queue was full
     * @param replays write bodies run again after a neighbour ended their group's transaction
     * @param unknownOutcomes writes that ended {@link WriteOutcome#UNKNOWN}
     * @param acquisitions successful {@code BEGIN IMMEDIATE}s: the writer lock taken
     * @param busyRefusals {@code BEGIN IMMEDIATE} attempts refused busy
     * @param busyAbsorbed busy refusals that a later retry of the same turn overcame
     * @param beginErrors {@code BEGIN IMMEDIATE} failures other than busy
     */
    public record Counters(long committed, long failed, long groupsCommitted, long overloads,
            long replays, long unknownOutcomes, long acquisitions, long busyRefusals,
            long busyAbsorbed, long beginErrors) {}

    /**
     * The open interactive transaction.
     *
     * @param age how long it has been open
     * @param statements how many statements it ran
     */
    public record TransactionInfo(Duration age, int statements) {}
}
