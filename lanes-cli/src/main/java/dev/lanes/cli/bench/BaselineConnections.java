package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Plain sqlite-jdbc connections for the baselines, configured as a careful application would:
 * WAL, the run's synchronous level (set explicitly, since this driver build defaults WAL databases
 * to FULL), a busy timeout and foreign keys on. Everything else stays at the driver's defaults, as
 * it does for most users (so the driver still fetches generated keys after each insert).
 */
final class BaselineConnections {
    private BaselineConnections() {}

    static SQLiteDataSource dataSource(Path file, Synchronous synchronous) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.name()));
        config.setBusyTimeout(BenchSystem.BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        return dataSource;
    }
}
