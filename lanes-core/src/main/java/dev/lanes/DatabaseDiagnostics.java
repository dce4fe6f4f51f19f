package dev.lanes;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A point-in-time view of one database, read without touching SQLite: what it is (path, state),
 * and its parts, each a group of its own: the writer, the readers and the checkpoints.
 *
 * @param path the canonical path of the database file
 * @param state its lifecycle state
 * @param deadCause why the database is dead, when it is
 * @param writer the writer: its health, queue, transaction, latest write and counters
 * @param readers the reader connections and their admission
 * @param checkpoints checkpoint ownership, the WAL's size and the last checkpoint
 */
public record DatabaseDiagnostics(
        Path path,
        DatabaseState state,
        Optional<String> deadCause,
        WriterDiagnostics writer,
        ReaderDiagnostics readers,
        Checkpoints checkpoints) {

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
