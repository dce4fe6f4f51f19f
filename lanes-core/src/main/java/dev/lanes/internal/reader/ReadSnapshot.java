package dev.lanes.internal.reader;

import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Statements;
import java.sql.SQLException;
import java.util.concurrent.Callable;

/**
 * A read snapshot held across calls: one reader checked out from its {@link ReaderSet} until
 * {@link #close()}, inside {@code BEGIN} (deferred) … {@code COMMIT}, so that every statement
 * sees the state committed when the first one ran. This is a JDBC connection's read-only
 * transaction; a plain read holds its reader for one call only.
 *
 * <p>SQLite runs only on platform threads: a platform caller runs each statement on its own
 * thread, a virtual one hands it to the pool and parks. Writes and transaction control are
 * refused before SQLite sees them, as on every reader.
 *
 * <h2>Concurrency</h2>
 * One user at a time (a JDBC connection is not shared between threads at once); the lease's
 * connection is touched by whichever thread runs the current call, and the pool hand-off (a
 * future) orders one call's writes before the next one's reads. {@link #closed} is a one-way
 * latch set by the user.
 */
public final class ReadSnapshot implements ReadTransaction {
    private final Reads reads;
    private final ReaderSet readers;
    private final WorkerPool pool;
    private final Lease lease;
    private final String name;
    private final long maxResultBytes;
    private boolean begun;
    private boolean closed;

    ReadSnapshot(Reads reads, ReaderSet readers, WorkerPool pool, Lease lease, String name,
            long maxResultBytes) {
        this.reads = reads;
        this.readers = readers;
        this.pool = pool;
        this.lease = lease;
        this.name = name;
        this.maxResultBytes = maxResultBytes;
    }

    /**
     * One query of the snapshot, with its columns' metadata; its caller admitted it. Stopped
     * inside SQLite once {@code options}' timeout passed.
     */
    @Override
    public ResultData query(String sql, Object[] args, ReadOptions options) {
        return onPlatform(() -> {
            ReaderConnection c = begun();
            return withinDeadline(c, options, () -> Statements.queryDetailed(c.cache, sql,
                    args, maxResultBytes, name));
        });
    }

    /**
     * Runs one statement on {@code c} within {@code options}' timeout, as a plain read runs: the
     * progress handler stops it once the deadline passed, and it fails with {@link
     * dev.lanes.DeadlineExceededException}; the snapshot holds the reader on until it closes.
     */
    private <T> T withinDeadline(ReaderConnection c, ReadOptions options, Callable<T> statement) {
        ReadLimits limits = ReadLimits.of(options, reads.clock());
        c.startLease(limits.hasDeadline, limits.deadline, false);
        T value = null;
        Throwable failure = null;
        try {
            value = statement.call();
        } catch (Exception e) {
            failure = e;
        }
        int stop = c.endLease();
        if (stop == ReaderConnection.DEADLINE) {
            readers.stats.deadlineExceeded();
        }
        return reads.outcome(stop, value, failure, limits);
    }

    /** A read body on the snapshot's guarded connection (metadata, say). */
    @Override
    public <T> T run(SqlFunction<T> body) {
        return onPlatform(() -> Reads.runGuarded(ConnectionGuard.read(name, begun().raw,
                ConnectionGuard.StopCheck.NONE, reads.shapes()), body));
    }

    /**
     * Sets, releases or rolls back to a savepoint inside the snapshot; {@code sql} is the
     * savepoint statement, its name checked by who built it.
     */
    @Override
    public void savepoint(String sql) {
        onPlatform(() -> {
            try (java.sql.Statement s = begun().raw.createStatement()) {
                s.execute(sql);
            }
            return null;
        });
    }

    /** Ends the snapshot and returns its reader, verified clean (else replaced). Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        onPlatform(() -> {
            ReaderConnection c = lease.connection;
            boolean reusable = c == null || !begun || reads.commitClean(c);
            readers.release(lease, reusable);
            return null;
        });
    }

    private ReaderConnection begun() throws SQLException {
        if (closed) {
            throw new IllegalStateException(name + ": the read snapshot is closed");
        }
        ReaderConnection c = readers.connect(lease);
        if (!begun) {
            c.begin();
            begun = true;
        }
        return c;
    }

    private <T> T onPlatform(Callable<T> call) {
        return OnPlatform.call(reads, pool, name, call);
    }
}
