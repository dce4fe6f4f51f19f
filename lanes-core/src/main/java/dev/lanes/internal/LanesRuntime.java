package dev.lanes.internal;

import dev.lanes.CloseTimeoutException;
import dev.lanes.ClosedException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.RuntimeDiagnostics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine behind {@link dev.lanes.Lanes}: the shared worker pool and the registry of open
 * databases, one per canonical path.
 *
 * <p>Concurrency: {@link #databases} and {@link #closed} are guarded by {@link #lock}. A database
 * leaves the registry when its close completes, so opening the same path afterwards yields a
 * fresh database, while opening it during the close returns the closing one.
 */
public final class LanesRuntime {
    private final String name;
    private final WorkerPool pool;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Path, DatabaseImpl> databases = new HashMap<>();
    private boolean closed;
    private final AtomicInteger openConnections = new AtomicInteger();
    /** Fires deadlines (idle transactions); never runs SQLite, only schedules lanes. */
    private final ScheduledThreadPoolExecutor timer;

    public LanesRuntime(String name, int maxThreads, long threadStackSize) {
        this.name = name;
        this.pool = new WorkerPool(name, maxThreads, threadStackSize);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name + "-timer");
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    public Database open(Path path, DatabaseOptions options) {
        Path canonical = canonical(path);
        DatabaseImpl db;
        lock.lock();
        try {
            if (closed) {
                throw new ClosedException(name + ": the runtime is closed; cannot open " + path);
            }
            db = databases.computeIfAbsent(canonical,
                    p -> new DatabaseImpl(p, options, pool, this));
        } finally {
            lock.unlock();
        }
        if (db.options().initializer() != null) {
            // Whoever opens it, an initialized database is handed out only once initialized.
            try {
                db.awaitReady().join();
            } catch (java.util.concurrent.CompletionException e) {
                db.close();
                throw DatabaseImpl.rethrow(e.getCause());
            }
        }
        return db;
    }

    /**
     * The path SQLite will really open: symbolic links and {@code ..} resolved, also for a file
     * that does not exist yet (through its parent directory).
     */
    static Path canonical(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            if (Files.exists(absolute)) {
                return absolute.toRealPath();
            }
            Path parent = absolute.getParent();
            if (parent != null && Files.exists(parent)) {
                return parent.toRealPath().resolve(absolute.getFileName());
            }
        } catch (IOException e) {
            // fall through: the database will fail to open and report why
        }
        return absolute;
    }

    void connectionOpened() {
        openConnections.incrementAndGet();
    }

    void connectionClosed() {
        openConnections.decrementAndGet();
    }

    /** A lane finished closing: forget it, unless a newer database took the path already. */
    void closed(Path path, WriterLane lane) {
        lock.lock();
        try {
            DatabaseImpl db = databases.get(path);
            if (db != null && db.lane() == lane) {
                databases.remove(path);
            }
        } finally {
            lock.unlock();
        }
    }

    public RuntimeDiagnostics diagnostics() {
        WorkerPool.Snapshot s = pool.snapshot();
        int open;
        lock.lock();
        try {
            open = databases.size();
        } finally {
            lock.unlock();
        }
        return new RuntimeDiagnostics(s.liveThreads(), s.maxThreads(), s.busyThreads(),
                s.runnableForeground(), s.runnableBackground(), open, openConnections.get(),
                s.longestQueueWait(), s.saturationStretches(), s.saturated());
    }

    /** Closes every database, all at once, then stops the threads. */
    public void close() {
        List<DatabaseImpl> open;
        lock.lock();
        try {
            closed = true;
            open = new ArrayList<>(databases.values());
        } finally {
            lock.unlock();
        }
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        long timeoutNanos = 0;
        for (DatabaseImpl db : open) {
            closing.add(db.beginClose());
            timeoutNanos = Math.max(timeoutNanos, db.options().closeTimeout().toNanos());
        }
        long deadline = System.nanoTime() + timeoutNanos;
        List<String> late = new ArrayList<>();
        boolean interrupted = false;
        for (int i = 0; i < closing.size(); i++) {
            while (true) {
                try {
                    closing.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException | TimeoutException e) {
                    late.add(open.get(i).path().toString());
                    break;
                }
            }
        }
        pool.shutdown();
        timer.shutdown();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!late.isEmpty()) {
            throw new CloseTimeoutException(name + ": " + late.size() + " database(s) did not "
                    + "close in time and go on closing in the background: " + late);
        }
    }
}
