package dev.lanes.internal.file;

import dev.lanes.DatabaseLockedException;
import dev.lanes.internal.sqlite.FileLocks;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.PathCopy;
import dev.lanes.internal.util.VarHandles;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ownership of one database file by one runtime: an exclusive OS record lock ({@code fcntl}
 * on Unix, through {@link FileChannel#tryLock(long, long, boolean)}) on one byte of a lock file
 * the databases of its directory share (its {@link LeaseSlot}). It is taken before SQLite opens
 * the database and released only after every connection to it closed. The OS drops the lock when
 * the process dies, even by {@code kill -9}, so a crash leaves no stale lease; the lock files
 * stay (deleting one would let two processes lock two different files of the same name).
 *
 * <h2>Concurrency</h2>
 * POSIX record locks belong to the process, not to a channel, and closing <em>any</em>
 * descriptor of a file drops all of the process's locks on it. So this JVM opens each lock file
 * at most once: {@link #FILES} holds one {@link LockFile} per lock file in use, whose channel is
 * shared by every lease in it and closed only once no lease uses it. {@link #HELD} records every
 * lease of the JVM by slot, and an acquisition consults it first: a second runtime of the same JVM
 * is refused from it, and a database of the same runtime that is still closing is reported
 * through {@link #pendingRelease} so the runtime can wait for it instead.
 *
 * <p>The slot goes by the file's name; inside this JVM a lease also goes by the file itself, its
 * key ({@link BasicFileAttributes#fileKey()}: device and inode on Unix), so that another name of
 * an open database (a hard link, a bind mount) meets the lease it already has: another runtime is
 * refused, and the runtime that holds it finds the database it opened ({@link #heldPath}). A
 * lease learns its key when it is taken or, for a file SQLite has yet to create (none can link
 * to it before), once the writer created it ({@link #confirm}).
 *
 * <p>{@link #REGISTRY} guards {@link #HELD}, {@link #FILES} and every {@link LockFile#users}
 * count; a lock file's {@link LockFile#lock} guards its channel and the OS locks taken through it,
 * and also the state of every lease in that file: {@link #fileLock}, {@link #released} and {@link
 * #deferred} (one lock per lock file, not one per lease: a lease's changes are OS lock calls on
 * that file, which its lock serializes anyway). It is reentrant, and the order is lock file, then
 * {@link #REGISTRY}, then the same lock file again (a release closes its file under {@link
 * #REGISTRY} when it was the last user); no thread takes a lock file's lock while it holds {@link
 * #REGISTRY} without already holding that lock, so the two never wait for each other. {@link #releasedFuture} takes no lock:
 * it goes once from null to a future by compare-and-set, made by whoever asks first or by the
 * release (see {@link #released}). A {@link LockFile} leaves {@link #FILES}
 * only with its channel closed, under {@link #REGISTRY}: a later lease of the same file makes a new
 * one and opens the file anew only after the old descriptor is gone, so that closing it cannot
 * drop the new lease's lock.
 *
 * <p>When the lock file cannot be created for a reason other than another owner (most often: the
 * database's directory does not exist, so SQLite could not open it either), the lease is
 * <em>deferred</em>: the database is registered and fails when first used, as any database that
 * cannot be opened does. The writer confirms the lease ({@link #confirm()}) as soon as its
 * connection exists; a deferred lease retries then and, failing, makes the database dead.
 */
public final class Lease {
    private static final Logger log = LoggerFactory.getLogger(LogNames.FILES);

    private static final ReentrantLock REGISTRY = new ReentrantLock();
    // guarded by REGISTRY: every lease of this JVM that is not yet released, by slot
    /** {@link #fileItself} before the database file was locked. */
    private static final int NOT_TAKEN = -3;
    private static final Map<LeaseSlot, Lease> HELD = new HashMap<>();
    // guarded by REGISTRY: the lock files some lease of this JVM uses
    private static final Map<Path, LockFile> FILES = new HashMap<>();
    // guarded by REGISTRY: the leases of HELD whose file's key is known, by that key
    private static final Map<Object, Lease> BY_FILE = new HashMap<>();

    // before NONE, which completes its future as it is made
    private static final VarHandle RELEASED_FUTURE =
            VarHandles.field(MethodHandles.lookup(), "releasedFuture", CompletableFuture.class);

    /** The lease of a database that needs none (in-memory). */
    static final Lease NONE = new Lease(null, null, null, null, null, null);

    private final LeaseSlot slot;
    /** The canonical path of the database. */
    private final Path database;
    private final LockFile file;
    private final String name;
    private final Object owner;
    private final String ownerName;
    /** Made when first asked for or at the release, whichever is first; see {@link #released}. */
    private volatile CompletableFuture<Void> releasedFuture;

    // guarded by file.lock, the lock of this lease's lock file (see the class comment)
    private FileLock fileLock;
    private boolean released;
    private IOException deferred;
    /** The lock on the database file itself ({@link FileLocks}): a descriptor, or not taken. */
    private int fileItself = NOT_TAKEN;
    // guarded by REGISTRY: the file's key once known (see the class comment)
    private Object fileKey;

    private Lease(LeaseSlot slot, Path database, LockFile file, String name, Object owner,
            String ownerName) {
        this.slot = slot;
        this.database = database;
        this.file = file;
        this.name = name;
        this.owner = owner;
        this.ownerName = ownerName;
        if (slot == null) {
            VarHandles.complete(RELEASED_FUTURE, this);
        }
    }

    /** Whether {@code database} names an in-memory database, which takes no lease. */
    static boolean inMemory(Path database) {
        Path name = PathCopy.of(database).getFileName(); // the kept path is asked nothing
        String file = name == null ? "" : name.toString();
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
    public static Lease acquire(Path database, String name, Object owner, String ownerName) {
        if (inMemory(database)) {
            return NONE;
        }
        LeaseSlot slot = LeaseSlot.of(database);
        Object key = fileKey(database);
        Lease lease;
        REGISTRY.lock();
        try {
            Lease sameFile = key == null ? null : BY_FILE.get(key);
            if (sameFile != null && !sameFile.slot.equals(slot)) {
                throw new DatabaseLockedException(name + ": the database file is already open in "
                        + "this JVM under another name, " + sameFile.database + ", by the Lanes "
                        + "runtime '" + sameFile.ownerName + "' (a hard link or another mount of "
                        + "the same file: device and inode " + key + "). SQLite keeps the -wal "
                        + "and -shm beside each name, so two names of one file are two writers "
                        + "that corrupt it; open it by one name only");
            }
            Lease holder = HELD.get(slot);
            if (holder != null) {
                throw new DatabaseLockedException(name + ": the database is already open in this "
                        + "JVM, by the Lanes runtime '" + holder.ownerName + "'"
                        + (holder.owner == owner ? " (a database of this runtime that is still "
                                + "closing)" : "")
                        + (holder.name.equals(name) ? "" : " as '" + holder.name + "', whose "
                                + "file name shares its lease slot")
                        + "; lease " + slot + ". Open it once, through one runtime, and share the "
                        + "Database");
            }
            LockFile file = FILES.computeIfAbsent(slot.lockFile(), LockFile::new);
            file.users++;
            // the leases of one lock file share its path, rather than keep an equal one each
            lease = new Lease(new LeaseSlot(file.path, slot.offset()), database, file, name,
                    owner, ownerName);
            HELD.put(lease.slot, lease);
            lease.keyLocked(key);
        } finally {
            REGISTRY.unlock();
        }
        boolean ok = false;
        try {
            lease.file.lock.lock();
            try {
                lease.lockLocked();
            } finally {
                lease.file.lock.unlock();
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
    public static CompletableFuture<Void> pendingRelease(Path database, Object owner) {
        if (inMemory(database)) {
            return null;
        }
        LeaseSlot slot = LeaseSlot.of(database);
        REGISTRY.lock();
        try {
            Lease holder = HELD.get(slot);
            return holder != null && holder.owner == owner ? holder.released() : null;
        } finally {
            REGISTRY.unlock();
        }
    }

    /**
     * The canonical path by which {@code owner} holds the lease of the file at {@code database}
     * under another name (a hard link, another mount of it), or null when it holds none there
     * or holds it by this very path.
     */
    public static Path heldPath(Path database, Object owner) {
        if (inMemory(database)) {
            return null;
        }
        Object key = fileKey(database);
        if (key == null) {
            return null;
        }
        REGISTRY.lock();
        try {
            Lease sameFile = BY_FILE.get(key);
            return sameFile != null && sameFile.owner == owner
                    && !sameFile.database.equals(database) ? sameFile.database : null;
        } finally {
            REGISTRY.unlock();
        }
    }

    /** Reads this lease's file key, when not known yet, and indexes the lease by it. */
    private void learnKey() {
        Object key = fileKey(database);
        if (key == null) {
            return;
        }
        REGISTRY.lock();
        try {
            if (HELD.get(slot) == this) {
                keyLocked(key);
            }
        } finally {
            REGISTRY.unlock();
        }
    }

    /** The file's key once known (device and inode on Unix), else null. */
    Object fileKey() {
        REGISTRY.lock();
        try {
            return fileKey;
        } finally {
            REGISTRY.unlock();
        }
    }

    // guarded by REGISTRY
    private void keyLocked(Object key) {
        if (key == null || fileKey != null) {
            return;
        }
        fileKey = key;
        BY_FILE.putIfAbsent(key, this);
    }

    /** The file's key (device and inode on Unix); null when there is no file or no key. */
    static Object fileKey(Path database) {
        try {
            return Files.readAttributes(PathCopy.of(database), BasicFileAttributes.class)
                    .fileKey();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    /** The slot of {@code database}, for messages. */
    public static String describe(Path database) {
        return inMemory(database) ? "none (in memory)" : LeaseSlot.of(database).toString();
    }

    // guarded by lock: locks the slot, or records why the lock file cannot be had yet (deferred)
    private void lockLocked() {
        FileLock l;
        try {
            l = file.tryLock(slot.offset());
        } catch (OverlappingFileLockException e) {
            // Only reachable if something else in this JVM locked the byte outside Lanes.
            throw new DatabaseLockedException(name + ": the lease " + slot + " is already "
                    + "locked by this JVM outside Lanes; the database is owned elsewhere", e);
        } catch (IOException e) {
            deferred = e;
            log.debug("{}: cannot lock {} yet ({}); the lease is taken when the database opens",
                    name, slot, e.toString());
            return;
        }
        if (l == null) {
            throw new DatabaseLockedException(name + ": the database is open in another process "
                    + "(its lease, " + slot + ", is locked); close it there first, or open "
                    + "another file");
        }
        fileLock = l;
        deferred = null;
        lockFileItself();
    }

    /**
     * Locks the database file itself once it exists, so that another name of it (a hard link, a
     * bind mount) opened by another process meets this lease; where that lock cannot be had
     * ({@link FileLocks#UNSUPPORTED}) it is not tried again.
     */
    // guarded by file.lock
    private void lockFileItself() {
        Path file = PathCopy.of(database);
        if (fileItself != NOT_TAKEN || !Files.exists(file)) {
            return;
        }
        int lock = FileLocks.lock(file);
        if (lock == FileLocks.HELD_ELSEWHERE) {
            throw new DatabaseLockedException(name + ": the database file is open in another "
                    + "process, or in this one, under another name (a hard link or another mount "
                    + "of " + database + "). SQLite keeps the -wal and -shm beside each name, so "
                    + "two names of one file are two writers that corrupt it; close it there, and "
                    + "open it by one name only");
        }
        fileItself = lock;
    }

    /**
     * Makes sure the OS lock is held: a deferred lease tries once more. Called on the writer's
     * turn right after its connection opened.
     *
     * @throws DatabaseLockedException when another process took the file meanwhile
     * @throws java.io.UncheckedIOException when the lock file still cannot be created
     */
    void confirm() {
        if (slot == null) {
            return;
        }
        file.lock.lock();
        try {
            if (released) {
                throw new IllegalStateException(name + ": the lease was released");
            }
            if (fileLock != null) {
                lockFileItself(); // the writer may have just created the file
                return;
            }
            lockLocked();
            if (fileLock == null) {
                throw new java.io.UncheckedIOException(name + ": cannot create the lock file "
                        + slot.lockFile() + " that guards the database against a second owner",
                        deferred);
            }
        } finally {
            file.lock.unlock();
            // the writer's connection exists, so does the file: known by its key from now on
            learnKey();
        }
    }

    /**
     * Completes once the lease is released. Made on first use (most leases are released without
     * anyone waiting) and set once by compare-and-set, so that asking and releasing meet in the
     * same future; never handed to users as is (see {@link VarHandles#complete}).
     */
    public CompletableFuture<Void> released() {
        return VarHandles.getOrSet(RELEASED_FUTURE, this, CompletableFuture::new);
    }

    /** Whether the lease is released; {@link #released()} without making its future. */
    public boolean isReleased() {
        CompletableFuture<Void> f = releasedFuture;
        return f != null && f.isDone();
    }

    /**
     * Releases the OS lock and forgets the lease. Call only once every connection to the
     * database closed. Idempotent; never throws.
     */
    public void release() {
        if (slot == null) {
            return;
        }
        file.lock.lock();
        try {
            if (released) {
                return;
            }
            released = true;
            if (fileItself >= 0) {
                FileLocks.unlock(fileItself);
            }
            fileItself = NOT_TAKEN;
            if (fileLock != null) {
                file.unlock(fileLock, name);
                fileLock = null;
            }
            REGISTRY.lock();
            try {
                HELD.remove(slot, this);
                if (fileKey != null) {
                    BY_FILE.remove(fileKey, this);
                }
                if (--file.users == 0) {
                    FILES.remove(file.path, file);
                    file.close(name);
                }
            } finally {
                REGISTRY.unlock();
            }
        } finally {
            file.lock.unlock();
        }
        VarHandles.complete(RELEASED_FUTURE, this);
    }

    @Override
    public String toString() {
        return "Lease[" + slot + "]";
    }

    /**
     * One lock file of this JVM, opened once and shared by the leases in it. Its channel opens
     * lazily, and again after a failure to create the file, so that a deferred lease can retry.
     */
    private static final class LockFile {
        final Path path;
        // guarded by REGISTRY: the leases that use this file, released or not yet
        int users;

        private final ReentrantLock lock = new ReentrantLock();
        // guarded by lock
        private FileChannel channel;

        LockFile(Path path) {
            this.path = path;
        }

        /** Locks one byte exclusively, without waiting; null when another process holds it. */
        FileLock tryLock(long offset) throws IOException {
            lock.lock();
            try {
                if (channel == null) {
                    // Only the lock directory: a database whose own directory is missing cannot
                    // open, and must not be given one.
                    try {
                        Files.createDirectory(path.getParent());
                    } catch (FileAlreadyExistsException e) {
                        // made by another lease, or another process
                    }
                    channel = FileChannel.open(path, StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE);
                }
                return channel.tryLock(offset, 1, false);
            } finally {
                lock.unlock();
            }
        }

        void unlock(FileLock fileLock, String name) {
            lock.lock();
            try {
                fileLock.release();
            } catch (IOException | RuntimeException e) {
                log.warn("{}: releasing the lock on {} failed; closing the file drops it once no "
                        + "other lease uses it", name, path, e);
            } finally {
                lock.unlock();
            }
        }

        // called under REGISTRY with no user left
        void close(String name) {
            lock.lock();
            try {
                if (channel != null) {
                    channel.close();
                    channel = null;
                }
            } catch (IOException e) {
                log.warn("{}: closing the lock file {} failed", name, path, e);
            } finally {
                lock.unlock();
            }
        }
    }
}
