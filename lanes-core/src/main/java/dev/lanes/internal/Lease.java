package dev.lanes.internal;

import dev.lanes.DatabaseLockedException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ownership of one database file by one runtime: an exclusive OS file lock ({@code fcntl} on
 * Unix, through {@link FileChannel#tryLock()}) on a lock file beside the database, {@code
 * <name>.lanes-lock}. It is taken before SQLite opens the database and released only after every
 * connection to it closed. The OS drops the lock when the process dies, even by {@code kill -9},
 * so a crash leaves no stale lease; the lock file itself stays (deleting it would let two
 * processes lock two different files of the same name).
 *
 * <h2>Concurrency</h2>
 * POSIX record locks belong to the process, not to a channel, and closing <em>any</em>
 * descriptor of a file drops all of the process's locks on it. A second channel on a lock file
 * this JVM already holds must therefore never be opened: {@link #HELD}, guarded by {@link
 * #REGISTRY}, records every lease of the JVM by lock-file path, and an acquisition consults it
 * first. Only after an entry is made is the file opened and locked; the entry is removed only
 * after the channel closed. A second runtime of the same JVM is refused from the registry; a
 * database of the same runtime that is still closing is reported through {@link
 * #pendingRelease} so the runtime can wait for it instead.
 *
 * <p>Per lease, {@link #lock} guards {@link #channel}, {@link #fileLock}, {@link #released} and
 * {@link #deferred}. {@link #REGISTRY} and a lease's {@link #lock} are never held together.
 *
 * <p>When the lock file cannot be created for a reason other than another owner (most often: the
 * database's directory does not exist, so SQLite could not open it either), the lease is
 * <em>deferred</em>: the database is registered and fails when first used, as any database that
 * cannot be opened does. The writer confirms the lease ({@link #confirm()}) as soon as its
 * connection exists; a deferred lease retries then and, failing, makes the database dead.
 */
final class Lease {
    private static final Logger log = LoggerFactory.getLogger(Lease.class);

    /** The suffix of the lock file beside a database. */
    static final String SUFFIX = ".lanes-lock";

    private static final ReentrantLock REGISTRY = new ReentrantLock();
    // guarded by REGISTRY: every lease of this JVM that is not yet released, by lock-file path
    private static final Map<Path, Lease> HELD = new HashMap<>();

    /** The lease of a database that needs none (in-memory). */
    static final Lease NONE = new Lease(null, null, null, null);

    private final Path lockFile;
    private final String name;
    private final Object owner;
    private final String ownerName;
    private final CompletableFuture<Void> releasedFuture = new CompletableFuture<>();

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private FileChannel channel;
    private FileLock fileLock;
    private boolean released;
    private IOException deferred;

    private Lease(Path lockFile, String name, Object owner, String ownerName) {
        this.lockFile = lockFile;
        this.name = name;
        this.owner = owner;
        this.ownerName = ownerName;
        if (lockFile == null) {
            releasedFuture.complete(null);
        }
    }

    /** The lock file beside {@code database}. */
    static Path lockFileOf(Path database) {
        return database.resolveSibling(database.getFileName() + SUFFIX);
    }

    /** Whether {@code database} names an in-memory database, which takes no lease. */
    static boolean inMemory(Path database) {
        String file = database.getFileName() == null ? "" : database.getFileName().toString();
        return file.equals(":memory:") || file.startsWith("file::memory:");
    }

    /**
     * Takes the lease of {@code database} for {@code owner}, without waiting.
     *
     * @param database the canonical path of the database file
     * @param name the database's name, for messages
     * @param owner the runtime taking it
     * @param ownerName the runtime's name, for messages
     * @throws DatabaseLockedException when another process, or another runtime of this JVM, holds
     *     it, or a database of {@code owner} that has not finished closing (see {@link
     *     #pendingRelease})
     */
    static Lease acquire(Path database, String name, Object owner, String ownerName) {
        if (inMemory(database)) {
            return NONE;
        }
        Path lockFile = lockFileOf(database);
        Lease lease;
        REGISTRY.lock();
        try {
            Lease holder = HELD.get(lockFile);
            if (holder != null) {
                throw new DatabaseLockedException(name + ": the database is already open in this "
                        + "JVM, by the Lanes runtime '" + holder.ownerName + "'"
                        + (holder.owner == owner ? " (a database of this runtime that is still "
                                + "closing)" : "") + "; lock file " + lockFile + ". Open it once, "
                        + "through one runtime, and share the Database");
            }
            lease = new Lease(lockFile, name, owner, ownerName);
            HELD.put(lockFile, lease);
        } finally {
            REGISTRY.unlock();
        }
        boolean ok = false;
        try {
            lease.lock.lock();
            try {
                lease.lockLocked();
            } finally {
                lease.lock.unlock();
            }
            ok = true;
            return lease;
        } finally {
            if (!ok) {
                lease.release();
            }
        }
    }

    /**
     * When a database of {@code owner} at {@code database} has closed but not yet released its
     * lease (its connections are still closing), completes once it did; null otherwise.
     */
    static CompletableFuture<Void> pendingRelease(Path database, Object owner) {
        REGISTRY.lock();
        try {
            Lease holder = HELD.get(lockFileOf(database));
            return holder != null && holder.owner == owner ? holder.releasedFuture : null;
        } finally {
            REGISTRY.unlock();
        }
    }

    // guarded by lock: opens and locks the file, or records why it could not (deferred)
    private void lockLocked() {
        FileChannel ch;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            deferred = e;
            log.debug("{}: cannot create the lock file {} yet ({}); the lease is taken when the "
                    + "database opens", name, lockFile, e.toString());
            return;
        }
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            // Only reachable if something else in this JVM locked the file outside Lanes. The
            // channel is left open on purpose: closing it would drop that owner's POSIX lock.
            throw new DatabaseLockedException(name + ": the lock file " + lockFile + " is "
                    + "already locked by this JVM outside Lanes; the database is owned elsewhere",
                    e);
        } catch (IOException e) {
            closeQuietly(ch);
            deferred = e;
            return;
        }
        if (l == null) {
            closeQuietly(ch);
            throw new DatabaseLockedException(name + ": the database is open in another process "
                    + "(lock file " + lockFile + " is locked); close it there first, or open "
                    + "another file");
        }
        channel = ch;
        fileLock = l;
        deferred = null;
    }

    /**
     * Makes sure the OS lock is held: a deferred lease tries once more. Called on the writer's
     * turn right after its connection opened.
     *
     * @throws DatabaseLockedException when another process took the file meanwhile
     * @throws java.io.UncheckedIOException when the lock file still cannot be created
     */
    void confirm() {
        if (lockFile == null) {
            return;
        }
        lock.lock();
        try {
            if (released) {
                throw new IllegalStateException(name + ": the lease was released");
            }
            if (fileLock != null) {
                return;
            }
            lockLocked();
            if (fileLock == null) {
                throw new java.io.UncheckedIOException(name + ": cannot create the lock file "
                        + lockFile + " that guards the database against a second owner", deferred);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Completes once the lease is released. */
    CompletableFuture<Void> released() {
        return releasedFuture;
    }

    /**
     * Releases the OS lock and forgets the lease. Call only once every connection to the
     * database closed. Idempotent; never throws.
     */
    void release() {
        if (lockFile == null) {
            return;
        }
        lock.lock();
        try {
            if (released) {
                return;
            }
            released = true;
            if (fileLock != null) {
                try {
                    fileLock.release();
                } catch (IOException | RuntimeException e) {
                    log.warn("{}: releasing the lock on {} failed; closing its channel drops it",
                            name, lockFile, e);
                }
            }
            if (channel != null) {
                closeQuietly(channel);
            }
            fileLock = null;
            channel = null;
        } finally {
            lock.unlock();
        }
        REGISTRY.lock();
        try {
            HELD.remove(lockFile, this);
        } finally {
            REGISTRY.unlock();
        }
        releasedFuture.complete(null);
    }

    private void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            log.warn("{}: closing the lock file {} failed", name, lockFile, e);
        }
    }

    @Override
    public String toString() {
        return "Lease[" + lockFile + "]";
    }
}
