package dev.lanes.internal.cluster;

import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.SqliteConnections;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Callable;
import org.sqlite.SQLiteConfig;

/**
 * The ordinary SQLite file a {@link ClusterBackup} writes: a new database in rollback-journal
 * mode, in the encoding of the cluster database, filled in one transaction and committed only when
 * the whole copy is in it. Every call is SQLite, so each runs on a platform thread of the pool
 * ({@link WorkerPool#onPlatform}), as a background turn.
 *
 * <p>Confinement: used by the one thread that runs the backup, one call at a time; the calls may
 * run on different platform threads, one after the other.
 */
final class BackupFile implements AutoCloseable {
    private final WorkerPool pool;
    private final Connection c;

    private BackupFile(WorkerPool pool, Connection c) {
        this.pool = pool;
        this.c = c;
    }

    /** Creates the file at {@code path} (which does not exist) in {@code encoding}. */
    static BackupFile create(WorkerPool pool, Path path, String encoding) throws Exception {
        return pool.onPlatform(() -> {
            Connection c = SqliteConnections.open(new SQLiteConfig(), path,
                    SqliteConnections.Limits.LOCKED_DOWN);
            try (PreparedStatement s = c.prepareStatement("PRAGMA encoding = '"
                    + encoding.replace("'", "''") + "'")) {
                s.execute(); // before anything is created: it decides how text is stored
                c.setAutoCommit(false);
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
            return new BackupFile(pool, c);
        }, true);
    }

    /** Runs the {@code CREATE} statements of {@code entries}; any failure fails the copy. */
    void replay(List<SchemaCopy.Entry> entries) throws Exception {
        onPlatform(() -> {
            try (Statement s = c.createStatement()) {
                SchemaCopy.replay(s, entries, (e, failed) -> {
                    throw new SQLException("the copy cannot create " + e.type() + " " + e.name()
                            + " (" + failed.getMessage() + ")", failed);
                });
            }
            return null;
        });
    }

    /** Runs one statement without parameters. */
    void execute(String sql) throws Exception {
        onPlatform(() -> {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
            return null;
        });
    }

    /** Whether the copy has the table {@code name} (SQLite makes some itself). */
    boolean hasTable(String name) throws Exception {
        return onPlatform(() -> {
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM sqlite_master WHERE "
                    + "type = 'table' AND name = ?")) {
                s.setString(1, name);
                return s.executeQuery().next();
            }
        });
    }

    /** Runs {@code insert} once for each row of values, bound in order. */
    void insert(String insert, List<Object[]> rows) throws Exception {
        onPlatform(() -> {
            try (PreparedStatement s = c.prepareStatement(insert)) {
                for (Object[] row : rows) {
                    for (int i = 0; i < row.length; i++) {
                        s.setObject(i + 1, row[i]);
                    }
                    s.executeUpdate();
                }
            }
            return null;
        });
    }

    /** Commits the whole copy. */
    void commit() throws Exception {
        onPlatform(() -> {
            c.commit();
            return null;
        });
    }

    /** Closes the file; a copy not committed is rolled back (the file is deleted after). */
    @Override
    public void close() throws Exception {
        onPlatform(() -> {
            c.close();
            return null;
        });
    }

    private <T> T onPlatform(Callable<T> call) throws Exception {
        return pool.onPlatform(call, true);
    }
}
