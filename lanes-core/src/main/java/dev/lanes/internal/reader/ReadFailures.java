package dev.lanes.internal.reader;

import dev.lanes.BusyException;
import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sqlite.SqliteConnections;
import java.sql.SQLException;
import java.time.Duration;

/**
 * What a refused, failed or stopped read ends with, in one place: a read refused because the
 * database closes, a cancelled or expired read's refusal of its next statement, a read a close
 * stopped, and the typed failure a read's error becomes (a reader blocked for the whole busy
 * timeout, a write the {@code query_only} backstop caught, anything else). Stateless.
 */
final class ReadFailures {
    private ReadFailures() {}

    /**
     * Fails a read of {@code database} on {@code c} that must stop before its next statement;
     * {@code readers} says why a close stopped it.
     */
    static void checkStop(String database, ReaderConnection c, ReadLimits limits,
            ReaderSet readers) {
        int stop = c.currentStopReason();
        if (stop == ReaderConnection.CANCELLED) {
            throw new CancelledException(WriteOutcome.ROLLED_BACK, database + ": the read was "
                    + "cancelled; no further statement runs", null);
        }
        if (stop == ReaderConnection.DEADLINE) {
            throw new DeadlineExceededException(WriteOutcome.ROLLED_BACK, database + ": the read "
                    + "is past its " + limits.timeoutMillis() + " ms deadline; no further "
                    + "statement runs", null);
        }
        if (stop == ReaderConnection.CLOSED) {
            throw closed(database, readers.closedBecause(), null);
        }
    }

    /**
     * A read of {@code database} that a close did not wait for ({@code why}) and stopped, inside
     * SQLite or before its next statement; {@code cause} is SQLite's report of the stop, if any.
     */
    static ReadFailedException closed(String database, String why, Throwable cause) {
        return new ReadFailedException(WriteOutcome.ROLLED_BACK, database + ": the database "
                + "closed while the read ran (" + why + "); it was stopped and wrote nothing",
                cause);
    }

    /** A read refused at admission because {@code database} is closing, or closed. */
    static LanesException refused(String database, boolean closing) {
        if (closing) {
            return new ClosingException(database + ": the database is closing and accepts no "
                    + "more reads; the read never ran");
        }
        return new ClosedException(database + ": the database is closed; the read never ran");
    }

    /**
     * The typed failure {@code t} of a read of {@code database} becomes; a busy reader is counted
     * in {@code readers}.
     */
    static LanesException of(String database, Duration busyTimeout, ReaderSet readers,
            Throwable t) {
        if (t instanceof LanesException) {
            return (LanesException) t;
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException) {
                int code = SqliteConnections.primaryCode((SQLException) c);
                if (code == 5 || code == 6) { // SQLITE_BUSY, SQLITE_LOCKED
                    readers.stats.busyTimedOut();
                    return new BusyException(database + ": a reader stayed blocked for the whole "
                            + "busyTimeout (" + busyTimeout.toMillis() + " ms): " + c.getMessage()
                            + "; the read wrote nothing", t);
                }
                if (code == 8) { // SQLITE_READONLY: the query_only backstop caught a write
                    return new ReadOnlyViolationException(database + ": SQLite refused a write "
                            + "on a reader (" + c.getMessage() + "); reads run on read-only "
                            + "connections, so write with db.write or db.execute", t);
                }
                break;
            }
        }
        return new ReadFailedException(WriteOutcome.ROLLED_BACK, database + ": the read failed: "
                + t, t);
    }
}
