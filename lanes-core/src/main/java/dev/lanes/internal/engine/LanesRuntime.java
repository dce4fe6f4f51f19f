package dev.lanes.internal.engine;

import dev.lanes.CloseTimeoutException;
import dev.lanes.ClosedException;
import dev.lanes.Database;
import dev.lanes.DatabaseLockedException;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.MetricsListener;
import dev.lanes.RuntimeDiagnostics;
import dev.lanes.SqliteInfo;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.CanonicalPath;
import dev.lanes.internal.file.Lease;
import dev.lanes.internal.notify.ChangeDispatcher;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.sqlite.SqliteLibrary;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.PathCopy;
import dev.lanes.internal.util.Timer;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine behind {@link dev.lanes.Lanes}: the shared worker pool, timer and connection budget,
 * and the registry of open databases, one per canonical path.
 *
 * <h2>Concurrency</h2>
 * The open databases are kept in a {@link DatabaseRegistry}, whose lock is held only to look up
 * or change it, never across file I/O: an open reserves its path in the registry with a pending
 * entry, takes the lease and builds the database outside the lock, then completes the entry;
 * concurrent opens of the same path wait for that entry, and opens of other paths go on. The
 * runtime's own fields are final, but {@link #mbeans} (volatile, set once before the first open),
 * {@link #processLimitsApplied} (atomic) and {@link #lastOptions} (volatile, written by any open:
 * a race only costs a missed sharing). A database leaves the registry when its close
 * completes, so opening the same path afterwards yields a fresh database, while opening it during
 * the close returns the closing one. Each database holds a {@link Lease} on its file from open until its last
 * connection closed, which can be a moment after it left the registry; an open of the same path
 * waits for that release (at most {@link #LEASE_WAIT}). {@link Attached} databases (a cluster's)
 * follow the same rules, keyed by what names them on their engine, without a lease.
 *
 * <p>Management beans ({@link ManagementBeans}), when switched on: a database's bean is
 * registered before its open returns and unregistered when its lane closed, before it leaves the
 * registry, so that a later open of the same path registers after the old bean is gone.
 */
public final class LanesRuntime {
    private static final Logger log = LoggerFactory.getLogger(LogNames.LIFECYCLE);

    /** How long an open waits for a database of this runtime at the same path to finish closing. */
    static final Duration LEASE_WAIT = Duration.ofSeconds(10);

    private final String name;
    private final WorkerPool pool;
    private final Timer timer;
    /** The time of every timeout, deadline and stamp of the runtime; see {@link Clock}. */
    private final Clock clock;
    /** Delivers change notifications of every database, never on a writer's thread. */
    private final ChangeDispatcher changeDispatcher;
    private final MetricsListener metrics;
    private final ConnectionBudget budget;
    /** The statement shapes of every database's SQL, kept by text. */
    private final Shapes shapes = new Shapes();
    private final long sqliteSoftHeapLimit;
    private final AtomicBoolean processLimitsApplied = new AtomicBoolean();
    /** The management beans; null unless {@link #registerMBeans} switched them on. */
    private volatile ManagementBeans mbeans;
    /** The options of the latest open, for {@link #shared}; any open may replace them. */
    private volatile DatabaseOptions lastOptions;

    /** The databases open in this runtime; see {@link DatabaseRegistry}. */
    private final DatabaseRegistry registry;
    /**
     * Whether checkpoints run on the writer alone whatever SQLite's version; a test seam (see
     * {@link #confineCheckpointsToWriter()}).
     */
    private volatile boolean checkpointsOnWriterForced;

    public LanesRuntime(String name, int maxThreads, long threadStackSize,
            MetricsListener metrics, int maxOpenConnections, long sqliteSoftHeapLimit) {
        this(name, maxThreads, threadStackSize, metrics, maxOpenConnections, sqliteSoftHeapLimit,
                Clock.SYSTEM, Timer.system(name));
    }

    /**
     * A runtime whose timeouts and deadlines run on {@code clock} and {@code timer}; tests pass a
     * manual clock that is its own timer.
     */
    public LanesRuntime(String name, int maxThreads, long threadStackSize,
            MetricsListener metrics, int maxOpenConnections, long sqliteSoftHeapLimit,
            Clock clock, Timer timer) {
        this.name = name;
        this.registry = new DatabaseRegistry(name, this);
        this.clock = clock;
        this.timer = timer;
        this.metrics = metrics;
        this.sqliteSoftHeapLimit = sqliteSoftHeapLimit;
        this.pool = new WorkerPool(name, maxThreads, threadStackSize, clock);
        this.budget = new ConnectionBudget(maxOpenConnections, pool);
        budget.adaptEvery(timer);
        this.changeDispatcher = new ChangeDispatcher(name);
        try {
            metrics.runtimeStarted(new MetricsListener.PoolGauges() {
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

                @Override
                public int maxThreads() {
                    return maxThreads;
                }

                @Override
                public int openConnections() {
                    return budget.open();
                }

                @Override
                public int connectionBudget() {
                    return budget.max();
                }
            });
        } catch (RuntimeException e) {
            log.warn("{}: the metrics listener failed to bind the pool gauges", name, e);
        }
    }

    public MetricsListener metrics() {
        return metrics;
    }

    /**
     * Registers the runtime's management bean on {@code server} now, and each database's from
     * its open on, at most {@code maxDatabaseBeans} at a time; see {@link dev.lanes.jmx}. Call
     * once, before the first open.
     */
    public void registerMBeans(javax.management.MBeanServer server, int maxDatabaseBeans) {
        ManagementBeans beans = new ManagementBeans(this, name, server, maxDatabaseBeans);
        beans.start();
        this.mbeans = beans;
    }

    public WorkerPool pool() {
        return pool;
    }

    public Timer timer() {
        return timer;
    }

    public Clock clock() {
        return clock;
    }

    /** The statement shapes of this runtime's SQL texts. */
    public Shapes shapes() {
        return shapes;
    }

    ConnectionBudget budget() {
        return budget;
    }

    public ChangeDispatcher changeDispatcher() {
        return changeDispatcher;
    }

    // ------------------------------------------------------------------ open

    /**
     * Opens the database at {@code path}, or returns the one open there: by that path, or by
     * another name of the same file (a hard link), whose lease this runtime holds.
     *
     * @param options the options to open it with; null to take an open database as it is (or
     *     open with the defaults)
     * @throws InvalidRequestException when it is open with other options, naming the first that
     *     differs, or when its name would open another file or no file ({@link
     *     SqliteConnections#notLiteral})
     */
    public Database open(Path path, DatabaseOptions options) {
        SqliteLibrary.require(); // a driver Lanes cannot run on fails here, before anything opens
        Path canonical = CanonicalPath.of(path);
        String notLiteral = SqliteConnections.notLiteral(canonical);
        if (notLiteral != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, "cannot open " + path
                    + ": " + notLiteral, null);
        }
        long leaseDeadline = System.nanoTime() + LEASE_WAIT.toNanos();
        DatabaseImpl db;
        while (true) {
            // another name of a file this runtime holds (a hard link): the database it opened
            Path sameFile = Lease.heldPath(canonical, this);
            // the instance the database keeps: a copy, as the checks above asked canonical for
            // its text and parts, which the JDK caches on it (see PathCopy)
            Path known = PathCopy.of(sameFile == null ? canonical : sameFile);
            DatabaseRegistry.Reservation r = registry.reserve(known, path);
            if (r.existing() != null) {
                db = Failures.join(r.existing()); // an open of the same file under way elsewhere
                checkSameOptions(db, options);
                break;
            }
            if (r.releasing() != null) {
                awaitRelease(known, r.releasing(), leaseDeadline);
                continue;
            }
            db = build(known, r, shared(options == null ? DatabaseOptions.builder().build()
                    : options));
            break;
        }
        if (db.options().initializer() != null) {
            // Whoever opens it, an initialized database is handed out only once initialized.
            try {
                Failures.join(db.whenReady());
            } catch (RuntimeException e) {
                db.close();
                throw e;
            }
        }
        return db;
    }

    /**
     * {@code options}, or the equal instance the latest open kept: options are immutable, so
     * databases opened with equal options (the defaults, or options built anew for each open)
     * share one instance instead of keeping a copy each.
     */
    private DatabaseOptions shared(DatabaseOptions options) {
        DatabaseOptions last = lastOptions;
        if (last != null && last.equals(options)) {
            return last;
        }
        lastOptions = options;
        return options;
    }

    /** Takes the lease and builds the database, outside the lock; undoes the reservation on failure. */
    private DatabaseImpl build(Path canonical, DatabaseRegistry.Reservation r,
            DatabaseOptions options) {
        DatabaseImpl db;
        try {
            // Owned before SQLite opens the file; refused: nothing stays registered.
            Lease lease = Lease.acquire(canonical, r.display(), this, name);
            try {
                db = new DatabaseImpl(canonical, r.display(), options, this, lease);
            } catch (RuntimeException | Error e) {
                lease.release();
                throw e;
            }
        } catch (RuntimeException | Error e) {
            registry.forget(canonical, r.mine());
            r.mine().completeExceptionally(e);
            throw e;
        }
        ManagementBeans beans = mbeans;
        if (beans != null) {
            beans.opened(db, db.name()); // before anyone holds it, so before anyone can close it
        }
        registry.opened(canonical, r.mine(), db);
        r.mine().complete(db);
        return db;
    }

    private static void checkSameOptions(DatabaseImpl db, DatabaseOptions asked) {
        checkSameOptions(db.name(), db.options(), asked);
    }

    private static void checkSameOptions(String name, DatabaseOptions open,
            DatabaseOptions asked) {
        if (asked == null) {
            return;
        }
        String difference = OptionsDifference.between(open, asked);
        if (difference != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": the "
                    + "database is already open in this runtime with other options; "
                    + difference + ". Open it once and share the Database, or pass the same "
                    + "options (or none)", null);
        }
    }

    /**
     * Waits, outside the lock, for the lease of a database of this runtime that closed but has not
     * yet released it (its connections are still closing).
     */
    private void awaitRelease(Path canonical, CompletableFuture<Void> releasing, long deadline) {
        try {
            releasing.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new DatabaseLockedException(canonical.getFileName() + ": a database of this "
                    + "runtime at the same path is still closing after " + LEASE_WAIT.toSeconds()
                    + " s and holds its lease, " + Lease.describe(canonical) + "; retry once its "
                    + "close completed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseLockedException(canonical.getFileName() + ": interrupted while "
                    + "waiting for a closing database of this runtime to release the file", e);
        } catch (ExecutionException e) {
            // released anyway: the lease future never fails
        }
    }

    /** A database finished closing: forget it, unless a newer database took the path already. */
    void closed(Path path, DatabaseImpl db) {
        ManagementBeans beans = mbeans;
        if (beans != null) {
            beans.closed(db);
        }
        registry.closed(path, db);
    }

    /** The first writer connection of the runtime applies the process-wide limits. */
    void applyProcessLimits() {
        if (sqliteSoftHeapLimit <= 0 || !processLimitsApplied.compareAndSet(false, true)) {
            return;
        }
        try {
            SqliteConnections.softHeapLimit(sqliteSoftHeapLimit);
        } catch (SQLException e) {
            processLimitsApplied.set(false);
            log.warn("{}: setting SQLite's soft heap limit failed", name, e);
        }
    }

    // ------------------------------------------------------------------ other engines

    /** A database on another engine than a local file (a cluster's), closed with the runtime. */
    public interface Attached {
        String name();

        DatabaseOptions options();

        Database database();

        /** Starts closing, draining accepted work; completes when closed. */
        CompletableFuture<Void> beginClose();

        /** The runtime's close gave up waiting for it after {@code nanos}. */
        void closeTimedOut(long nanos);

        /**
         * The runtime was garbage-collected without close: reports an unclean close to the
         * metrics listener, as a local database's lane does.
         */
        void uncleanClose();
    }

    /**
     * Opens the database named {@code key} on its engine with {@code open}, outside the lock, or
     * returns the one open under that key (refused when asked for with other options).
     * {@code open} is given the action that forgets the database, to run once its close
     * completed.
     *
     * @throws ClosedException when the runtime is closed
     */
    public Database attach(Object key, DatabaseOptions options,
            java.util.function.Function<Runnable, Attached> open) {
        CompletableFuture<Attached> existing;
        CompletableFuture<Attached> mine = new CompletableFuture<>();
        existing = registry.reserveAttached(key, mine);
        if (existing != null) {
            Attached a = Failures.join(existing);
            checkSameOptions(a.name(), a.options(), options);
            return a.database();
        }
        Runnable forget = () -> {
            registry.forgetAttached(key, mine);
            ManagementBeans beans = mbeans;
            if (beans != null && mine.isDone() && !mine.isCompletedExceptionally()) {
                beans.closed(mine.join().database());
            }
        };
        try {
            Attached a = open.apply(forget);
            ManagementBeans beans = mbeans;
            if (beans != null) {
                beans.opened(a.database(), a.name()); // its bean, as a local database has
            }
            mine.complete(a);
            return a.database();
        } catch (RuntimeException | Error e) {
            forget.run();
            mine.completeExceptionally(e);
            throw e;
        }
    }

    // ------------------------------------------------------------------ views, close

    public RuntimeDiagnostics diagnostics() {
        WorkerPool.Snapshot s = pool.snapshot();
        int open = registry.size();
        return new RuntimeDiagnostics(s.liveThreads(), s.maxThreads(), s.busyThreads(),
                s.runnableForeground(), s.runnableBackground(), open, budget.open(),
                s.longestQueueWait(), s.saturationStretches(), s.saturated(),
                sqliteInfo(checkpointsOnWriterForced));
    }

    /**
     * Whether the databases of this runtime run every checkpoint on their writer connection:
     * on a SQLite with the WAL-reset bug (see {@link SqliteLibrary}), or when a test asked.
     */
    boolean checkpointsOnWriterOnly() {
        return checkpointsOnWriterForced || SqliteLibrary.facts().walResetBug();
    }

    /**
     * Test seam, not API: the databases opened from now on run every checkpoint on their writer
     * connection, as they do on a SQLite with the WAL-reset bug.
     */
    public void confineCheckpointsToWriter() {
        checkpointsOnWriterForced = true;
    }

    /** The SQLite of this process; the mitigation shown as on when {@code forced}. */
    public static SqliteInfo sqliteInfo(boolean forced) {
        SqliteLibrary.Facts f = SqliteLibrary.facts();
        return new SqliteInfo(f.sqliteVersion(), f.driverVersion(), forced || f.walResetBug());
    }

    /** The databases open now, without waiting for those being opened (they are left out). */
    List<DatabaseImpl> openNow() {
        return registry.openNow();
    }

    /** The databases on other engines open now, as {@link #openNow()} lists the local ones. */
    List<Attached> attachedNow() {
        return registry.attachedNow();
    }

    /**
     * The {@link dev.lanes.Lanes} object was garbage-collected without close: every database
     * still open is reported as an unclean close. They are not closed here, since a caller may
     * still hold and use their handles.
     */
    public void abandoned() {
        if (registry.isClosed()) {
            return;
        }
        for (DatabaseImpl db : registry.registered()) {
            log.warn("{}: its Lanes runtime was garbage-collected without close(); close the "
                    + "runtime at shutdown so that connections close cleanly and leases are "
                    + "released", db.name());
            db.lane().uncleanClose();
        }
        for (Attached a : registry.attachedNow()) {
            log.warn("{}: its Lanes runtime was garbage-collected without close(); close the "
                    + "runtime at shutdown so that its cluster connection closes cleanly",
                    a.name());
            a.uncleanClose();
        }
        ManagementBeans beans = mbeans;
        if (beans != null) {
            beans.close(); // nobody can close the runtime now; its beans would stay forever
        }
    }

    /** Closes every database, all at once, then stops the threads. */
    public void close() {
        registry.close();
        List<Closing> open = new ArrayList<>();
        for (DatabaseImpl db : registry.registered()) {
            open.add(new Closing(db.name(), db.beginClose(),
                    db.options().closeTimeout().toNanos(), db::closeTimedOut));
        }
        for (Attached db : registry.attachedNow()) {
            open.add(new Closing(db.name(), db.beginClose(),
                    db.options().closeTimeout().toNanos(), db::closeTimedOut));
        }
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        long timeoutNanos = 0;
        for (Closing db : open) {
            closing.add(db.closed());
            timeoutNanos = Math.max(timeoutNanos, db.timeoutNanos());
        }
        List<String> late = awaitAll(open, closing, timeoutNanos);
        // The threads stop once every close completed: a late close still needs the pool (its
        // turn) and the timer (an open transaction's idle timeout ends it).
        CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0])).whenComplete((v, e) -> {
            pool.shutdown();
            timer.shutdown();
            changeDispatcher.shutdown();
            ManagementBeans beans = mbeans;
            if (beans != null) {
                beans.close();
            }
            try {
                metrics.runtimeClosed();
            } catch (RuntimeException | LinkageError failure) {
                log.warn("{}: the metrics listener failed", name, failure);
            }
        });
        if (!late.isEmpty()) {
            throw new CloseTimeoutException(name + ": " + late.size() + " database(s) did not "
                    + "close in time and go on closing in the background: " + late);
        }
    }

    /** A database being closed by the runtime's close. */
    private record Closing(String name, CompletableFuture<Void> closed, long timeoutNanos,
            java.util.function.LongConsumer timedOut) {}

    /** Waits for the closes, uninterruptibly, until one deadline; the names of the late ones. */
    private List<String> awaitAll(List<Closing> open, List<CompletableFuture<Void>> closing,
            long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        List<String> late = new ArrayList<>();
        boolean interrupted = false;
        for (int i = 0; i < closing.size(); i++) {
            while (true) {
                try {
                    closing.get(i).get(Math.max(0, deadline - System.nanoTime()),
                            TimeUnit.NANOSECONDS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException | TimeoutException e) {
                    late.add(open.get(i).name());
                    open.get(i).timedOut().accept(timeoutNanos);
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return late;
    }
}
