package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Plain sqlite-jdbc connections for the baselines, configured as a careful application would:
 * WAL, the run's synchronous level (set explicitly, since this driver build defaults WAL databases
 * to FULL), a busy timeout and foreign keys on; readers open read-only. Everything else stays at
 * the driver's defaults, as it does for most users (so the driver still fetches generated keys
 * after each insert, and steps its {@code begin;}/{@code commit;} pair in autocommit mode).
 */
final class BaselineConnections {
    private BaselineConnections() {}

    static SQLiteDataSource dataSource(Path file, Synchronous synchronous) {
        return dataSource(file, synchronous, SQLiteConfig.TransactionMode.DEFERRED);
    }

    /**
     * The same connections, their {@code setAutoCommit(false)} transactions begun in {@code mode}:
     * {@code IMMEDIATE} is the usual cure for the {@code SQLITE_BUSY} that a deferred transaction
     * meets when it upgrades from reading to writing (the write lock is taken at {@code BEGIN},
     * where the busy timeout applies, instead of at the first write, where it does not).
     */
    static SQLiteDataSource dataSource(Path file, Synchronous synchronous,
            SQLiteConfig.TransactionMode mode) {
        SQLiteConfig config = new SQLiteConfig();
        config.setTransactionMode(mode);
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.name()));
        config.setBusyTimeout(BenchSystem.BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        return dataSource;
    }

    /**
     * Read-only connections ({@code SQLITE_OPEN_READONLY}) to a database that already exists in
     * WAL mode, with the same busy timeout.
     */
    static SQLiteDataSource readOnlyDataSource(Path file) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(BenchSystem.BUSY_TIMEOUT_MS);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        return dataSource;
    }
}
