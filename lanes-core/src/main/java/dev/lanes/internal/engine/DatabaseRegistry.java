package dev.lanes.internal.engine;

import dev.lanes.ClosedException;
import dev.lanes.internal.file.Lease;
import dev.lanes.internal.util.PathCopy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32;

/**
 * The open databases of one runtime: one entry per canonical path, and one per key for databases
 * on other engines ({@link LanesRuntime.Attached}, a cluster's), and the names databases go by.
 * An entry is a future while its database is being opened: an open reserves its path with a
 * pending entry, builds the database outside the lock, then puts the database itself in the
 * entry's place ({@link #opened}; an open database so costs no future) and completes the future
 * (or forgets the entry when the open failed), so concurrent opens of the same path wait for it
 * and opens of other paths go on. A database leaves the
 * registry when its close completed; once the runtime is closed nothing more may be reserved.
 *
 * <h2>Concurrency</h2>
 * {@link #databases}, {@link #openByFileName}, {@link #attached} and {@link #closed} are guarded
 * by {@link #lock}, which is held only to look up or change them: never across file I/O, a
 * database's construction or a wait for an entry (those who wait join the entry's future after
 * the lock is released). It is a leaf lock: nothing else is taken while it is held.
 */
final class DatabaseRegistry {
    /** What an open found for its path: an entry to wait for, a lease to wait for, or its own. */
    record Reservation(CompletableFuture<DatabaseImpl> existing,
            CompletableFuture<Void> releasing, CompletableFuture<DatabaseImpl> mine,
            String display) {}

    private final String runtimeName;
    /** Who owns the leases of this registry's databases: the runtime. */
    private final Object leaseOwner;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    /** A pending open's future, or the database once opened; see the class comment. */
    private final Map<Path, Object> databases = new HashMap<>();
    /** How many registered databases have each file name, so that naming one is O(1). */
    private final Map<String, Integer> openByFileName = new HashMap<>();
    /** Databases on other engines than a local file (a cluster's), by their engine's key. */
    private final Map<Object, CompletableFuture<LanesRuntime.Attached>> attached = new HashMap<>();
    private boolean closed;

    DatabaseRegistry(String runtimeName, Object leaseOwner) {
        this.runtimeName = runtimeName;
        this.leaseOwner = leaseOwner;
    }

    /**
     * Finds the entry for {@code canonical}, or the lease a closing database of this runtime
     * still holds there, or else reserves the path with a pending entry of the caller's own.
     *
     * @throws ClosedException when the runtime is closed
     */
    Reservation reserve(Path canonical, Path asked) {
        lock.lock();
        try {
            refuseWhenClosed(asked);
            Object entry = databases.get(canonical);
            if (entry != null) {
                return new Reservation(asFuture(entry), null, null, null);
            }
            CompletableFuture<Void> releasing = Lease.pendingRelease(canonical, leaseOwner);
            if (releasing != null) {
                return new Reservation(null, releasing, null, null);
            }
            String file = fileName(canonical);
            String display = displayName(canonical, file);
            CompletableFuture<DatabaseImpl> mine = new CompletableFuture<>();
            databases.put(canonical, mine);
            // one string: without a hash suffix, the name is this very file name
            openByFileName.merge(file, 1, Integer::sum);
            return new Reservation(null, null, mine, display);
        } finally {
            lock.unlock();
        }
    }

    // guarded by lock
    private void refuseWhenClosed(Object what) {
        if (closed) {
            throw new ClosedException(runtimeName + ": the runtime is closed; cannot open "
                    + what);
        }
    }

    /**
     * The name a database goes by in messages and metrics: its file name {@code file} (that very
     * string, which the registry keeps too), with a short stable hash of its canonical path when
     * another open database has the same file name.
     */
    // guarded by lock
    private String displayName(Path canonical, String file) {
        if (openByFileName.getOrDefault(file, 0) == 0) {
            return file;
        }
        CRC32 crc = new CRC32();
        crc.update(PathCopy.of(canonical).toString().getBytes(StandardCharsets.UTF_8));
        return file + "~" + String.format("%06x", crc.getValue() & 0xFFFFFF);
    }

    private static String fileName(Path canonical) {
        Path copy = PathCopy.of(canonical); // the database's kept path is asked nothing
        return copy.getFileName() == null ? copy.toString() : copy.getFileName().toString();
    }

    @SuppressWarnings("unchecked")
    private static CompletableFuture<DatabaseImpl> pending(Object entry) {
        return (CompletableFuture<DatabaseImpl>) entry;
    }

    /** An entry as a future: its own while pending, a completed one once it is the database. */
    private static CompletableFuture<DatabaseImpl> asFuture(Object entry) {
        return entry instanceof DatabaseImpl
                ? CompletableFuture.completedFuture((DatabaseImpl) entry) : pending(entry);
    }

    /** The database of an entry when it is open, else null (being opened, or failed). */
    private static DatabaseImpl openIn(Object entry) {
        if (entry instanceof DatabaseImpl) {
            return (DatabaseImpl) entry;
        }
        CompletableFuture<DatabaseImpl> f = pending(entry);
        return f.isDone() && !f.isCompletedExceptionally() ? f.join() : null;
    }

    /**
     * The open reserved by {@code mine} built {@code db}: the database takes its future's place,
     * unless the entry is gone already. Its caller then completes {@code mine}, for those who
     * wait on it.
     */
    void opened(Path path, CompletableFuture<DatabaseImpl> mine, DatabaseImpl db) {
        lock.lock();
        try {
            databases.replace(path, mine, db);
        } finally {
            lock.unlock();
        }
    }

    /** A database finished closing: forget it, unless a newer database took the path already. */
    void closed(Path path, DatabaseImpl db) {
        lock.lock();
        try {
            Object entry = databases.get(path);
            if (entry != null && openIn(entry) == db) {
                forgetLocked(path, entry);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Forgets a reservation whose open failed. */
    void forget(Path path, CompletableFuture<DatabaseImpl> entry) {
        lock.lock();
        try {
            forgetLocked(path, entry);
        } finally {
            lock.unlock();
        }
    }

    // guarded by lock
    private void forgetLocked(Path path, Object entry) {
        if (databases.remove(path, entry)) {
            openByFileName.computeIfPresent(fileName(path), (f, n) -> n == 1 ? null : n - 1);
        }
    }

    /**
     * Reserves {@code key} for {@code mine}, unless a database is registered under it.
     *
     * @return the entry registered under {@code key} already, or null when {@code mine} is now
     * @throws ClosedException when the runtime is closed
     */
    CompletableFuture<LanesRuntime.Attached> reserveAttached(Object key,
            CompletableFuture<LanesRuntime.Attached> mine) {
        lock.lock();
        try {
            refuseWhenClosed(key);
            return attached.putIfAbsent(key, mine);
        } finally {
            lock.unlock();
        }
    }

    /** Forgets an attached database, unless another took its key already. */
    void forgetAttached(Object key, CompletableFuture<LanesRuntime.Attached> entry) {
        lock.lock();
        try {
            attached.remove(key, entry);
        } finally {
            lock.unlock();
        }
    }

    /** Refuses every later reservation. @return whether it was closed already */
    boolean close() {
        lock.lock();
        try {
            boolean was = closed;
            closed = true;
            return was;
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** How many databases are registered now, opened or being opened, of every engine. */
    int size() {
        lock.lock();
        try {
            return databases.size() + attached.size();
        } finally {
            lock.unlock();
        }
    }

    /** The databases open now, without waiting for those being opened (they are left out). */
    List<DatabaseImpl> openNow() {
        List<DatabaseImpl> open = new ArrayList<>();
        lock.lock();
        try {
            for (Object e : databases.values()) {
                DatabaseImpl db = openIn(e);
                if (db != null) {
                    open.add(db);
                }
            }
        } finally {
            lock.unlock();
        }
        return open;
    }

    /** The databases registered now, opened or being opened; those that failed are left out. */
    List<DatabaseImpl> registered() {
        List<CompletableFuture<DatabaseImpl>> entries = new ArrayList<>();
        lock.lock();
        try {
            for (Object e : databases.values()) {
                entries.add(asFuture(e));
            }
        } finally {
            lock.unlock();
        }
        return joined(entries);
    }

    /** The attached databases open now; those whose open failed are left out. */
    List<LanesRuntime.Attached> attachedNow() {
        List<CompletableFuture<LanesRuntime.Attached>> entries;
        lock.lock();
        try {
            entries = new ArrayList<>(attached.values());
        } finally {
            lock.unlock();
        }
        return joined(entries);
    }

    /** The databases of these entries, waiting for opens under way; failed opens left out. */
    private static <T> List<T> joined(List<CompletableFuture<T>> entries) {
        List<T> open = new ArrayList<>(entries.size());
        for (CompletableFuture<T> e : entries) {
            try {
                open.add(e.join());
            } catch (RuntimeException failed) {
                // its open failed; its caller was told
            }
        }
        return open;
    }
}
