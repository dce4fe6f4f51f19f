package dev.lanes.internal.sqlite;

import dev.lanes.CheckpointMode;
import dev.lanes.DatabaseOptions;
import dev.lanes.Synchronous;
import dev.lanes.internal.util.PathCopy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;
import org.sqlite.SQLiteOpenMode;

/**
 * Opens sqlite-jdbc connections the way the runtime needs them.
 *
 * <p>Every connection is left in the driver's "manual" mode ({@code autoCommit=false} in its
 * config, set without the driver issuing a {@code BEGIN}): the runtime issues {@code BEGIN},
 * {@code COMMIT} and {@code ROLLBACK} itself, and the driver then skips the {@code begin;
 * commit;} pair it would otherwise step after every statement (see SQLITE-JDBC.md, "Hidden
 * costs"). SQLite itself still autocommits any statement run outside a transaction.
 *
 * <h2>Nothing outside the database</h2>
 * Every connection the runtime opens (writer, readers, checkpointer, backup) goes through {@link
 * #open} and is {@linkplain #restrict restricted} before anyone uses it: extension loading is
 * off ({@code sqlite3_enable_load_extension(0)}, which disables the SQL function {@code
 * load_extension()} as well as the C call), and {@code SQLITE_LIMIT_ATTACHED} is 0, so {@code
 * ATTACH} fails inside SQLite whatever text hid it, and {@code trusted_schema} is off: a function
 * or virtual table that is not marked innocuous does not run from the schema (a view, trigger,
 * index, {@code CHECK}, default or generated column), whoever wrote it there. The writer's limits
 * are then raised to what {@link DatabaseOptions} allows. Once set up, each connection is sealed
 * by {@link SqliteGuard} (through {@link ConnectionSettings#apply}). SQLite's in-place {@code VACUUM} and {@code VACUUM INTO}
 * attach a database of their own, so the runtime runs them under {@link #withAttachSlot}.
 */
public final class SqliteConnections {
    /** SQLite's compiled-in ceiling of {@code SQLITE_LIMIT_ATTACHED} ({@code SQLITE_MAX_ATTACHED}). */
    public static final int MAX_ATTACHED = 125;
    /** SQLite's default (and compiled-in ceiling) of {@code SQLITE_LIMIT_LENGTH}. */
    public static final int MAX_LENGTH = 1_000_000_000;

    /**
     * The {@code sqlite3_limit} values applied to a connection.
     *
     * @param attached {@code SQLITE_LIMIT_ATTACHED}: how many databases {@code ATTACH} may add
     * @param length {@code SQLITE_LIMIT_LENGTH}: the largest string, blob or row, in bytes
     */
    public record Limits(int attached, int length) {
        /** Nothing attached, SQLite's default length: every connection starts so. */
        public static final Limits LOCKED_DOWN = new Limits(0, MAX_LENGTH);

        /** The writer's: what the options allow. */
        public static Limits writer(DatabaseOptions options) {
            return new Limits(options.maxAttachedDatabases(), options.maxValueBytes());
        }

        /** A reader's: never an attachment (a reader refuses ATTACH), the options' length. */
        public static Limits reader(DatabaseOptions options) {
            // every database with the default length shares one (each reader set keeps its own)
            return options.maxValueBytes() == MAX_LENGTH ? LOCKED_DOWN
                    : new Limits(0, options.maxValueBytes());
        }
    }

    /** The WAL autocheckpoint of {@link CheckpointMode#AUTO}: SQLite's default, set explicitly. */
    static final int AUTO_CHECKPOINT_PAGES = 1000;
    /**
     * The writer's autocheckpoint in {@link CheckpointMode#DEDICATED} mode: a backstop four times
     * the background checkpointer's 4 MiB threshold (in 4 KiB pages). While the checkpointer keeps
     * up, no commit reaches it; when it falls behind (it runs on the runtime's pool, which a
     * loaded machine may starve), the commit that takes the WAL past it runs SQLite's passive
     * checkpoint on the writer, where no write can add frames meanwhile, so the writer helps and
     * the WAL stays bounded however little CPU the checkpointer gets.
     */
    static final int DEDICATED_BACKSTOP_PAGES = 4096;

    /**
     * The writer connection's {@code wal_autocheckpoint} for a checkpoint mode: SQLite's own in
     * {@code AUTO}, the backstop in {@code DEDICATED}, none in {@code EXTERNAL}, where another tool
     * owns checkpoints and Lanes never runs one.
     */
    public static int writerAutocheckpointPages(CheckpointMode checkpointMode) {
        switch (checkpointMode) {
            case AUTO:
                return AUTO_CHECKPOINT_PAGES;
            case DEDICATED:
                return DEDICATED_BACKSTOP_PAGES;
            default:
                return 0;
        }
    }

    private SqliteConnections() {}

    /**
     * Opens the writer connection. {@code checkpointMode} sets its WAL autocheckpoint: SQLite's
     * bounded default of 1000 pages for {@link CheckpointMode#AUTO}, off for the two modes where
     * someone else owns checkpoints.
     */
    public static SQLiteConnection openWriter(Path path, Synchronous synchronous, Duration busyTimeout,
            CheckpointMode checkpointMode) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setOpenMode(SQLiteOpenMode.READWRITE);
        config.setOpenMode(SQLiteOpenMode.CREATE);
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.name()));
        config.setBusyTimeout(busyTimeoutMillis(busyTimeout));
        config.enforceForeignKeys(true);
        SQLiteConnection c = open(config, path, Limits.LOCKED_DOWN);
        try {
            walAutocheckpoint(c, writerAutocheckpointPages(checkpointMode));
        } catch (SQLException | RuntimeException e) {
            closeAfter(c, e);
            throw e;
        }
        c.getConnectionConfig().setAutoCommit(false);
        return c;
    }

    /**
     * Sets {@code PRAGMA wal_autocheckpoint} on a connection just opened: a statement, since the
     * driver's {@code SQLiteConfig} names this pragma only from 3.51 on.
     */
    public static void walAutocheckpoint(SQLiteConnection c, int pages) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("PRAGMA wal_autocheckpoint = " + pages);
        }
    }

    /**
     * Whether the file holds a database in WAL mode (header bytes 18 and 19 are 2), read with
     * plain file I/O. Readers open read-only, so they cannot create the file or set WAL mode: the
     * writer must have opened it first.
     */
    public static boolean isWalDatabase(Path path) {
        try (InputStream in = Files.newInputStream(PathCopy.of(path))) {
            byte[] header = in.readNBytes(20);
            return header.length == 20 && header[18] == 2 && header[19] == 2;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Why the name of {@code path} (absolute) would not open that very file through {@link
     * #open}, or null when it would. sqlite-jdbc reads whatever follows a {@code ?} in a database
     * name as connection settings and strips the settings it knows, so {@code a.db?cache_size=1}
     * opens {@code a.db}: another file, without its lease. The names {@code :memory:} and {@code
     * file:...} mean an in-memory database or a URI to SQLite and the driver, never a file beside
     * others.
     */
    public static String notLiteral(Path path) {
        if (path.toString().indexOf('?') >= 0) {
            return "sqlite-jdbc reads what follows '?' in a database name as connection "
                    + "settings, so the name would open another file; rename it without '?'";
        }
        Path file = path.getFileName();
        String name = file == null ? "" : file.toString();
        if (name.equals(":memory:") || name.startsWith("file:")) {
            return "'" + name + "' names an in-memory database or a URI to SQLite, not a file; "
                    + "Lanes opens database files (readers share the database through its file), "
                    + "so give the file another name";
        }
        return null;
    }

    /**
     * Opens a connection with {@code config} and {@linkplain #restrict restricts} it to {@code
     * limits}; the one way the runtime opens a connection.
     *
     * @throws SQLException also when the name of {@code path} would open another file ({@link
     *     #notLiteral})
     */
    public static SQLiteConnection open(SQLiteConfig config, Path path, Limits limits)
            throws SQLException {
        Path copy = PathCopy.of(path); // the database's kept path is asked nothing
        String notLiteral = notLiteral(copy);
        if (notLiteral != null) {
            throw new SQLException("cannot open " + copy + ": " + notLiteral);
        }
        SQLiteConnection c = (SQLiteConnection) config.createConnection("jdbc:sqlite:" + copy);
        try {
            restrict(c, limits);
            return c;
        } catch (SQLException | RuntimeException e) {
            closeAfter(c, e);
            throw e;
        }
    }

    /** Closes {@code c} after {@code failure}, which keeps a failed close as suppressed. */
    private static void closeAfter(SQLiteConnection c, Exception failure) {
        try {
            c.close();
        } catch (SQLException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    /**
     * Turns extension loading and {@code trusted_schema} off and applies {@code limits}; see the
     * class comment.
     */
    public static void restrict(SQLiteConnection c, Limits limits) throws SQLException {
        int rc = DriverInternals.enableLoadExtension(c, false);
        if (rc != 0) {
            throw new SQLException("cannot turn extension loading off (SQLite result " + rc + ")");
        }
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("PRAGMA trusted_schema = OFF");
        }
        DriverInternals.limit(c, SQLiteLimits.SQLITE_LIMIT_ATTACHED.getId(), limits.attached());
        DriverInternals.limit(c, SQLiteLimits.SQLITE_LIMIT_LENGTH.getId(), limits.length());
    }

    /**
     * Sets SQLite's process-wide soft heap limit ({@code PRAGMA soft_heap_limit}) on a private
     * in-memory connection of its own: every connection of a database refuses that pragma once
     * {@linkplain SqliteGuard sealed}.
     */
    public static void softHeapLimit(long bytes) throws SQLException {
        try (Connection c = new SQLiteConfig().createConnection("jdbc:sqlite::memory:");
                java.sql.Statement s = c.createStatement()) {
            s.execute("PRAGMA soft_heap_limit = " + bytes);
        }
    }

    /**
     * The connection's {@code SQLITE_LIMIT_ATTACHED} now, or -1 when {@code c} is no
     * sqlite-jdbc connection (nothing is known of it).
     */
    public static int attachLimit(Connection c) throws SQLException {
        if (!(c instanceof SQLiteConnection)) {
            return -1;
        }
        return DriverInternals.limit((SQLiteConnection) c,
                SQLiteLimits.SQLITE_LIMIT_ATTACHED.getId(), -1);
    }

    /** Work on a connection, throwing what its JDBC calls throw. */
    public interface SqlWork<T, E extends Exception> {
        T run() throws E;
    }

    /**
     * Runs {@code work} with one more attachment allowed than {@code c} allows now, and puts the
     * limit back afterwards: an in-place {@code VACUUM} or a {@code VACUUM INTO} attaches a
     * database of its own, which {@code SQLITE_LIMIT_ATTACHED} = 0 would refuse. Only for work
     * whose SQL the runtime knows holds no {@code ATTACH}; on the connection's own thread.
     */
    public static <T, E extends Exception> T withAttachSlot(Connection c, SqlWork<T, E> work)
            throws E, SQLException {
        if (!(c instanceof SQLiteConnection)) {
            return work.run();
        }
        SQLiteConnection db = (SQLiteConnection) c;
        int id = SQLiteLimits.SQLITE_LIMIT_ATTACHED.getId();
        int limit = DriverInternals.limit(db, id, -1);
        DriverInternals.limit(db, id, Math.min(MAX_ATTACHED, limit + 1));
        try {
            return work.run();
        } finally {
            DriverInternals.limit(db, id, limit);
        }
    }

    public static int busyTimeoutMillis(Duration timeout) {
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    /** SQLite's primary result code of a driver exception (the low byte of its error code). */
    public static int primaryCode(SQLException e) {
        return e.getErrorCode() & 0xFF;
    }

    /**
     * Whether {@code e} is an I/O-class failure of SQLite: {@code SQLITE_IOERR} (a failed read,
     * write or sync), {@code SQLITE_FULL}, {@code SQLITE_CORRUPT}, {@code SQLITE_NOTADB}, {@code
     * SQLITE_CANTOPEN} or {@code SQLITE_NOMEM}. After one, what reached the file is not known.
     */
    public static boolean isIoFailure(SQLException e) {
        switch (primaryCode(e)) {
            case 7: // SQLITE_NOMEM
            case 10: // SQLITE_IOERR, and its extended codes (IOERR_FSYNC, IOERR_WRITE, ...)
            case 11: // SQLITE_CORRUPT
            case 13: // SQLITE_FULL
            case 14: // SQLITE_CANTOPEN
            case 26: // SQLITE_NOTADB
                return true;
            default:
                return false;
        }
    }

    /** Whether {@code t} or one of its causes is an {@linkplain #isIoFailure I/O-class} failure. */
    public static boolean causedByIoFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException && isIoFailure((SQLException) c)) {
                return true;
            }
        }
        return false;
    }

    public static boolean isBusy(SQLException e) {
        int code = primaryCode(e);
        return code == 5 /* SQLITE_BUSY */ || code == 6 /* SQLITE_LOCKED */;
    }
}
