package dev.lanes.internal.cluster;

import dev.lanes.AdmissionTimeoutException;
import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReadOptions;
import dev.lanes.ReaderDiagnostics;
import dev.lanes.Row;
import dev.lanes.WriteOutcome;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterException;
import dev.lanes.spi.ClusterSession;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The read sessions of a cluster database: up to {@code readers} sessions with the leader, beside
 * the writer lane's, so that a read never waits behind a group's replication. A read sees what
 * the leader has committed when it runs: every write acknowledged before it began (the leader
 * applied it before answering, and a new leader applies its log before it serves), and perhaps
 * some that commit meanwhile. A read is idempotent (only read-only SQL gets here), so one whose
 * session failed runs once more on a new session.
 *
 * <h2>Concurrency</h2>
 * {@link #permits} (fair) bounds the reads and read-only transactions in flight to {@code
 * readers} and orders the waiting ones; each admitted one releases its permit once ({@link
 * #left}). {@link #lock} guards {@link #idle} and {@link #closed}; it is never held while a
 * request runs. A session is used by the one read or {@link ReadSessionTransaction} that took it
 * from {@link #idle} until it gives it back or discards it. Counters are thread-safe.
 */
final class ReadSessions {
    private final String name;
    private final ClusterEngine engine;
    private final String database;
    private final int readers;
    private final Duration checkoutTimeout;
    private final Duration leaderTimeout;
    private final long maxResultBytes;
    private final Semaphore permits;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final ArrayDeque<ClusterSession> idle = new ArrayDeque<>();
    private boolean closed;

    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final LongAdder acquisitions = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder checkoutTimeouts = new LongAdder();
    private final LongAdder replaced = new LongAdder();
    private final LongAdder cancellations = new LongAdder();

    ReadSessions(String name, ClusterEngine engine, String database, int readers,
            Duration checkoutTimeout, Duration leaderTimeout, long maxResultBytes) {
        this.name = name;
        this.engine = engine;
        this.database = database;
        this.readers = readers;
        this.checkoutTimeout = checkoutTimeout;
        this.leaderTimeout = leaderTimeout;
        this.maxResultBytes = maxResultBytes;
        this.permits = new Semaphore(readers, true);
    }

    /** Runs a read-only query on a read session. */
    List<Row> query(String sql, Object[] args) {
        return queryWithColumns(sql, args).rows();
    }

    /** {@link #query}, with the result's column names (also when it has no row). */
    ClusterSession.Result queryWithColumns(String sql, Object[] args) {
        enter(checkoutTimeout);
        try {
            return run(sql, args);
        } finally {
            left();
        }
    }

    /**
     * A read-only transaction on one read session, which it holds, with its permit, until it
     * closes; admitted within {@code options}' timeout, else {@code readerCheckoutTimeout}.
     */
    ReadSessionTransaction transaction(ReadOptions options, SchemaCopy schema) {
        enter(options.timeout().orElse(checkoutTimeout));
        return new ReadSessionTransaction(this, name, maxResultBytes, schema);
    }

    /** Takes a permit within {@code timeout} and counts the read in flight. */
    private void enter(Duration timeout) {
        checkOpen();
        admit(timeout);
        int now = inFlight.incrementAndGet();
        peak.accumulateAndGet(now, Math::max);
        acquisitions.increment();
    }

    /** Ends what {@link #enter} began: once per admitted read or transaction. */
    void left() {
        inFlight.decrementAndGet();
        completed.increment();
        permits.release();
    }

    private void admit(Duration timeout) {
        try {
            if (!permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                checkoutTimeouts.increment();
                throw new AdmissionTimeoutException(name + ": no read session became free within "
                        + timeout.toMillis() + " ms (" + readers + " in use, "
                        + permits.getQueueLength() + " waiting); the read never ran. Retry later, "
                        + "or raise readers or readerCheckoutTimeout");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancellations.increment();
            throw new CancelledException(WriteOutcome.NOT_STARTED, name + ": interrupted while "
                    + "waiting for a read session; the read never ran", e);
        }
    }

    private ClusterSession.Result run(String sql, Object[] args) {
        List<Object> params = ClusterSql.params(args);
        ClusterException first = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            ClusterSession s;
            try {
                s = take();
            } catch (ClusterException e) {
                throw failed(sql, e, first);
            }
            ClusterSession.Result result;
            try {
                result = s.queryWithColumns(sql, params);
            } catch (ClusterException e) {
                if (survives(s, e)) {
                    giveBack(s); // SQLite refused the query itself: it would fail again
                    throw failed(sql, e, first);
                }
                discard(s);
                if (first != null) {
                    throw failed(sql, e, first);
                }
                first = e; // the session failed, not the query: once more, on a new one
                continue;
            }
            giveBack(s);
            ClusterSql.checkSize(name, sql, result.rows(), maxResultBytes);
            return result;
        }
        throw new IllegalStateException("unreachable");
    }

    /**
     * Whether a session that failed a request with {@code e} is still good: SQLite refused the
     * request itself (it would fail again), and the session did not fail.
     */
    static boolean survives(ClusterSession s, ClusterException e) {
        return s.isOpen() && (e.kind() == ClusterException.Kind.NOT_RUN
                || e.kind() == ClusterException.Kind.CONSTRAINT);
    }

    ReadFailedException failed(String sql, ClusterException e, ClusterException first) {
        ReadFailedException failure = new ReadFailedException(WriteOutcome.NOT_STARTED, name
                + ": the read '" + dev.lanes.internal.sql.text.StatementShape.shorten(sql)
                + "' failed: "
                + e.getMessage(), e);
        if (first != null) {
            failure.addSuppressed(first);
        }
        return failure;
    }

    ClusterSession take() {
        lock.lock();
        try {
            checkOpenLocked();
            ClusterSession s = idle.pollFirst();
            if (s != null) {
                return s;
            }
        } finally {
            lock.unlock();
        }
        ClusterSession s = engine.open(database, leaderTimeout);
        open.incrementAndGet();
        return s;
    }

    void giveBack(ClusterSession s) {
        lock.lock();
        try {
            if (!closed && s.isOpen()) {
                idle.addFirst(s);
                return;
            }
        } finally {
            lock.unlock();
        }
        discard(s);
    }

    void discard(ClusterSession s) {
        s.close();
        open.decrementAndGet();
        replaced.increment();
    }

    private void checkOpen() {
        lock.lock();
        try {
            checkOpenLocked();
        } finally {
            lock.unlock();
        }
    }

    // guarded by lock
    private void checkOpenLocked() {
        if (closed) {
            throw new ClosedException(name + ": the database is closed; the read never ran");
        }
    }

    /** Refuses later reads and closes the idle sessions; those in use close when given back. */
    void close() {
        List<ClusterSession> sessions;
        lock.lock();
        try {
            closed = true;
            sessions = new ArrayList<>(idle);
            idle.clear();
        } finally {
            lock.unlock();
        }
        for (ClusterSession s : sessions) {
            s.close();
            open.decrementAndGet();
        }
    }

    ReaderDiagnostics diagnostics() {
        return new ReaderDiagnostics(readers, checkoutTimeout, leaderTimeout,
                permits.availablePermits(), open.get(), permits.getQueueLength(),
                acquisitions.sum(), checkoutTimeouts.sum(), 0, inFlight.get(), peak.get(),
                completed.sum(), Duration.ZERO, replaced.sum(), 0, cancellations.sum());
    }
}
