package dev.lanes.cli.inspect;

import dev.lanes.DatabaseFiles;
import dev.lanes.LeaseStatus;
import dev.lanes.cli.SqliteFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * One look at a live database by {@code lanes inspect --watch}: what the file system and the
 * wal-index header say, read without SQLite (see {@link WalIndex}) and without the lease (see
 * {@link DatabaseFiles#lease}).
 *
 * @param at when it was taken
 * @param fileBytes the database file's size
 * @param walBytes the {@code -wal} file's size; 0 when there is none
 * @param walModified when the {@code -wal} file last changed; null when there is none
 * @param walIndex the frames in the WAL and how many are checkpointed; null when unknown
 * @param lease whether a Lanes runtime holds the database
 */
public record WatchSample(
        Instant at,
        long fileBytes,
        long walBytes,
        Instant walModified,
        WalIndex walIndex,
        LeaseStatus lease) {

    /** Takes a sample of {@code database}, an existing file. */
    static WatchSample take(Path database) throws IOException {
        Instant at = Instant.now();
        long fileBytes = Files.size(database);
        Path wal = SqliteFiles.beside(database, SqliteFiles.WAL);
        long walBytes = 0;
        Instant walModified = null;
        try {
            walBytes = Files.size(wal);
            walModified = Files.getLastModifiedTime(wal).toInstant();
        } catch (NoSuchFileException e) {
            // no WAL now: checkpointed and deleted by the last connection, or not in WAL mode
        }
        WalIndex index = WalIndex.read(database).orElse(null);
        return new WatchSample(at, fileBytes, walBytes, walModified, index,
                DatabaseFiles.lease(database));
    }
}
