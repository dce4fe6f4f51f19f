package dev.lanes;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A point-in-time view of one database, read without touching SQLite.
 *
 * @param path the canonical path of the database file
 * @param state its lifecycle state
 * @param writerPoisoned whether the writer refuses work after an unverifiable rollback
 * @param poisonCause why the writer was poisoned, when it is
 * @param deadCause why the database is dead, when it is
 * @param queuedWrites writes waiting in the queue now
 * @param writeQueueCapacity the queue's bound
 * @param committedWrites writes committed since open
 * @param failedWrites writes that failed since open, whatever their outcome
 * @param groupsCommitted transactions committed since open; {@code committedWrites /
 *     groupsCommitted} is the mean group size
 * @param overloads writes refused because the queue was full
 * @param replays write bodies run again after a neighbour ended their group's transaction
 * @param background whether the database's work runs in the background class
 * @param writer counters of the writer connection's transactions
 * @param transaction the open interactive transaction, if any
 * @param corked whether writes are held by {@link Database#cork()}
 * @param lastWrite the latest write's stage-by-stage observation, once one completed and until
 *     an idle release or the connection budget closed the writer connection
 * @param readers the reader connections and their admission
 * @param checkpoints checkpoint ownership, the WAL's size and the last checkpoint
 */
public record DatabaseDiagnostics(
        Path path,
        DatabaseState state,
        boolean writerPoisoned,
        Optional<String> poisonCause,
        Optional<String> deadCause,
        int queuedWrites,
        int writeQueueCapacity,
        long committedWrites,
        long failedWrites,
        long groupsCommitted,
        long overloads,
        long replays,
        boolean background,
        WriterCounters writer,
        Optional<TransactionInfo> transaction,
        boolean corked,
        Optional<WriteObservation> lastWrite,
        ReaderDiagnostics readers,
        Checkpoints checkpoints) {

    /**
     * Counters of the writer's transactions since open.
     *
     * @param acquisitions successful {@code BEGIN IMMEDIATE}s: the writer lock taken
     * @param busyRefusals {@code BEGIN IMMEDIATE} attempts refused busy
     * @param busyAbsorbed busy refusals that a later retry of the same turn overcame
     * @param beginErrors {@code BEGIN IMMEDIATE} failures other than busy
     * @param requestFailures requests that failed, whatever their outcome
     * @param unknownOutcomes requests that ended {@link WriteOutcome#UNKNOWN}
     */
    public record WriterCounters(long acquisitions, long busyRefusals, long busyAbsorbed,
            long beginErrors, long requestFailures, long unknownOutcomes) {}

    /**
     * The open interactive transaction.
     *
     * @param age how long it has been open
     * @param statements how many statements it ran
     */
    public record TransactionInfo(java.time.Duration age, int statements) {}

    /**
     * Checkpoint ownership and the state of the WAL.
     *
     * @param mode who checkpoints the WAL
     * @param walBytes the size of the {@code -wal} file now (0 when there is none); read from the
     *     file system, not from SQLite
     * @param last the report of the latest checkpoint, by the background checkpointer or {@link
     *     Database#checkpoint()}
     * @param lastMode how the latest checkpoint ran: {@code PASSIVE}, {@code RESTART} or {@code
     *     TRUNCATE}
     * @param lastAt when the latest checkpoint ended
     * @param completed checkpoints run since open
     * @param failures checkpoints that failed since open
     * @param lastFailure why the latest failed checkpoint failed
     */
    public record Checkpoints(CheckpointMode mode, long walBytes, Optional<CheckpointResult> last,
            Optional<String> lastMode, Optional<java.time.Instant> lastAt, long completed,
            long failures, Optional<String> lastFailure) {}
}
