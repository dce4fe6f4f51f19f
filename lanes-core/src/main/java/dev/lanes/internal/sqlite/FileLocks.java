package dev.lanes.internal.sqlite;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * The lock a lease takes on the database file itself: an open-file-description lock ({@code
 * F_OFD_SETLK}) on one byte far past any SQLite locks, through the native guard's {@code
 * lanes_lock_file} (see {@code lanesguard.c}). It belongs to its descriptor, not to the process,
 * so SQLite closing its own descriptors of the file never drops it, and it meets every other
 * name of the same file: a hard link opened by another process is refused, as the lease's lock
 * file cannot (it goes by the file's name). Where the guard is not available (not Linux x86-64
 * or aarch64, or not built), or the file system cannot take such a lock, nothing is locked and
 * {@link #UNSUPPORTED} says so.
 *
 * <p>The functions live on a private in-memory connection of this class that runs no SQL of a
 * user's, opened on first use and never closed. Thread-safe: one call at a time on it, under
 * {@link #LOCK}; each call is one non-blocking {@code open} and {@code fcntl}, or one {@code
 * close}.
 */
public final class FileLocks {
    /** Another open of the file holds its lock: another process, or another name of it. */
    public static final int HELD_ELSEWHERE = -1;
    /** Nothing was locked: no native guard here, or a file system without such locks. */
    public static final int UNSUPPORTED = -2;

    private static final String ENTRY_POINT = "sqlite3_lanesfiles_init";
    private static final ReentrantLock LOCK = new ReentrantLock();
    // guarded by LOCK: null until first use, or when the functions cannot load
    private static SQLiteConnection connection;
    private static boolean unavailable;

    private FileLocks() {}

    /**
     * Locks {@code file}: the descriptor that holds the lock (release it with {@link #unlock}),
     * {@link #HELD_ELSEWHERE}, or {@link #UNSUPPORTED}. Never throws.
     */
    public static int lock(Path file) {
        LOCK.lock();
        try {
            SQLiteConnection c = connection();
            if (c == null) {
                return UNSUPPORTED;
            }
            try (PreparedStatement s = c.prepareStatement("SELECT lanes_lock_file(?)")) {
                s.setString(1, file.toString());
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? rs.getInt(1) : UNSUPPORTED;
                }
            } catch (SQLException e) {
                return UNSUPPORTED;
            }
        } finally {
            LOCK.unlock();
        }
    }

    /** Releases the lock {@link #lock} took, closing its descriptor. Never throws. */
    public static void unlock(int descriptor) {
        if (descriptor < 0) {
            return;
        }
        LOCK.lock();
        try {
            SQLiteConnection c = connection();
            if (c == null) {
                return;
            }
            try (PreparedStatement s = c.prepareStatement("SELECT lanes_unlock_file(?)")) {
                s.setInt(1, descriptor);
                s.executeQuery().close();
            } catch (SQLException e) {
                // the descriptor stays open until the process ends; the lock with it
            }
        } finally {
            LOCK.unlock();
        }
    }

    // guarded by LOCK
    private static SQLiteConnection connection() {
        if (connection != null || unavailable) {
            return connection;
        }
        Path library = SqliteGuard.library();
        if (library == null) {
            unavailable = true;
            return null;
        }
        SQLiteConnection c = null;
        try {
            c = (SQLiteConnection) new SQLiteConfig().createConnection("jdbc:sqlite::memory:");
            ConnectionSettings.loadExtension(c, library, ENTRY_POINT, "Lanes' file locks");
            connection = c;
        } catch (SQLException | RuntimeException e) {
            unavailable = true;
            closeQuietly(c);
        }
        return connection;
    }

    private static void closeQuietly(SQLiteConnection c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (SQLException ignored) {
            // nothing was loaded into it that needs undoing
        }
    }
}
