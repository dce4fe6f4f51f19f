package dev.lanes;

import java.nio.file.Path;

/**
 * A {@link Database} on a local SQLite file, as {@link Lanes#open} opens it: besides what every
 * database does, what concerns its file (checkpoints of its WAL, backups of it, and maintenance
 * that SQLite runs only outside a transaction). A database on a cluster has no local file, so it
 * is a {@code Database} only: its nodes checkpoint and store their own copies. Code that holds a
 * {@code Database} of either kind (from a runtime's registry, say) asks for the file operations
 * with {@code instanceof LocalDatabase}.
 *
 * <p>Thread-safe, as every {@code Database}.
 */
public interface LocalDatabase extends Database {

    /**
     * Runs a body on the writer lane without the transaction wrap, for statements SQLite refuses
     * inside a transaction ({@code VACUUM}, {@code PRAGMA wal_checkpoint}, {@code journal_mode}).
     * The single-writer guarantee still holds. A body that leaves a transaction open poisons the
     * writer.
     */
    <T> T maintenance(SqlFunction<T> body);

    /**
     * Runs a {@code PASSIVE} checkpoint now, through the writer lane's top-level path (so it
     * never overlaps a write of this runtime), and returns SQLite's report. A passive checkpoint
     * waits for no one: frames a reader still needs stay in the WAL, and the result says {@link
     * CheckpointResult#busy() busy}. Checkpoints are exempt from the disk reserve. The result also
     * shows in {@link DatabaseDiagnostics#checkpoints()}.
     *
     * @throws InvalidRequestException when {@link DatabaseOptions#checkpointMode()} is {@link
     *     CheckpointMode#EXTERNAL}: another tool owns checkpoints, and Lanes never runs one
     */
    CheckpointResult checkpoint();

    /**
     * Writes an online, consistent copy of the database to {@code target}: one committed state,
     * compacted, in rollback-journal mode, checked with {@code PRAGMA integrity_check} before it
     * gets its name. It runs on a connection of its own, never the writer's, so writes go on
     * while it runs; it reads one snapshot, so writes committed meanwhile are not in it. Returns
     * once the copy is complete and synced. Called from a virtual thread, the copy runs on the
     * runtime's pool while the caller waits. A close waits for backups in flight.
     *
     * @throws InvalidRequestException when {@code target} exists (a backup never overwrites a
     *     file) or is the database itself
     * @throws ReadFailedException when the copy failed; nothing is left at {@code target}
     */
    void backup(Path target);
}
