package dev.lanes.internal.engine;

import dev.lanes.internal.notify.ChangeDispatcher;
import dev.lanes.internal.scheduler.EvictionOrder;
import dev.lanes.internal.file.Lease;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.writer.WriterLane;
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
 * fresh database, while opening it during the close returns the closing one. Each database
 * holds a {@link Lease} on its file from open until its last connection closed, which can be a
 * moment after it left the registry; an open of the same path waits for that release (at most
 * {@link #LEASE_WAIT}).
 */
public final class LanesRuntime {
    private final String name;
    private final WorkerPool pool;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Path, DatabaseImpl> databases = new HashMap<>();
    // guarded by lock: how many of databases have each file name, so that naming one is O(1)
    private final Map<String, Integer> openByFileName = new HashMap<>();
    private boolean closed;
    private final AtomicInteger openConnections = new AtomicInteger();
    /**
     * Fires deadlines (idle transactions, read admission timeouts) and delivers read stop
     * requests ({@code sqlite3_interrupt}, which never blocks); runs no other SQLite call, only
     * schedules lanes.
     */
    private final ScheduledThreadPoolExecutor timer;
    /** Delivers change notifications of every database, never on a writer's thread. */
    private final ChangeDispatcher changeDispatcher;

    private final dev.lanes.MetricsListener metrics;

    /** The connection cap (0: none) and the lanes with connections open, in eviction order. */
    private final int maxOpenConnections;
    private final EvictionOrder evictionOrder = new EvictionOrder();
    private final long sqliteSoftHeapLimit;
    private final java.util.concurrent.atomic.AtomicBoolean processLimitsApplied =
            new java.util.concurrent.atomic.AtomicBoolean();

    public LanesRuntime(String name, int maxThreads, long threadStackSize,
            dev.lanes.MetricsListener metrics, int maxOpenConnections, long sqliteSoftHeapLimit) {
        this.name = name;
        this.metrics = metrics;
        this.maxOpenConnections = maxOpenConnections;
        this.sqliteSoftHeapLimit = sqliteSoftHeapLimit;
        this.pool = new WorkerPool(name, maxThreads, threadStackSize);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name + "-timer");
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
        this.changeDispatcher = new ChangeDispatcher(name);
        try {
            metrics.runtimeStarted(new dev.lanes.MetricsListener.PoolGauges() {
                @Override
                public int liveThreads() {
                    return pool.snapshot().liveThreads();
                }

                @Override
                public int busyThreads() {
                    return pool.snapshot().busyThreads();
                }

                @Override
                public int runnable() {
                    WorkerPool.Snapshot s = pool.snapshot();
                    return s.runnableForeground() + s.runnableBackground();
                }
            });
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(LanesRuntime.class)
                    .warn("{}: the metrics listener failed to bind the pool gauges", name, e);
        }
    }

    public dev.lanes.MetricsListener metrics() {
        return metrics;
    }

    /**
     * The name a database goes by in messages and metrics: its file name, with a short stable
     * hash of its canonical path when another open database has the same file name.
     */
    // guarded by lock
    private String displayName(Path canonical) {
        String file = fileName(canonical);
        if (openByFileName.getOrDefault(file, 0) == 0) {
            return file;
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(canonical.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return file + "~" + String.format("%06x", crc.getValue() & 0xFFFFFF);
    }

    private static String fileName(Path canonical) {
        return canonical.getFileName() == null ? canonical.toString()
                : canonical.getFileName().toString();
    }

    public ScheduledExecutorService timer() {
        return timer;
    }

    public ChangeDispatcher changeDispatcher() {
        return changeDispatcher;
    }

    public Database open(Path path, DatabaseOptions options) {
        Path canonical = canonical(path);
        DatabaseImpl db;
        long leaseDeadline = System.nanoTime() + LEASE_WAIT.toNanos();
        while (true) {
            CompletableFuture<Void> releasing;
            lock.lock();
            try {
                if (closed) {
                    throw new ClosedException(name + ": the runtime is closed; cannot open " + path);
                }
                db = databases.get(canonical);
                releasing = db != null ? null : Lease.pendingRelease(canonical, this);
                if (db == null && releasing == null) {
                    // Owned before SQLite opens the file; refused: nothing is registered.
                    String display = displayName(canonical);
                    Lease lease = Lease.acquire(canonical, display, this, name);
                    try {
                        db = new DatabaseImpl(canonical, display, options, pool, this, lease);
                    } catch (RuntimeException | Error e) {
                        lease.release();
                        throw e;
                    }
                    databases.put(canonical, db);
                    openByFileName.merge(fileName(canonical), 1, Integer::sum);
                }
            } finally {
                lock.unlock();
            }
            if (db != null) {
                break;
            }
            awaitRelease(canonical, releasing, leaseDeadline);
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

    /** How long an open waits for a database of this runtime at the same path to finish closing. */
    static final java.time.Duration LEASE_WAIT = java.time.Duration.ofSeconds(10);

    /**
     * Waits, outside the lock, for the lease of a database of this runtime that closed but has not
     * yet released it (its connections are still closing).
     */
    private void awaitRelease(Path canonical, CompletableFuture<Void> releasing, long deadline) {
        try {
            releasing.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new dev.lanes.DatabaseLockedException(canonical.getFileName() + ": a database of "
                    + "this runtime at the same path is still closing after " + LEASE_WAIT.toSeconds()
                    + " s and holds its lease, " + Lease.describe(canonical) + "; retry once "
                    + "its close completed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.lanes.DatabaseLockedException(canonical.getFileName() + ": interrupted "
                    + "while waiting for a closing database of this runtime to release the file", e);
        } catch (ExecutionException e) {
            // released anyway: the lease future never fails
        }
    }

    /**
     * The path SQLite will really open: symbolic links and {@code ..} resolved, also for a file
     * that does not exist yet (through its parent directory).
     */
    public static Path canonical(Path path) {
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

    public void connectionOpened() {
        int open = openConnections.incrementAndGet();
        if (maxOpenConnections > 0 && open > maxOpenConnections) {
            evictWhileOverCap();
        }
    }

    public void connectionClosed() {
        openConnections.decrementAndGet();
    }

    /**
     * A database opened a connection (writer or reader): it is a candidate for eviction until
     * an eviction closed its connections. The first writer open also applies the process-wide
     * limits.
     */
    public void connectionsOpened(WriterLane lane, java.sql.Connection writer) {
        evictionOrder.opened(lane);
        if (writer != null && sqliteSoftHeapLimit > 0
                && processLimitsApplied.compareAndSet(false, true)) {
            try (java.sql.Statement s = writer.createStatement()) {
                s.execute("PRAGMA soft_heap_limit = " + sqliteSoftHeapLimit);
            } catch (java.sql.SQLException e) {
                processLimitsApplied.set(false);
                org.slf4j.LoggerFactory.getLogger(LanesRuntime.class)
                        .warn("{}: setting SQLite's soft heap limit failed", name, e);
            }
        }
    }

    /** The database's connections were closed by an eviction or its close. */
    public void connectionsReleased(WriterLane lane) {
        evictionOrder.released(lane);
    }

    /**
     * Over the connection cap: idle databases, least recently used first ({@link
     * EvictionOrder}), give up their connections at once, on this thread (always a platform
     * thread: the one that just opened a connection). A victim is taken out of the order, so no
     * other eviction chooses it too; one found busy by the time it is evicted is given back. After
     * a few victims the open goes on, and the next open evicts again.
     */
    private void evictWhileOverCap() {
        for (int attempts = 0; attempts < MAX_EVICTIONS_PER_OPEN
                && openConnections.get() > maxOpenConnections; attempts++) {
            WriterLane victim = evictionOrder.takeVictim();
            if (victim == null) {
                return; // nothing idle to evict now; the next open tries again
            }
            if (!victim.evictNow()) {
                evictionOrder.requeue(victim);
            }
        }
    }

    /** Victims one open may evict, so that a burst of opens cannot stall one caller for long. */
    private static final int MAX_EVICTIONS_PER_OPEN = 8;

    /** A lane finished closing: forget it, unless a newer database took the path already. */
    public void closed(Path path, WriterLane lane) {
        lock.lock();
        try {
            DatabaseImpl db = databases.get(path);
            if (db != null && db.lane() == lane) {
                databases.remove(path);
                openByFileName.computeIfPresent(fileName(path), (f, n) -> n == 1 ? null : n - 1);
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

    /**
     * The {@link dev.lanes.Lanes} object was garbage-collected without close: every database
     * still open is reported as an unclean close. They are not closed here, since a caller may
     * still hold and use their handles.
     */
    public void abandoned() {
        List<DatabaseImpl> open;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            open = new ArrayList<>(databases.values());
        } finally {
            lock.unlock();
        }
        for (DatabaseImpl db : open) {
            org.slf4j.LoggerFactory.getLogger(LanesRuntime.class).warn("{}: its Lanes runtime "
                    + "was garbage-collected without close(); close the runtime at shutdown so "
                    + "that connections close cleanly and leases are released", db.lane().name());
            db.lane().uncleanClose();
        }
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
                    late.add(open.get(i).lane().name());
                    open.get(i).lane().closeTimedOut(timeoutNanos);
                    break;
                }
            }
        }
        // The threads stop once every close completed: a late close still needs the pool (its
        // turn) and the timer (an open transaction's idle timeout ends it).
        CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0])).whenComplete((v, e) -> {
            pool.shutdown();
            timer.shutdown();
            changeDispatcher.shutdown();
            try {
                metrics.runtimeClosed();
            } catch (RuntimeException | LinkageError failure) {
                org.slf4j.LoggerFactory.getLogger(LanesRuntime.class)
                        .warn("{}: the metrics listener failed", name, failure);
            }
        });
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!late.isEmpty()) {
            throw new CloseTimeoutException(name + ": " + late.size() + " database(s) did not "
                    + "close in time and go on closing in the background: " + late);
        }
    }
}
