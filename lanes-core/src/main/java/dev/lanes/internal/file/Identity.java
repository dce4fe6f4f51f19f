package dev.lanes.internal.file;

import dev.lanes.IdentityMismatchException;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.PathCopy;
import dev.lanes.internal.util.VarHandles;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The physical identity of one database file, so that a file swapped underneath the runtime
 * (restored from a backup, replaced by a deploy, moved by hand) is noticed before Lanes writes to
 * or reads from the wrong one.
 *
 * <p>Two marks are pinned at the first open: the UUID in the singleton table {@value #TABLE},
 * which the first writable open installs, and the file's key ({@link
 * BasicFileAttributes#fileKey()}: device and inode on Unix). Every connection opened afterwards,
 * the writer's, each reader's, the checkpointer's and a backup's, is checked against both. A
 * connection already open keeps its file descriptor, so it cannot notice a swap; the next one to
 * open does. On a mismatch the check throws {@link IdentityMismatchException}, remembers it
 * ({@link #failure()}), and tells the database, which goes dead.
 *
 * <p>Installation is skipped, with a warning, when free space is at or below the disk reserve
 * (opening must still work below the floor so a user can delete data) or when another connection
 * holds the write lock; the file key still guards new connections, and a later writable open
 * installs and pins the UUID. A UUID another process installed meanwhile is accepted and pinned.
 * Readers never install.
 *
 * <h2>Concurrency</h2>
 * Called from whichever threads open connections: the writer lane's holder, reader threads, the
 * checkpointer. {@link #pinnedUuid}, {@link #pinnedKey} and {@link #failure} are volatile and
 * each is set at most once, from its first value, by compare-and-set (no lock: {@link #failure}
 * is read by every request, and a lock per database costs more heap than three handles cost
 * once); whoever loses a race compares against what the winner pinned. {@link #pinnedKey} holds
 * {@link #UNPINNED} until the first key is pinned, and {@link #NO_KEY} for a platform without
 * file keys. SQL runs on the caller's own connection; the installation only on the writer's
 * turn, which pins afterwards, once it committed. A check notes whether a UUID was pinned before
 * it reads, so a reader that read the file just before the install committed is not taken for a
 * swapped file. The mismatch callback runs once, for the first failure recorded.
 */
public final class Identity {
    private static final Logger log = LoggerFactory.getLogger(LogNames.FILES);

    /** The table holding the database's identity: one row, {@code id = 1}. */
    static final String TABLE = "_lanes_identity";

    private final Path path;
    private final String name;
    private final boolean enabled;
    private final long diskReserveBytes;
    private final Lease lease;
    private final Consumer<IdentityMismatchException> onMismatch;

    /** {@link #pinnedKey} before the first key is pinned. */
    private static final Object UNPINNED = new Object();
    /** {@link #pinnedKey} pinned on a platform that has no file keys. */
    private static final Object NO_KEY = new Object();
    private static final VarHandle PINNED_UUID =
            VarHandles.field(MethodHandles.lookup(), "pinnedUuid", Object.class);
    private static final VarHandle PINNED_KEY =
            VarHandles.field(MethodHandles.lookup(), "pinnedKey", Object.class);
    private static final VarHandle FAILURE =
            VarHandles.field(MethodHandles.lookup(), "failure", IdentityMismatchException.class);

    // each set at most once, by compare-and-set from its first value
    /** The pinned UUID as {@link #compact} makes it: a {@link UUID}, or else its text. */
    private volatile Object pinnedUuid;
    private volatile Object pinnedKey = UNPINNED;
    private volatile IdentityMismatchException failure;
    /**
     * A hint: the last check found no identity, so the next one asks the schema first (a missing
     * table costs an {@code SQLException} built through JNI, on every reader of a database Lanes
     * has not written). Written by any check without ordering; either way of reading gives the
     * same answer, so a stale hint costs only a query or an exception.
     */
    private volatile boolean noneFound;

    /**
     * @param path the canonical database path
     * @param name the database's name, for messages
     * @param enabled whether identity is checked at all ({@code identityCheck})
     * @param diskReserveBytes at or below this much free space, the table is not installed
     * @param lease the database's lease, confirmed when the writer opens
     * @param onMismatch told once, on the first mismatch, so the database can go dead
     */
    public Identity(Path path, String name, boolean enabled, long diskReserveBytes, Lease lease,
            Consumer<IdentityMismatchException> onMismatch) {
        this.path = path;
        this.name = name;
        this.enabled = enabled;
        this.diskReserveBytes = diskReserveBytes;
        this.lease = Objects.requireNonNull(lease, "lease");
        this.onMismatch = onMismatch == null ? e -> {} : onMismatch;
    }

    /**
     * The writer connection just opened: confirms the lease (its first chance to be taken when the
     * lock file could not be created at open), then installs or checks the identity.
     *
     * @throws IdentityMismatchException when the file is not the one pinned earlier
     * @throws SQLException when the identity cannot be read or installed
     */
    public void onWriterOpened(Connection c) throws SQLException {
        lease.confirm();
        if (!enabled) {
            return;
        }
        check(c, true);
    }

    /**
     * A reader connection (or any other connection opened besides the writer: checkpointer,
     * backup) just opened: checks it against the pinned identity, installing nothing.
     *
     * @throws IdentityMismatchException when the file is not the one pinned earlier
     * @throws SQLException when the identity cannot be read
     */
    public void onReaderOpened(Connection c) throws SQLException {
        if (!enabled) {
            return;
        }
        check(c, false);
    }

    /** The mismatch found, once one was; null while the file is the pinned one. */
    public IdentityMismatchException failure() {
        return failure;
    }

    /** The pinned UUID, or null when none is pinned (yet, or ever when the check is off). */
    String uuid() {
        Object pinned = pinnedUuid;
        return pinned == null ? null : pinned.toString();
    }

    /**
     * The stored UUID as pinned: a {@link UUID} when the text is one in its canonical form (what
     * {@link #install} stores; 32 bytes held instead of 80 for the text), else the text itself,
     * so that two stored values are equal exactly when their compact forms are.
     */
    private static Object compact(String stored) {
        if (stored == null) {
            return null;
        }
        try {
            UUID uuid = UUID.fromString(stored);
            return uuid.toString().equals(stored) ? uuid : stored;
        } catch (IllegalArgumentException e) {
            return stored;
        }
    }

    private void check(Connection c, boolean writable) throws SQLException {
        IdentityMismatchException earlier = failure();
        if (earlier != null) {
            throw new IdentityMismatchException(earlier.getMessage(), earlier);
        }
        // The file key first, before any SQL: a connection to a swapped file may share the old
        // file's -wal and -shm (they go by path) and read nonsense.
        IdentityMismatchException mismatch = pinFileKey(fileKey());
        if (mismatch == null) {
            boolean pinnedBeforeRead = uuid() != null;
            String stored = noneFound && !pinnedBeforeRead ? readUuidIfInstalled(c) : readUuid(c);
            noneFound = stored == null;
            if (stored == null && writable) {
                stored = install(c);
            }
            mismatch = pinUuid(stored, pinnedBeforeRead);
        }
        if (mismatch != null) {
            throw recordFailure(mismatch);
        }
    }

    /**
     * Pins the file key on first sight (the lease's own key object when they are equal, so that
     * an idle database keeps one); else the mismatch if the file is another one.
     */
    private IdentityMismatchException pinFileKey(Object key) {
        if (pinnedKey == UNPINNED && key != null) {
            Object leased = lease.fileKey();
            key = key.equals(leased) ? leased : key;
        }
        if (PINNED_KEY.compareAndSet(this, UNPINNED, key == null ? NO_KEY : key)) {
            return null;
        }
        Object pinned = pinnedKey;
        if (key != null && pinned != NO_KEY && !key.equals(pinned)) {
            return mismatch("the file at " + path + " is another file (file key " + key
                    + ", pinned " + pinned + ")");
        }
        return null;
    }

    /**
     * Pins the stored UUID on first sight; else the mismatch if it is another one. A connection
     * that found no identity is no mismatch when none was pinned as it began to read: the writer
     * may have installed and pinned one since, after this connection's read had begun. Once one
     * was pinned before the read began, its install had committed, so the read had to see it.
     */
    private IdentityMismatchException pinUuid(String stored, boolean pinnedBeforeRead) {
        // first sight, or installed meanwhile by another process; none stored pins nothing
        Object seen = compact(stored);
        if (PINNED_UUID.compareAndSet(this, null, seen)) {
            return null;
        }
        if (stored == null && !pinnedBeforeRead) {
            return null; // read before the install committed: the same file, seen earlier
        }
        Object pinned = pinnedUuid;
        if (!pinned.equals(seen)) {
            return mismatch("its " + TABLE + " holds " + (stored == null ? "no identity"
                    : "identity " + stored) + ", pinned " + pinned);
        }
        return null;
    }

    /**
     * Records the first mismatch and, for that one only, logs it and lets the database go dead;
     * returns the exception to throw, carrying the first mismatch recorded.
     */
    private IdentityMismatchException recordFailure(IdentityMismatchException mismatch) {
        FAILURE.compareAndSet(this, null, mismatch);
        IdentityMismatchException first = failure;
        if (first == mismatch) {
            log.error("{}", mismatch.getMessage());
            try {
                onMismatch.accept(mismatch);
            } catch (RuntimeException e) {
                log.warn("{}: reacting to the identity mismatch failed", name, e);
            }
        }
        return new IdentityMismatchException(first.getMessage(), first);
    }

    private IdentityMismatchException mismatch(String what) {
        return new IdentityMismatchException(name + ": the database file was replaced underneath "
                + "the runtime: " + what + ". The database is dead; find out what replaced the "
                + "file, then reopen it (identityCheck(false) turns this check off)");
    }

    /** The file's key now (device and inode on Unix), or null where the platform has none. */
    private Object fileKey() {
        try {
            return Files.readAttributes(PathCopy.of(path), BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            // The file is gone from its path: whatever the connection opened is not it.
            return "(no file at the path: " + e + ")";
        }
    }

    /**
     * The identity stored in the database, or null when it has none. One query: a database
     * without the table answers with SQLite's "no such table" error instead of a second query
     * against the schema first; once a check found none, the next asks the schema first ({@link
     * #readUuidIfInstalled}), for a database Lanes only reads may never get the table.
     */
    static String readUuid(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT uuid FROM " + TABLE + " WHERE id = 1")) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            if (String.valueOf(e.getMessage()).contains("no such table: " + TABLE)) {
                return null;
            }
            throw e;
        }
    }

    /** {@link #readUuid}, asking the schema first whether the table is there: no exception. */
    private static String readUuidIfInstalled(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT 1 FROM sqlite_master WHERE type = 'table'"
                        + " AND name = '" + TABLE + "'")) {
            if (!rs.next()) {
                return null;
            }
        }
        return readUuid(c);
    }

    /**
     * Installs a fresh identity in one immediate transaction, unless space is at or below the
     * reserve or the write lock is taken; returns what the table holds afterwards (null when
     * skipped).
     */
    private String install(Connection c) throws SQLException {
        if (diskReserveBytes > 0) {
            long free = usableSpace();
            if (free >= 0 && free <= diskReserveBytes) {
                log.warn("{}: free space ({} bytes) is at or below the disk reserve ({} bytes); "
                        + "the identity table is not installed now, only the file key guards the "
                        + "database until a later open installs it", name, free, diskReserveBytes);
                return null;
            }
        }
        try (Statement s = c.createStatement()) {
            try {
                s.execute("BEGIN IMMEDIATE");
            } catch (SQLException e) {
                if (SqliteConnections.isBusy(e)) {
                    log.warn("{}: another connection holds the write lock; the identity table is "
                            + "not installed now, a later open installs it", name);
                    return null;
                }
                throw e;
            }
            try {
                s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + "(id INTEGER PRIMARY KEY "
                        + "CHECK (id = 1), uuid TEXT NOT NULL)");
                String uuid;
                try (ResultSet rs = s.executeQuery("SELECT uuid FROM " + TABLE + " WHERE id = 1")) {
                    uuid = rs.next() ? rs.getString(1) : null;
                }
                if (uuid == null) {
                    uuid = UUID.randomUUID().toString();
                    s.execute("INSERT INTO " + TABLE + "(id, uuid) VALUES (1, '" + uuid + "')");
                }
                s.execute("COMMIT");
                return uuid;
            } catch (SQLException | RuntimeException e) {
                try {
                    s.execute("ROLLBACK");
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
    }

    private long usableSpace() {
        try {
            return Files.getFileStore(PathCopy.of(path)).getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }
}
