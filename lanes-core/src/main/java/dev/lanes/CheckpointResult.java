package dev.lanes;

/**
 * What one checkpoint did, as {@code PRAGMA wal_checkpoint} reports it.
 *
 * @param busy whether the checkpoint could not finish because another connection held a lock it
 *     needed (a reader on an old snapshot, or a writer for {@code RESTART}/{@code TRUNCATE});
 *     the frames it could copy were still copied
 * @param walFrames frames in the WAL when the checkpoint ran ({@code -1} when the database is not
 *     in WAL mode)
 * @param checkpointedFrames frames of the WAL now copied into the database file ({@code -1} when
 *     the database is not in WAL mode); equal to {@code walFrames} when the checkpoint caught up
 */
public record CheckpointResult(boolean busy, int walFrames, int checkpointedFrames) {

    /** Whether every frame of the WAL is now in the database file. */
    public boolean complete() {
        return !busy && walFrames == checkpointedFrames;
    }
}
