package dev.lanes.jmx;

/**
 * The management view of a {@link dev.lanes.LocalDatabase}: its attributes, and the operations on
 * its file, which a database on a cluster does not have (its nodes own their files). Named as
 * every database bean is; see {@link LanesDatabaseMXBean}.
 */
public interface LanesLocalDatabaseMXBean extends LanesDatabaseMXBean {
    /**
     * Runs a {@code PASSIVE} checkpoint now ({@link dev.lanes.LocalDatabase#checkpoint()}) and
     * returns SQLite's report, for instance {@code busy=false, walFrames=12,
     * checkpointedFrames=12}.
     *
     * @throws IllegalStateException when it cannot run (the database is closing, its
     *     checkpoints belong to another tool, …); the message says why
     */
    String checkpoint();

    /**
     * Backs the database up to the file {@code path} ({@link
     * dev.lanes.LocalDatabase#backup(java.nio.file.Path)}): an online, consistent copy, checked
     * before it takes the target's name.
     *
     * @throws IllegalArgumentException when {@code path} is not a valid path or already exists
     * @throws IllegalStateException when the backup failed; nothing is left at {@code path}
     */
    void backup(String path);
}
