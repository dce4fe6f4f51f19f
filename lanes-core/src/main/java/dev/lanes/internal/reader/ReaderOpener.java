package dev.lanes.internal.reader;

import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.Identity;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.util.Clock;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Opens one new reader connection, set up in order: read-only with the busy timeout, statement
 * cache and sqlite3 limits ({@link ReaderConnection#open}); checked against the file's {@link
 * Identity}; then the user's {@link ConnectionSettings}. A connection that fails a step is closed
 * before the failure is thrown, so every reader, first or reopened after an eviction or an idle
 * release, is set up alike or not at all.
 *
 * <p>Concurrency: {@link #open} runs on whichever platform thread runs the read; {@link #faults}
 * and {@link #identity} are installed once, early, from another thread, hence volatile, as is
 * the one-way latch {@link #walReady}. All else is final.
 */
final class ReaderOpener {
    private final String name;
    private final Path path;
    private final Duration busyTimeout;
    private final int statementCacheSize;
    private final SqliteConnections.Limits limits;
    private final ConnectionSettings settings;
    private final Clock clock;
    private volatile FaultInjector faults = FaultInjector.NONE;
    /** Checks each new connection against the file first opened; null checks nothing. */
    private volatile Identity identity;
    /** A one-way latch, set without a lock: see {@link #walReady()}. */
    private volatile boolean walReady;

    ReaderOpener(String name, Path path, Duration busyTimeout, int statementCacheSize,
            SqliteConnections.Limits limits, ConnectionSettings settings, Clock clock) {
        this.name = name;
        this.path = path;
        this.busyTimeout = busyTimeout;
        this.statementCacheSize = statementCacheSize;
        this.limits = limits;
        this.settings = settings;
        this.clock = clock;
    }

    Duration busyTimeout() {
        return busyTimeout;
    }

    void faults(FaultInjector injector) {
        this.faults = injector == null ? FaultInjector.NONE : injector;
    }

    void identity(Identity identity) {
        this.identity = identity;
    }

    /**
     * Whether the file is known to be a WAL database (seen so by a read, or made so by the
     * writer's open), so that a reader, which opens read-only and cannot make it one, may open
     * without waiting for the writer; kept here, with the set, as {@link Reads} is made per use.
     */
    boolean walReady() {
        return walReady;
    }

    void markWalReady() {
        walReady = true;
    }

    /**
     * A new connection, set up.
     *
     * @throws LanesException a {@link ReadFailedException} ({@code NOT_STARTED}) naming the step
     *     that failed, or the identity check's own typed failure
     */
    ReaderConnection open() {
        ReaderConnection c;
        try {
            c = ReaderConnection.open(path, busyTimeout, statementCacheSize, limits, faults,
                    clock);
        } catch (SQLException | RuntimeException e) {
            throw new ReadFailedException(WriteOutcome.NOT_STARTED, name + ": cannot open a reader "
                    + "connection (" + e.getMessage() + "); the read never ran", e);
        }
        Identity id = identity;
        if (id != null) {
            try {
                id.onReaderOpened(c.raw); // a swapped file: IdentityMismatchException, unwrapped
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e instanceof LanesException ? (LanesException) e : new ReadFailedException(
                        WriteOutcome.NOT_STARTED, name + ": cannot check the identity of a new "
                        + "reader connection (" + e.getMessage() + "); the read never ran", e);
            }
        }
        try {
            settings.apply(c.raw, ConnectionSettings.Role.READER);
        } catch (SQLException e) {
            c.close();
            throw new ReadFailedException(WriteOutcome.NOT_STARTED, name + ": cannot set up a new "
                    + "reader connection (" + e.getMessage() + "); the read never ran", e);
        }
        return c;
    }
}
