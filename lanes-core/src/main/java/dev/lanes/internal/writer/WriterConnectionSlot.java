package dev.lanes.internal.writer;

import dev.lanes.IdentityMismatchException;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.SqlFunction;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.util.LogNames;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer connection of one lane: none until a turn needs it, then opened through the lane's
 * {@link WriterConnector} ({@link #openIfClosed}). The database's initializer runs, in one transaction, at the first open
 * only; a later open (after an idle release or an eviction closed the connection) is reported as
 * a reopen. A connection that cannot be opened the first time makes the lane dead. A reopen that
 * fails refuses only that turn's requests, as retryable and never run ({@link
 * OverloadedException}), and the next turn tries again: its cause is usually passing (the process
 * out of file descriptors, {@code SQLITE_CANTOPEN}, while thousands of tenants reopen), and a
 * database that once opened must not be lost to it. A reopen that finds another file at the path
 * ({@link IdentityMismatchException}) still makes the lane dead: {@link LaneTurn} decides, from
 * {@link #reopenable}. Closing the connection gives its place in the connection budget back.
 *
 * <h2>Concurrency</h2>
 * Turn only: {@link #connection}, {@link #initialized} and {@link #justOpened} are touched only by
 * the lane's holder (a turn, or an idle release run as a turn); the lane lock's hand-offs order
 * one holder's writes before the next one's reads. {@link #faults} is volatile: tests install it
 * from any thread, and each fault point reads it, so that an installation applies to a connection
 * opened before it.
 */
final class WriterConnectionSlot {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    /** How to open the connection, and the initializer to run at the first open. */
    private final LaneSetup setup;
    private final WriteTelemetry telemetry;
    /** Commits the initializer's transaction (behind the commit fence). */
    private final LaneTransaction transaction;
    private volatile FaultInjector faults = FaultInjector.NONE;

    // turn only
    private WriterConnection connection;
    private boolean initialized;
    /** Set by the turn that opened the connection, so the turn completes {@code ready}. */
    private boolean justOpened;

    WriterConnectionSlot(LaneSetup setup, WriteTelemetry telemetry, LaneTransaction transaction) {
        this.setup = setup;
        this.telemetry = telemetry;
        this.transaction = transaction;
    }

    void faults(FaultInjector injector) {
        this.faults = injector == null ? FaultInjector.NONE : injector;
    }

    /** The open connection, or null. Turn only. */
    WriterConnection current() {
        return connection;
    }

    /** Whether the turn that just ran opened the connection; clears it. Turn only. */
    boolean takeJustOpened() {
        boolean opened = justOpened;
        justOpened = false;
        return opened;
    }

    /**
     * Opens the connection unless it is open.
     *
     * @return null when it is open; else why it could not be opened (it is closed again)
     */
    Throwable openIfClosed() {
        if (connection != null) {
            return null;
        }
        try {
            open();
            return null;
        } catch (Throwable e) {
            closeQuietly();
            return e;
        }
    }

    /**
     * Whether a failed open ({@code failure}) leaves the lane alive: it was a reopen, failing for
     * a cause that may pass, not another file at the path.
     */
    boolean reopenable(Throwable failure) {
        return initialized && failure instanceof Exception
                && !(failure instanceof IdentityMismatchException);
    }

    /** A reopen failed: the requests of this turn are refused, retryable; the lane stays alive. */
    LanesException reopenFailed(int requests, Throwable e) {
        log.warn("{}: cannot reopen the writer connection at {} ({}); the {} write(s) of this "
                + "turn are refused, never run, and the next turn tries again", setup.name(),
                setup.path(), e.toString(), requests);
        return new OverloadedException(setup.name() + ": the writer connection, closed by an "
                + "idle release or the connection budget, cannot be reopened now (" + e + "); "
                + "the write never ran. Retry later; if the process runs out of file "
                + "descriptors, lower maxOpenConnections", e);
    }

    private void open() throws Exception {
        long openStart = setup.clock().nanoTime();
        connection = setup.connector().open(new FaultInjector() {
            // reads the field, so that later installations apply
            @Override
            public void before(Point point) throws SQLException {
                faults.before(point);
            }

            @Override
            public void after(Point point) throws SQLException {
                faults.after(point);
            }
        }, telemetry.counters);
        if (initialized) {
            // opened before, so it was closed since (an eviction): a reopen
            telemetry.reopened(setup.clock().nanoTime() - openStart);
        } else {
            // Once per database: a reopen after an eviction must not run it again.
            initialize(connection);
            initialized = true;
        }
        justOpened = true;
    }

    /** Runs the initializer, if any, in one transaction; throws when it fails. */
    private void initialize(WriterConnection c) throws Exception {
        SqlFunction<?> initializer = setup.options().initializer();
        if (initializer == null) {
            return;
        }
        c.beginImmediate();
        try {
            c.runInitializer(initializer);
        } catch (Exception | Error e) {
            c.rollbackVerified();
            throw e;
        }
        LaneTransaction.CommitResult result = transaction.commit(c, "the initializer's COMMIT",
                LaneTransaction.Committed.UNCOUNTED);
        if (!result.committed()) {
            throw result.failure();
        }
    }

    /** Closes the connection, if open; a failure to close is logged. Turn only. */
    void closeQuietly() {
        WriterConnection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                log.warn("{}: closing the writer connection failed", setup.name(), e);
            }
            setup.budget().closed();
        }
    }
}
