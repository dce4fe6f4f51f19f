package dev.lanes.internal.reader;

import dev.lanes.ClosedException;
import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Statements;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.ReentrantLock;

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
 * <p>A close of the database that does not wait for it (a shutdown, or a close past its {@code
 * closeTimeout}) {@linkplain #abort ends} it as it ends a JDBC result set that streams: its
 * reader goes back, and its next call fails with {@link ClosedException} saying why. Until then
 * it is registered with its {@link ReaderSet} ({@link ReadAborts#held}).
 *
 * <h2>Concurrency</h2>
 * One user at a time (a JDBC connection is not shared between threads at once), but the
 * database's close may end it from any thread: every call runs holding {@link #lock}, on a
 * platform thread, so an abort waits for a statement in progress (which the close stopped
 * inside SQLite first). The lock orders one thread's use of the lease's connection before the
 * next one's. {@link #closed} and {@link #aborted} are written under the lock; volatile, so that
 * a close of an ended snapshot needs no lock.
 */
public final class ReadSnapshot implements ReadTransaction, ReadAborts.HeldRead {
    private final Reads reads;
    private final ReaderSet readers;
    private final WorkerPool pool;
    private final Lease lease;
    private final String name;
    private final long maxResultBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean begun; // under lock
    private volatile boolean closed;
    /** Why the database's close ended the snapshot; null unless it did. */
    private volatile String aborted;

    private ReadSnapshot(Reads reads, ReaderSet readers, WorkerPool pool, Lease lease, String name,
            long maxResultBytes) {
        this.reads = reads;
        this.readers = readers;
        this.pool = pool;
        this.lease = lease;
        this.name = name;
        this.maxResultBytes = maxResultBytes;
    }

    /**
     * The snapshot of {@code lease}, registered with {@code readers} as a held read: ended at
     * once when a close already stopped the set's reads.
     */
    static ReadSnapshot open(Reads reads, ReaderSet readers, WorkerPool pool, Lease lease,
            String name, long maxResultBytes) {
        ReadSnapshot s = new ReadSnapshot(reads, readers, pool, lease, name, maxResultBytes);
        ReadAborts aborts = readers.aborts();
        aborts.held(s);
        if (aborts.stopped()) { // the close listed the held reads before this one
            s.abort(aborts.why());
        }
        return s;
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
        return onPlatform(() -> ConnectionGuard.read(name, begun().raw,
                ConnectionGuard.StopCheck.NONE, reads.shapes()).run(body, false));
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
        end(null);
    }

    /**
     * Ends the snapshot for the database's close: its reader goes back unverified (the closing
     * set closes it), and its next call fails saying {@code why}. Waits for a call in progress.
     */
    @Override
    public void abort(String why) {
        end(why);
    }

    private void end(String why) {
        if (closed) {
            return;
        }
        onPlatform(() -> {
            if (closed) {
                return null; // ended from another thread meanwhile
            }
            closed = true;
            aborted = why;
            readers.aborts().released(this);
            ReaderConnection c = lease.connection;
            boolean reusable = why == null && (c == null || !begun || reads.commitClean(c));
            readers.release(lease, reusable);
            return null;
        });
    }

    private ReaderConnection begun() throws SQLException {
        if (closed) {
            String why = aborted;
            if (why != null) {
                throw new ClosedException(name + ": the database closed (" + why + ") while "
                        + "this read-only transaction was open; its reader went back and its "
                        + "snapshot ended. Roll back or close the connection");
            }
            throw new IllegalStateException(name + ": the read snapshot is closed");
        }
        ReaderConnection c = readers.connect(lease);
        if (!begun) {
            c.begin();
            begun = true;
        }
        return c;
    }

    /** Runs {@code call} holding {@link #lock}, on a platform thread. */
    private <T> T onPlatform(Callable<T> call) {
        return OnPlatform.call(reads, pool, name, () -> {
            lock.lock();
            try {
                return call.call();
            } finally {
                lock.unlock();
            }
        });
    }
}
