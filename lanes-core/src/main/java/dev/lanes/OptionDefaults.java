package dev.lanes;

/**
 * The defaults of {@link DatabaseOptions} that are computed rather than constant: the disk
 * reserve, which the environment may override, and the checkpoint mode, which follows {@link
 * Synchronous}.
 */
final class OptionDefaults {
    private OptionDefaults() {}

    /**
     * The default reserve: 64 MiB, enough for SQLite to finish a checkpoint, run the deletes
     * that free space, and write its journals on a nearly full volume, and small against any
     * disk a server runs on. {@value DatabaseOptions#DISK_RESERVE_ENV} overrides it.
     */
    static long diskReserve() {
        String env = System.getenv(DatabaseOptions.DISK_RESERVE_ENV);
        if (env == null || env.isBlank()) {
            return 64L * 1024 * 1024;
        }
        try {
            return Checks.nonNegative(DatabaseOptions.DISK_RESERVE_ENV, Long.parseLong(env.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(DatabaseOptions.DISK_RESERVE_ENV
                    + " must be a whole number of bytes, was '" + env + "'", e);
        }
    }

    /**
     * The default reserve for {@link DatabaseOptions#DEFAULTS}, which must not fail the class's
     * initialization: a bad {@value DatabaseOptions#DISK_RESERVE_ENV} falls back here and fails
     * {@link DatabaseOptions#builder()} (and so {@code Lanes.open}) instead, with a message
     * naming it.
     */
    static long diskReserveOrFallback() {
        try {
            return diskReserve();
        } catch (IllegalArgumentException e) {
            return 64L * 1024 * 1024;
        }
    }

    /**
     * The checkpoint mode a database gets when none is chosen: {@link CheckpointMode#DEDICATED},
     * but {@link CheckpointMode#AUTO} at {@link Synchronous#FULL}. Measured with {@code ./lanes
     * bench --scenario write}: at {@code NORMAL} a commit writes the WAL without a sync, and a
     * checkpoint inside it is the writers' whole latency tail, which the background checkpointer
     * removes (64 writers' p99 7.4–10.7× HikariCP's against 3.9×, a lone writer 1.5× raw JDBC
     * against 1.0×); at {@code FULL} every commit syncs the WAL, a background checkpoint's writes
     * and syncs compete with each commit's, and it halved a lone writer (0.50× raw JDBC against
     * 0.99×, 64 writers 10× HikariCP against 15×).
     */
    static CheckpointMode checkpointMode(Synchronous synchronous) {
        return synchronous == Synchronous.FULL ? CheckpointMode.AUTO : CheckpointMode.DEDICATED;
    }
}
