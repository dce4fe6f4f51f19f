package dev.lanes.internal.reader;

import dev.lanes.internal.sqlite.ControlStatement;
import dev.lanes.internal.sqlite.DriverInternals;
import dev.lanes.internal.sqlite.FaultInjector.Point;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.sqlite.StatementCache;
import dev.lanes.internal.util.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * One read-only connection of a {@link ReaderSet}: opened with {@code SQLITE_OPEN_READONLY} and
 * {@code PRAGMA query_only=1}, restricted as every connection is (no extension loading, no
 * attachment; see {@link SqliteConnections}), in the driver's manual mode (see {@link SqliteConnections}), so the
 * runtime issues {@code BEGIN}/{@code COMMIT}/{@code ROLLBACK} itself and a statement outside them
 * autocommits in SQLite.
 *
 * <h2>Concurrency</h2>
 * A reader is used by one thread at a time: the thread holding its lease (the reader set hands a
 * connection to exactly one read at a time, through an atomic slot or its lock, which orders one
 * holder's writes before the next holder's reads); fields marked "lease holder only" rely on
 * that. Only two things may come from other threads: a stop request (a cancelled read, or a
 * close of the set that does not wait for it) and {@link #close()}.
 *
 * <ul>
 *   <li>{@link #stopReason} and {@link #deadline} are volatile: the lease holder arms them, the
 *       progress handler reads them inside SQLite on the holder's thread, and a canceller writes
 *       {@code stopReason}. {@link #closing} is a volatile one-way latch that the set's close
 *       sets and the progress handler reads.
 *   <li>{@link #handleLock} guards {@link #lease}, {@link #interruptible} and {@link #closed}.
 *       {@code sqlite3_interrupt} reads the native handle without any lock, so calling it while
 *       the connection closes is a use-after-free; {@link #stop} therefore interrupts only under
 *       {@code handleLock}, only while the lease it was asked for is still the current one and
 *       still inside its interruptible window, and {@link #close()} takes the same lock. An
 *       interrupt can thus never reach a closed handle, a later read, or the read's own clean-up.
 * </ul>
 *
 * <h2>Clean state</h2>
 * Between reads the connection must be in autocommit mode with no statement holding a read
 * snapshot. A transaction left open is visible to a deferred-{@code BEGIN} probe; a statement
 * left stepping (a body that escaped the guard through {@code unwrap}) is not, yet it pins the
 * old snapshot for every later read. So the number of statements the driver has open is compared
 * with the ones the runtime knows (its cache and control statements); a reader that cannot be
 * shown clean is closed and replaced, never reused.
 */
public final class ReaderConnection {
    /** SQLite VM instructions between progress-handler calls: a stop takes effect this soon. */
    static final int PROGRESS_INTERVAL = 1000;

    static final int RUNNING = 0;
    static final int CANCELLED = 1;
    static final int DEADLINE = 2;
    /** Stopped because its {@link ReaderSet} closes without waiting for reads. */
    static final int CLOSED = 3;

    private static final String IN_TRANSACTION = "cannot start a transaction within a transaction";

    final SQLiteConnection raw;
    final StatementCache cache;
    private final FaultInjector faults;
    private final Clock clock;
    private final ControlStatement begin;
    private final ControlStatement commit;
    private final ControlStatement rollback;

    private volatile int stopReason = RUNNING;
    private volatile boolean hasDeadline;
    private volatile long deadline;
    /** Set once, by {@link #stopForClose}: every lease from then on stops as {@link #CLOSED}. */
    private volatile boolean closing;

    private final ReentrantLock handleLock = new ReentrantLock();
    // guarded by handleLock
    private long lease;
    private boolean interruptible;
    private boolean closed;

    // lease holder only
    private long leaseCounter;
    private boolean leaseInterruptible;

    /**
     * The connection's home slot in its {@link ReaderSet}, or -1 for none; set by the set under
     * its lock before the connection is handed to anyone.
     */
    int home = -1;

    private ReaderConnection(SQLiteConnection raw, int statementCacheSize, FaultInjector faults,
            Clock clock) throws SQLException {
        this.clock = clock;
        this.raw = raw;
        this.faults = faults;
        this.cache = new StatementCache(raw, statementCacheSize);
        this.begin = new ControlStatement(raw, "BEGIN");
        this.commit = new ControlStatement(raw, "COMMIT");
        this.rollback = new ControlStatement(raw, "ROLLBACK");
        ProgressHandler.setHandler(raw, PROGRESS_INTERVAL, new ProgressHandler() {
            @Override
            protected int progress() {
                return shouldStop() ? 1 : 0;
            }
        });
        // Prepare the control statements once, up front.
        begin.run();
        rollback.run();
        begin.run();
        commit.run();
    }

    /**
     * Opens a reader on a database the writer has already created in WAL mode.
     *
     * @throws SQLException when SQLite cannot open it or refuses the setup
     */
    static ReaderConnection open(Path path, Duration busyTimeout, int statementCacheSize,
            SqliteConnections.Limits limits, FaultInjector faults, Clock clock)
            throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(SqliteConnections.busyTimeoutMillis(busyTimeout));
        SQLiteConnection raw = SqliteConnections.open(config, path, limits);
        try {
            try (Statement s = raw.createStatement()) {
                s.execute("PRAGMA query_only=1");
            }
            raw.getConnectionConfig().setGetGeneratedKeys(false);
            raw.getConnectionConfig().setAutoCommit(false); // manual mode, without a BEGIN
            return new ReaderConnection(raw, statementCacheSize, faults, clock);
        } catch (SQLException | RuntimeException e) {
            try {
                raw.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    // ------------------------------------------------------------------ leases

    /**
     * Starts a lease: arms the stop signal for it and, for a lease that others may stop (one
     * with a future or a waiting caller), opens the interruptible window. A read run by its own
     * caller has no handle anyone could cancel through, so it skips the lock; its deadline still
     * works, through the progress handler.
     *
     * @param deadlineNanos the {@link Clock} deadline, used when {@code withDeadline}
     * @param stoppable whether {@link #stop} may be called for this lease
     * @return the token that identifies this lease in later {@link #stop} requests
     */
    long startLease(boolean withDeadline, long deadlineNanos, boolean stoppable) {
        long token = ++leaseCounter;
        stopReason = RUNNING;
        deadline = deadlineNanos;
        hasDeadline = withDeadline;
        leaseInterruptible = stoppable;
        if (stoppable) {
            handleLock.lock();
            try {
                lease = token;
                interruptible = true;
            } finally {
                handleLock.unlock();
            }
        }
        return token;
    }

    /**
     * Closes the interruptible window and disarms the progress handler, so that clean-up runs
     * undisturbed. Returns why the lease was stopped, if it was: {@link #RUNNING} (not stopped),
     * {@link #CANCELLED}, {@link #DEADLINE} or {@link #CLOSED}.
     */
    int endLease() {
        if (leaseInterruptible) {
            handleLock.lock();
            try {
                interruptible = false;
                lease = 0;
            } finally {
                handleLock.unlock();
            }
        }
        int reason = stopReason;
        if (reason == RUNNING && hasDeadline && clock.nanoTime() - deadline >= 0) {
            reason = DEADLINE;
        }
        hasDeadline = false;
        stopReason = RUNNING;
        return reason;
    }

    /** Whether the running lease must stop; called by the progress handler inside SQLite. */
    private boolean shouldStop() {
        if (stopReason != RUNNING) {
            return true;
        }
        if (closing) {
            stopReason = CLOSED;
            return true;
        }
        if (hasDeadline && clock.nanoTime() - deadline >= 0) {
            stopReason = DEADLINE;
            return true;
        }
        return false;
    }

    /** The lease's stop reason now, checking the deadline; for the guard, between statements. */
    int currentStopReason() {
        shouldStop();
        return stopReason;
    }

    /**
     * Asks the lease {@code token} to stop, from any thread: the progress handler sees the flag
     * within {@link #PROGRESS_INTERVAL} VM instructions, and {@code sqlite3_interrupt} stops a
     * statement stuck in a long single step. A no-op when that lease has ended.
     */
    void stop(long token, int reason) {
        handleLock.lock();
        try {
            if (closed || lease != token || !interruptible) {
                return;
            }
            stopReason = reason;
            DriverInternals.interrupt(raw);
        } catch (SQLException e) {
            // the connection is closing; its lease is over anyway
        } finally {
            handleLock.unlock();
        }
    }

    /**
     * Raises the stop flag of lease {@code token} without a native call (for a virtual-thread
     * canceller); the progress handler acts on it within {@link #PROGRESS_INTERVAL} instructions.
     */
    void flagStop(long token, int reason) {
        handleLock.lock();
        try {
            if (!closed && lease == token && interruptible) {
                stopReason = reason;
            }
        } finally {
            handleLock.unlock();
        }
    }

    /**
     * Stops the lease running now, and every later one, for a close of the set that does not
     * wait for reads, as a deadline stops a read: the progress handler stops a statement within
     * {@link #PROGRESS_INTERVAL} VM instructions, and the guard refuses the next one ({@link
     * #currentStopReason}); either way the lease ends {@link #CLOSED}. A read that runs no more
     * SQL ends as it would have. Any lease, also one nobody may {@link #stop}; from any thread,
     * with no native call.
     */
    void stopForClose() {
        closing = true;
    }

    // ------------------------------------------------------------------ transactions

    /** {@code BEGIN} (deferred): the read's snapshot starts at its first statement. */
    void begin() throws SQLException {
        faults.before(Point.BEGIN);
        begin.run();
    }

    void commit() throws SQLException {
        faults.before(Point.COMMIT);
        commit.run();
    }

    /**
     * Makes the connection clean after a read that failed or misbehaved: rolls back any open
     * transaction, then verifies that none is open and that no statement outlived the lease.
     * Never throws.
     *
     * @return whether the connection is verified clean and may be reused
     */
    boolean rollbackVerified() {
        try {
            faults.before(Point.ROLLBACK);
            rollback.run();
        } catch (SQLException e) {
            // "no transaction is active" is success; the probe below judges
        }
        return verifiedClean();
    }

    /** Whether the connection is outside any transaction and holds no stray statement. */
    boolean verifiedClean() {
        try {
            if (inTransaction()) {
                return false;
            }
        } catch (SQLException e) {
            return false;
        }
        return !strayStatements();
    }

    /**
     * Whether the driver holds a statement that is neither cached nor one of the control
     * statements: one a body opened on the driver's connection (through {@code unwrap} or a
     * result set's statement) and left open, where it may pin an old snapshot. Cheap, so checked
     * after every body. Errs towards reporting a stray: a false alarm only replaces a connection.
     */
    boolean strayStatements() {
        int open = openStatements();
        if (open < 0) {
            return true;
        }
        int known = cache.size() + (begin.isPrepared() ? 1 : 0) + (commit.isPrepared() ? 1 : 0)
                + (rollback.isPrepared() ? 1 : 0);
        return open > known;
    }

    private boolean inTransaction() throws SQLException {
        try {
            begin.run();
        } catch (SQLException e) {
            String message = e.getMessage();
            if (message != null && message.contains(IN_TRANSACTION)) {
                return true;
            }
            throw e;
        }
        commit.run();
        return false;
    }

    /**
     * The statements the driver has open on this connection, read through its private statement
     * set (sqlite-jdbc exposes neither {@code sqlite3_next_stmt} nor {@code sqlite3_stmt_busy});
     * -1 when reading it failed. With a driver whose layout differs, strays cannot be seen and
     * this reports 0.
     */
    private int openStatements() {
        return DriverInternals.openStatements(raw);
    }

    // ------------------------------------------------------------------ close

    /** Closes the connection; a stop request racing with it becomes a no-op. Never throws. */
    void close() {
        handleLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            interruptible = false;
            cache.close();
            begin.close();
            commit.close();
            rollback.close();
            try {
                raw.close();
            } catch (SQLException e) {
                // nothing more can be done with it; the caller counts it closed
            }
        } finally {
            handleLock.unlock();
        }
    }
}
