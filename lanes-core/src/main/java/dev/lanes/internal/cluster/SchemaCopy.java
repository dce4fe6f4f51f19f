package dev.lanes.internal.cluster;

import dev.lanes.ClosedException;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.writer.InteractiveTransaction;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What answers {@code DatabaseMetaData} for a cluster database, which has no JDBC connection of
 * its own: the driver's metadata on a private in-memory SQLite database that holds a copy of the
 * cluster database's schema, its {@code CREATE} statements replayed from {@code sqlite_master}.
 * Each metadata call reads {@code sqlite_master} (one round trip) and rebuilds the copy when the
 * schema differs, so an answer is the schema the caller saw when the call began: the committed
 * one, read on a read session, or, for the thread that holds the database's read-write
 * transaction, that transaction's own, read inside it (see {@link #visible}). The same copy tells
 * a query's declared column types ({@link #declaredTypes}), which a cluster session does not.
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
    /** The transaction the calling thread holds on the lane, or null (see {@link #visible}). */
    private final Supplier<InteractiveTransaction> ownTransaction;
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private Connection copy;
    private List<Entry> schema;
    private boolean closed;

    SchemaCopy(ClusterDatabase db, WorkerPool pool,
            Supplier<InteractiveTransaction> ownTransaction) {
        this.db = db;
        this.pool = pool;
        this.ownTransaction = ownTransaction;
    }

    /** Runs a metadata body on a copy of the schema the caller sees now ({@link #visible}). */
    <T> T run(SqlFunction<T> body) throws Exception {
        return runOn(visible(), body);
    }

    /**
     * Runs a metadata body on a copy of {@code schema}, the rows of {@link #SCHEMA} that its
     * caller read where it runs (a body on the writer lane reads its own transaction's).
     */
    <T> T runOn(List<Row> schema, SqlFunction<T> body) throws Exception {
        return onCopy(entries(schema), copy -> ConnectionGuard.read(db.name(),
                copy, ConnectionGuard.StopCheck.NONE, db.shapes()).run(body, false));
    }

    /**
     * Each column's declared type in the result of the query {@code sql}, whose columns are
     * {@code labels}: the statement is prepared, never run, on a copy of the schema the caller
     * sees ({@link ResultData#declaredTypesOf}, as a local data source finds them; null for an
     * expression). All null when the copy cannot tell: the statement does not prepare there (a
     * function or module only the cluster has), or its columns are not {@code labels} (the schema
     * changed since the query ran).
     */
    List<String> declaredTypes(String sql, List<String> labels) {
        try {
            return onCopy(entries(visible()), copy -> ResultData.declaredTypesOf(copy, sql,
                    labels));
        } catch (Exception e) {
            LOG.debug("{}: the declared types of '{}' are unknown: the schema's copy could not "
                    + "describe it ({})", db.name(), StatementShape.shorten(sql), e.toString());
            return Collections.nCopies(labels.size(), null);
        }
    }

    /** Runs {@code use} on the copy of {@code current}, rebuilt when the schema changed. */
    private <T> T onCopy(List<Entry> current, SqlFunction<T> use) throws Exception {
        return pool.onPlatform(() -> {
            lock.lock();
            try {
                if (closed) {
                    throw new ClosedException(db.name() + ": the database is closed");
                }
                if (copy == null || !current.equals(schema)) {
                    rebuild(current);
                }
                return use.apply(copy);
            } finally {
                lock.unlock();
            }
        }, false);
    }

    /**
     * The schema the caller sees, as a local connection would show it: a thread that holds the
     * database's read-write transaction sees that transaction's schema, its own uncommitted DDL
     * included ({@code sqlite_master} read inside it, on the lane); any other caller sees the
     * committed schema (read on a read session). A cluster has no connection per JDBC
     * connection, so the thread tells whose transaction it is.
     */
    private List<Row> visible() {
        InteractiveTransaction own = ownTransaction.get();
        if (own != null) {
            try {
                return own.query(SCHEMA);
            } catch (LanesException e) {
                if (own.isOpen()) {
                    throw e;
                }
                // it ended meanwhile (committed, rolled back): its schema is the committed one
            }
        }
        return db.query(SCHEMA);
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

    /** What is done with a statement of the schema that could not be replayed. */
    @FunctionalInterface
    interface ReplayFailure {
        void failed(Entry e, SQLException failure) throws SQLException;
    }

    /**
     * Runs the {@code CREATE} statements of {@code entries} (in {@link #replayOrder}) on {@code
     * s}. One whose object exists already is left out silently: a virtual table's shadow table,
     * which the virtual table made itself. Any other failure goes to {@code failure}, which may
     * throw to stop.
     */
    static void replay(Statement s, List<Entry> entries, ReplayFailure failure)
            throws SQLException {
        for (Entry e : entries) {
            try {
                s.execute(e.sql());
            } catch (SQLException failed) {
                if (!String.valueOf(failed.getMessage()).contains("already exists")) {
                    failure.failed(e, failed);
                }
            }
        }
    }

    // guarded by lock, on a platform thread
    private void rebuild(List<Entry> current) throws SQLException {
        closeCopy();
        Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        try (Statement s = c.createStatement()) {
            replay(s, replayOrder(current), (e, failed) -> LOG.warn("{}: the metadata leaves "
                    + "out {} {}: its schema could not be copied ({})", db.name(), e.type(),
                    e.name(), failed.getMessage()));
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
