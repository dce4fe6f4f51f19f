package dev.lanes;

import java.time.Duration;

/**
 * A point-in-time view of a {@link Lanes} runtime and its shared thread pool.
 *
 * @param liveThreads pool threads alive now
 * @param maxThreads the cap on pool threads
 * @param busyThreads pool threads running a turn now
 * @param runnableForeground foreground databases waiting for a pool thread
 * @param runnableBackground background databases waiting for a pool thread
 * @param openDatabases databases open in this runtime
 * @param openConnections SQLite connections open in this runtime
 * @param longestQueueWait the longest a database has waited for a pool thread since start
 * @param saturationStretches stretches in which every thread was busy over a second while work
 *     waited
 * @param saturated whether such a stretch is going on now
 * @param sqlite the SQLite and sqlite-jdbc versions, and whether checkpoints are confined to the
 *     writer against SQLite's WAL-reset bug
 */
public record RuntimeDiagnostics(
        int liveThreads,
        int maxThreads,
        int busyThreads,
        int runnableForeground,
        int runnableBackground,
        int openDatabases,
        int openConnections,
        Duration longestQueueWait,
        long saturationStretches,
        boolean saturated,
        SqliteInfo sqlite) {}
