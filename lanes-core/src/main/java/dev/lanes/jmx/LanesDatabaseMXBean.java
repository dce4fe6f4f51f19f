package dev.lanes.jmx;

/**
 * The management view of one open {@link dev.lanes.Database}, as {@link
 * dev.lanes.DatabaseDiagnostics} reports it, flattened into attributes a JMX client shows as
 * they are. Named {@code dev.lanes:type=Database,runtime=<runtime>,name=<database>}; see the
 * {@linkplain dev.lanes.jmx package}.
 */
public interface LanesDatabaseMXBean {
    /** The name the runtime gives the database in errors, logs and metrics. */
    String getName();

    /** The canonical path of the database file. */
    String getPath();

    /** Its lifecycle state: {@code RUNNING}, {@code CLOSING}, {@code CLOSED} or {@code DEAD}. */
    String getState();

    /** Whether the writer refuses work after an unverifiable rollback. */
    boolean isWriterPoisoned();

    /** Why the writer was poisoned; null when it is not. */
    String getPoisonCause();

    /** Why the database is dead; null when it is not. */
    String getDeadCause();

    /** Whether its work runs in the pool's background class. */
    boolean isBackground();

    /** Whether writes are held by {@link dev.lanes.Database#cork()}. */
    boolean isCorked();

    /** Writes waiting in the queue now. */
    int getQueuedWrites();

    /** The queue's bound ({@link dev.lanes.DatabaseOptions#writeQueueCapacity()}). */
    int getWriteQueueCapacity();

    /** Writes committed since open. */
    long getCommittedWrites();

    /** Writes that failed since open, whatever their outcome. */
    long getFailedWrites();

    /** Transactions committed since open (commit groups). */
    long getGroupsCommitted();

    /** Writes refused because the queue was full. */
    long getOverloads();

    /** Write bodies run again after a neighbour ended their group's transaction. */
    long getReplays();

    /** Requests that ended {@link dev.lanes.WriteOutcome#UNKNOWN}. */
    long getUnknownOutcomes();

    /** {@code BEGIN IMMEDIATE} attempts refused busy (another connection held the lock). */
    long getBusyRefusals();

    /** Whether an interactive transaction pins the writer now. */
    boolean isTransactionOpen();

    /** How long the open interactive transaction has been open, in ms; 0 when none is. */
    long getTransactionAgeMillis();

    /** Who checkpoints the WAL: {@code AUTO}, {@code DEDICATED} or {@code EXTERNAL}. */
    String getCheckpointMode();

    /** The size of the {@code -wal} file now, in bytes; 0 when there is none. */
    long getWalBytes();

    /** Checkpoints run since open. */
    long getCheckpointsCompleted();

    /** Checkpoints that failed since open. */
    long getCheckpointFailures();

    /**
     * The latest checkpoint: how it ran, when it ended and SQLite's report, for instance {@code
     * PASSIVE at 2025-01-31T10:00:00Z: busy=false, walFrames=12, checkpointedFrames=12}; null
     * before the first.
     */
    String getLastCheckpoint();

    /** The cap on reader connections ({@link dev.lanes.DatabaseOptions#readers()}). */
    int getReaders();

    /** Readers a new read could take now without waiting. */
    int getReadersAvailable();

    /** Reads waiting for a reader now. */
    int getReadersWaiting();

    /** Reads that gave up waiting for a reader since open. */
    long getReaderCheckoutTimeouts();

    /** The longest completed reader checkout since open, in ms. */
    long getLongestReaderHoldMillis();

    /**
     * Runs a {@code PASSIVE} checkpoint now ({@link dev.lanes.Database#checkpoint()}) and returns
     * SQLite's report, for instance {@code busy=false, walFrames=12, checkpointedFrames=12}.
     *
     * @throws IllegalStateException when it cannot run (the database is closing, its
     *     checkpoints belong to another tool, …); the message says why
     */
    String checkpoint();

    /**
     * Backs the database up to the file {@code path} ({@link
     * dev.lanes.Database#backup(java.nio.file.Path)}): an online, consistent copy, checked
     * before it takes the target's name.
     *
     * @throws IllegalArgumentException when {@code path} is not a valid path or already exists
     * @throws IllegalStateException when the backup failed; nothing is left at {@code path}
     */
    void backup(String path);
}
