package dev.lanes.internal.reader;

import dev.lanes.DatabaseOptions;
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
 * <p>Made per connection opened, from its {@link ReaderSet}'s name, path, options, identity and
 * fault injector (a database keeps none between opens), and used on the platform thread that
 * runs the read; every field is final.
 */
final class ReaderOpener {
    private final String name;
    private final Path path;
    private final Duration busyTimeout;
    private final int statementCacheSize;
    private final SqliteConnections.Limits limits;
    private final ConnectionSettings settings;
    private final Clock clock;
    private final FaultInjector faults;
    /** Checks each new connection against the file first opened; null checks nothing. */
    private final Identity identity;

    ReaderOpener(String name, Path path, DatabaseOptions options, Identity identity,
            FaultInjector faults, Clock clock) {
        this.name = name;
        this.path = path;
        this.busyTimeout = options.busyTimeout();
        this.statementCacheSize = options.statementCacheSize();
        this.limits = SqliteConnections.Limits.reader(options);
        this.settings = ConnectionSettings.of(options);
        this.identity = identity;
        this.faults = faults;
        this.clock = clock;
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
