package dev.lanes.internal.sqlite;

import dev.lanes.CheckpointMode;
import dev.lanes.Synchronous;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteOpenMode;

/**
 * Opens sqlite-jdbc connections the way the runtime needs them.
 *
 * <p>Every connection is left in the driver's "manual" mode ({@code autoCommit=false} in its
 * config, set without the driver issuing a {@code BEGIN}): the runtime issues {@code BEGIN},
 * {@code COMMIT} and {@code ROLLBACK} itself, and the driver then skips the {@code begin;
 * commit;} pair it would otherwise step after every statement (see SQLITE-JDBC.md, "Hidden
 * costs"). SQLite itself still autocommits any statement run outside a transaction.
 */
public final class SqliteConnections {
    /** The WAL autocheckpoint of {@link CheckpointMode#AUTO}: SQLite's default, set explicitly. */
    static final int AUTO_CHECKPOINT_PAGES = 1000;

    private SqliteConnections() {}

    /**
     * Opens the writer connection. {@code checkpointMode} sets its WAL autocheckpoint: SQLite's
     * bounded default of 1000 pages for {@link CheckpointMode#AUTO}, off for the two modes where
     * someone else owns checkpoints.
     */
    public static SQLiteConnection openWriter(Path path, Synchronous synchronous, Duration busyTimeout,
            CheckpointMode checkpointMode) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setPragma(SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT,
                checkpointMode == CheckpointMode.AUTO ? String.valueOf(AUTO_CHECKPOINT_PAGES) : "0");
        config.setOpenMode(SQLiteOpenMode.READWRITE);
        config.setOpenMode(SQLiteOpenMode.CREATE);
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.name()));
        config.setBusyTimeout(busyTimeoutMillis(busyTimeout));
        config.enforceForeignKeys(true);
        SQLiteConnection c = (SQLiteConnection) config.createConnection("jdbc:sqlite:" + path);
        c.getConnectionConfig().setAutoCommit(false);
        return c;
    }

    /**
     * Whether the file holds a database in WAL mode (header bytes 18 and 19 are 2), read with
     * plain file I/O. Readers open read-only, so they cannot create the file or set WAL mode: the
     * writer must have opened it first.
     */
    public static boolean isWalDatabase(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            byte[] header = in.readNBytes(20);
            return header.length == 20 && header[18] == 2 && header[19] == 2;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return false;
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
