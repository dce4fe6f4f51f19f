package dev.lanes.internal.cluster;

import dev.lanes.ClosedException;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.reader.Reads;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.util.LogNames;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What answers {@code DatabaseMetaData} for a cluster database, which has no JDBC connection of
 * its own: the driver's metadata on a private in-memory SQLite database that holds a copy of the
 * cluster database's schema, its {@code CREATE} statements replayed from {@code sqlite_master}.
 * Each metadata call reads {@code sqlite_master} on a read session (one round trip) and rebuilds
 * the copy when the schema differs, so an answer is the schema committed when the call began.
 *
 * <ul>
 *   <li>Replayed in the order tables, indexes, views, triggers, each in creation order; SQLite's
 *       own objects ({@code sqlite_*}) and automatic indexes (no SQL) are left to SQLite.
 *   <li>A statement the copy cannot run is left out with a warning: the shadow tables a virtual
 *       table creates by itself ("already exists", silently), or a virtual table whose module
 *       this driver lacks.
 *   <li>Rows are never copied: metadata does not read them.
 * </ul>
 *
 * <h2>Concurrency</h2>
 * {@link #lock} guards {@link #copy}, {@link #schema} and {@link #closed}, and is held while a
 * body runs on the copy: one metadata call at a time per database, on a cold path. The copy is
 * SQLite, so it is touched only on platform threads ({@link WorkerPool#onPlatform}); the schema
 * read before it runs on the caller's thread, outside the lock.
 */
final class SchemaCopy {
    private static final Logger LOG = LoggerFactory.getLogger(LogNames.JDBC);
    static final String SCHEMA = "SELECT type, name, sql FROM sqlite_master ORDER BY rowid";
    private static final List<String> ORDER = List.of("table", "index", "view", "trigger");

    /** One object of the schema, as {@code sqlite_master} lists it. */
    record Entry(String type, String name, String sql) {}

    private final ClusterDatabase db;
    private final WorkerPool pool;
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private Connection copy;
    private List<Entry> schema;
    private boolean closed;

    SchemaCopy(ClusterDatabase db, WorkerPool pool) {
        this.db = db;
        this.pool = pool;
    }

    /** Runs a metadata body on the copy of the schema committed now. */
    <T> T run(SqlFunction<T> body) throws Exception {
        List<Entry> current = entries(db.query(SCHEMA));
        return pool.onPlatform(() -> {
            lock.lock();
            try {
                if (closed) {
                    throw new ClosedException(db.name() + ": the database is closed");
                }
                if (copy == null || !current.equals(schema)) {
                    rebuild(current);
                }
                return Reads.runGuarded(ConnectionGuard.read(db.name(), copy,
                        ConnectionGuard.StopCheck.NONE), body);
            } finally {
                lock.unlock();
            }
        }, false);
    }

    static List<Entry> entries(List<Row> rows) {
        List<Entry> entries = new ArrayList<>(rows.size());
        for (Row r : rows) {
            entries.add(new Entry(r.getString("type"), r.getString("name"), r.getString("sql")));
        }
        return entries;
    }

    /** The statements that recreate {@code schema}, in the order they can run. */
    static List<Entry> replayOrder(List<Entry> schema) {
        List<Entry> replay = new ArrayList<>();
        for (Entry e : schema) {
            if (e.sql() != null && !e.name().startsWith("sqlite_") && ORDER.contains(e.type())) {
                replay.add(e);
            }
        }
        replay.sort(Comparator.comparingInt(e -> ORDER.indexOf(e.type()))); // stable
        return replay;
    }

    // guarded by lock, on a platform thread
    private void rebuild(List<Entry> current) throws SQLException {
        closeCopy();
        Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        try (Statement s = c.createStatement()) {
            for (Entry e : replayOrder(current)) {
                try {
                    s.execute(e.sql());
                } catch (SQLException failed) {
                    String message = String.valueOf(failed.getMessage());
                    if (!message.contains("already exists")) {
                        LOG.warn("{}: the metadata leaves out {} {}: its schema could not be "
                                + "copied ({})", db.name(), e.type(), e.name(), message);
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        copy = c;
        schema = current;
    }

    // guarded by lock, on a platform thread
    private void closeCopy() throws SQLException {
        Connection c = copy;
        copy = null;
        schema = null;
        if (c != null) {
            c.close();
        }
    }

    /**
     * Refuses later metadata calls and closes the copy, if one was made: only that close is
     * SQLite, so only it goes to a platform thread.
     */
    void close() {
        Connection c;
        lock.lock();
        try {
            closed = true;
            c = copy;
            copy = null;
            schema = null;
        } finally {
            lock.unlock();
        }
        if (c == null) {
            return;
        }
        try {
            pool.onPlatform(() -> {
                c.close();
                return null;
            }, true);
        } catch (Exception e) {
            LOG.warn("{}: closing the metadata's schema copy failed", db.name(), e);
        }
    }
}
