package dev.lanes.internal.file;

import dev.lanes.CheckpointMode;
import dev.lanes.CheckpointResult;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.MetricsListener.CheckpointTrigger;
import dev.lanes.MetricsListener.CheckpointType;
import dev.lanes.Synchronous;
import dev.lanes.internal.reader.ReaderConnection;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.util.VarHandles;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteOpenMode;

/**
 * The background checkpointer of a database in {@link CheckpointMode#DEDICATED} mode: it owns
 * WAL reclamation, so the writer runs with {@code wal_autocheckpoint=0} and no commit pays for a
 * checkpoint.
 *
 * <p>Policy: every {@link #TICK} the runtime's timer looks at the {@code -wal} file (one {@code
 * stat}, no SQLite). A WAL at or past {@link #WAL_THRESHOLD_BYTES} that changed since the last
 * checkpoint gets a {@code PASSIVE} checkpoint, which copies frames without waiting for any lock
 * and never blocks the writer or a reader. Under sustained writes a passive checkpoint never
 * quite catches up (frames keep arriving while it copies), and SQLite restarts the WAL from its
 * beginning only after a checkpoint that did; so when the passive one left frames behind, a
 * {@code RESTART} follows at once: it takes the write lock (waiting at most {@link #LOCK_WAIT}
 * for the running transaction), copies the few frames left, and waits for readers to leave the
 * WAL, after which the next write starts the WAL over and the file stops growing. The writer is
 * held up only for that tail. A WAL that has not changed for {@link #QUIET} gets a {@code
 * TRUNCATE} checkpoint, which also shrinks the file to zero bytes. A checkpoint that cannot get
 * its locks within {@link #LOCK_WAIT} reports busy and is tried again later. The checkpoints run
 * as background turns on the runtime's pool, on the checkpointer's own read-write connection,
 * never on the writer's.
 *
 * <h2>Concurrency</h2>
 * {@link #state}, {@link #pending}, {@link #closing} and {@link #ticking} are guarded by {@link
 * #lock}. Like the writer lane, the task is in one of three run states ({@code IDLE},
 * {@code SCHEDULED}, {@code RUNNING}); only the party moving it out of {@code IDLE} submits it to
 * the pool, so it never runs on two threads at once. The connection is used only by the turn
 * holder (a pool thread, always a platform thread), and closed only by a turn. The {@code tick}
 * fields are touched only by the timer's single thread. {@link Stats} is shared with {@link
 * dev.lanes.Database#checkpoint()}'s path and publishes through a volatile field. Each run, and
 * each failure (opening the connection included), is reported to the metrics listener by the
 * turn that ran it.
 */
public final class Checkpointer implements WorkerPool.Task {
    private static final Logger log = LoggerFactory.getLogger(LogNames.FILES);

    /** A WAL this large that grew since the last checkpoint gets a {@code PASSIVE} one. */
    static final long WAL_THRESHOLD_BYTES = 4L * 1024 * 1024;
    /** How often the timer looks at the WAL file. */
    static final Duration TICK = Duration.ofMillis(250);
    /** A WAL unchanged this long gets a {@code TRUNCATE} checkpoint. */
    static final Duration QUIET = Duration.ofSeconds(2);
    /** How long a {@code RESTART} or {@code TRUNCATE} waits for the write lock and for readers. */
    static final Duration LOCK_WAIT = Duration.ofMillis(100);

    private enum Run { IDLE, SCHEDULED, RUNNING }

    /** The checkpoint modes the checkpointer runs, weakest first. */
    enum Kind { PASSIVE, TRUNCATE }

    private final Path path;
    private final Path wal;
    private final String name;
    private final Synchronous synchronous;
    private final WorkerPool pool;
    private final ConnectionBudget budget;
    private final Clock clock;
    private final Identity identity;
    private final ConnectionSettings settings;
    private final Stats stats;
    private final MetricsReporter metrics;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private Run state = Run.IDLE;
    private Kind pending;
    private boolean closing;
    private Timer.Scheduled ticking;

    // turn only
    private SQLiteConnection connection;

    // tick only (the timer's single thread)
    private long lastSize = -1;
    private FileTime lastModified;
    private long lastChangeNanos;
    private FileTime checkpointedAt;
    private long truncateTriedNanos;
    private boolean truncateTried;

    public Checkpointer(Path path, String name, Synchronous synchronous, WorkerPool pool,
            ConnectionBudget budget, Clock clock, Identity identity, Stats stats,
            MetricsReporter metrics, ConnectionSettings settings) {
        this.metrics = metrics;
        this.path = path;
        this.wal = walOf(path);
        this.name = name;
        this.synchronous = synchronous;
        this.pool = pool;
        this.budget = budget;
        this.clock = clock;
        this.identity = identity;
        this.stats = stats;
        this.settings = settings;
    }

    /** The {@code -wal} file of a database. */
    static Path walOf(Path database) {
        return database.resolveSibling(database.getFileName() + "-wal");
    }

    /** The size of a database's WAL file now, 0 when there is none. Plain file I/O. */
    public static long walBytes(Path database) {
        try {
            return Files.size(walOf(database));
        } catch (IOException e) {
            return 0;
        }
    }

    /** Starts looking at the WAL on the runtime's timer. */
    public void start(Timer timer) {
        lock.lock();
        try {
            if (!closing && ticking == null) {
                lastChangeNanos = clock.nanoTime();
                ticking = timer.scheduleWithFixedDelay(this::tick, TICK.toNanos());
            }
        } finally {
            lock.unlock();
        }
    }

    /** One look at the WAL file; asks for a turn when a checkpoint is due. Timer thread only. */
    void tick() {
        try {
            long size;
            FileTime modified;
            try {
                BasicFileAttributes a = Files.readAttributes(wal, BasicFileAttributes.class);
                size = a.size();
                modified = a.lastModifiedTime();
            } catch (NoSuchFileException e) {
                size = 0;
                modified = null;
            }
            long now = clock.nanoTime();
            if (size != lastSize || !java.util.Objects.equals(modified, lastModified)) {
                lastSize = size;
                lastModified = modified;
                lastChangeNanos = now;
                truncateTried = false;
            }
            if (size == 0) {
                return;
            }
            if (size >= WAL_THRESHOLD_BYTES && !modified.equals(checkpointedAt)) {
                checkpointedAt = modified;
                request(Kind.PASSIVE);
            } else if (now - lastChangeNanos >= QUIET.toNanos()
                    && (!truncateTried || now - truncateTriedNanos >= QUIET.toNanos())) {
                truncateTried = true;
                truncateTriedNanos = now;
                request(Kind.TRUNCATE);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("{}: the checkpointer could not look at {}", name, wal, e);
        }
    }

    /** Asks for a checkpoint of at least {@code kind}; runs as a background turn soon. */
    void request(Kind kind) {
        boolean submit = false;
        lock.lock();
        try {
            if (closing) {
                return;
            }
            if (pending == null || kind.compareTo(pending) > 0) {
                pending = kind;
            }
            if (state == Run.IDLE) {
                state = Run.SCHEDULED;
                submit = true;
            }
        } finally {
            lock.unlock();
        }
        if (submit) {
            pool.submit(this);
        }
    }

    @Override
    public boolean background() {
        return true;
    }

    @Override
    public void runTurn() {
        Kind kind;
        boolean close;
        lock.lock();
        try {
            state = Run.RUNNING;
            kind = pending;
            pending = null;
            close = closing;
        } finally {
            lock.unlock();
        }
        if (!close && kind != null) {
            try {
                checkpoint(kind);
            } catch (Throwable e) {
                stats.failed(kind.name(), e);
                log.warn("{}: background {} checkpoint failed", name, kind, e);
                closeConnection(); // reopened (and re-checked) by the next turn
            }
        }
        boolean again = false;
        lock.lock();
        try {
            close = closing;
            if (!close && pending != null) {
                state = Run.SCHEDULED;
                again = true;
            } else {
                state = Run.IDLE;
            }
        } finally {
            lock.unlock();
        }
        if (close) {
            closeConnection();
            closed.complete(null);
        } else if (again) {
            pool.submit(this);
        }
    }

    private void checkpoint(Kind kind) throws SQLException {
        SQLiteConnection c = connection;
        if (c == null) {
            if (!SqliteConnections.isWalDatabase(path)) {
                return; // the writer has not created the database yet
            }
            long openStart = clock.nanoTime();
            try {
                c = open();
            } catch (SQLException | RuntimeException e) {
                metrics.checkpointFailed(CheckpointType.valueOf(kind.name()),
                        CheckpointTrigger.DEDICATED, clock.nanoTime() - openStart);
                throw e;
            }
            connection = c;
        }
        String mode = kind.name();
        CheckpointResult result;
        if (kind == Kind.TRUNCATE) {
            result = runWaiting(c, mode);
        } else {
            result = run(c, mode, CheckpointTrigger.DEDICATED, metrics, clock);
            if (!result.complete()) {
                stats.record(mode, result);
                mode = "RESTART"; // see the class comment: only a complete checkpoint resets the WAL
                result = runWaiting(c, mode);
            }
        }
        stats.record(mode, result);
        if (result.busy()) {
            log.debug("{}: {} checkpoint was busy: {}", name, mode, result);
        }
    }

    /** A blocking checkpoint mode, waiting at most {@link #LOCK_WAIT} for its locks. */
    private CheckpointResult runWaiting(SQLiteConnection c, String mode)
            throws SQLException {
        c.setBusyTimeout((int) LOCK_WAIT.toMillis());
        try {
           return run(c, mode, CheckpointTrigger.DEDICATED, metrics, clock);
        } finally {
            c.setBusyTimeout(0);
        }
    }

    private SQLiteConnection open() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setOpenMode(SQLiteOpenMode.READWRITE);
        config.setBusyTimeout(0); // never wait: a busy checkpoint is simply tried again later
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.name()));
        config.setPragma(SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, "0");
        SQLiteConnection c = SqliteConnections.open(config, path,
                SqliteConnections.Limits.LOCKED_DOWN);
        budget.opened();
        try {
            c.getConnectionConfig().setAutoCommit(false); // manual mode, as every connection
            identity.onReaderOpened(c);
            settings.apply(c, ConnectionSettings.Role.CHECKPOINTER);
            return c;
        } catch (SQLException | RuntimeException e) {
            try {
                c.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            budget.closed();
            throw e;
        }
    }

    /**
     * {@link #run(java.sql.Connection, String)}, timed on {@code clock} and reported to {@code
     * metrics} as a run of {@code trigger}, or as failed when it throws.
     */
    public static CheckpointResult run(java.sql.Connection c, String mode,
            CheckpointTrigger trigger, MetricsReporter metrics, Clock clock) throws SQLException {
        CheckpointType type = CheckpointType.valueOf(mode);
        long start = clock.nanoTime();
        try {
            CheckpointResult result = run(c, mode);
            metrics.checkpoint(type, trigger, clock.nanoTime() - start, result);
            return result;
        } catch (SQLException | RuntimeException e) {
            metrics.checkpointFailed(type, trigger, clock.nanoTime() - start);
            throw e;
        }
    }

    /** Runs {@code PRAGMA wal_checkpoint(mode)} on {@code c} and returns its report. */
    public static CheckpointResult run(java.sql.Connection c, String mode) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(" + mode + ")")) {
            if (!rs.next()) {
                throw new SQLException("PRAGMA wal_checkpoint(" + mode + ") returned no row");
            }
            return new CheckpointResult(rs.getInt(1) != 0, rs.getInt(2), rs.getInt(3));
        }
    }

    // turn only
    private void closeConnection() {
        SQLiteConnection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                log.warn("{}: closing the checkpointer's connection failed", name, e);
            }
            budget.closed();
        }
    }

    /**
     * Stops the checkpointer: no more ticks or checkpoints; its connection closes on a pool
     * thread.
     *
     * @return completes once its connection is closed
     */
    public CompletableFuture<Void> close() {
        boolean submit = false;
        lock.lock();
        try {
            if (!closing) {
                closing = true;
                pending = null;
                if (ticking != null) {
                    ticking.cancel();
                }
                if (state == Run.IDLE) {
                    state = Run.SCHEDULED;
                    submit = true;
                }
            }
        } finally {
            lock.unlock();
        }
        if (submit) {
            pool.submit(this);
        }
        return closed;
    }

    /**
     * The checkpoint record of one database, whoever ran them (the checkpointer, {@link
     * dev.lanes.Database#checkpoint()}). Thread-safe: one volatile snapshot, replaced whole by
     * compare-and-set ({@link #SNAPSHOT}), so that concurrent records never lose one another;
     * every database starts from the one shared {@link #NONE}.
     */
    public static final class Stats {
        private record Snapshot(CheckpointResult last, String lastMode, Instant lastAt, long count,
                long failures, String lastFailure) {}

        private static final Snapshot NONE = new Snapshot(null, null, null, 0, 0, null);
        private static final VarHandle SNAPSHOT =
                VarHandles.field(MethodHandles.lookup(), "snapshot", Snapshot.class);

        private final CheckpointMode mode;
        private volatile Snapshot snapshot = NONE;

        public Stats(CheckpointMode mode) {
            this.mode = mode;
        }

        public void record(String how, CheckpointResult result) {
            update(s -> new Snapshot(result, how, Instant.now(), s.count + 1, s.failures,
                    s.lastFailure));
        }

        public void failed(String how, Throwable cause) {
            update(s -> new Snapshot(s.last, s.lastMode, s.lastAt, s.count, s.failures + 1,
                    how + ": " + cause));
        }

        private void update(UnaryOperator<Snapshot> change) {
            Snapshot s;
            do {
                s = snapshot;
            } while (!SNAPSHOT.compareAndSet(this, s, change.apply(s)));
        }

        /** The diagnostics view, with the WAL's size read now from the file system. */
        public DatabaseDiagnostics.Checkpoints view(Path database) {
            Snapshot s = snapshot;
            return new DatabaseDiagnostics.Checkpoints(mode, walBytes(database),
                    Optional.ofNullable(s.last), Optional.ofNullable(s.lastMode),
                    Optional.ofNullable(s.lastAt), s.count, s.failures,
                    Optional.ofNullable(s.lastFailure));
        }
    }
}
