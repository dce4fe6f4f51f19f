package dev.lanes.internal.file;

import dev.lanes.CheckpointMode;
import dev.lanes.CheckpointResult;
import dev.lanes.MetricsListener.CheckpointTrigger;
import dev.lanes.MetricsListener.CheckpointType;
import dev.lanes.SqlFunction;
import dev.lanes.Synchronous;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.PathCopy;
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
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteOpenMode;

/**
 * The background checkpointer of a database in {@link CheckpointMode#DEDICATED} mode: it owns
 * WAL reclamation, so no commit pays for a checkpoint while it keeps up; the writer's {@code
 * wal_autocheckpoint} is only a backstop for when it falls behind ({@code
 * SqliteConnections.writerAutocheckpointPages}).
 *
 * <h2>Policy</h2>
 * The checkpointer is <em>active</em> only while its database is being written: the writer lane
 * tells it after every turn ({@link #wrote}), and the first such call starts a look at the
 * {@code -wal} file every {@link #TICK} on the runtime's timer (one {@code stat}, no SQLite).
 * A WAL at or past {@link #WAL_THRESHOLD_BYTES} that changed since the last checkpoint gets a
 * {@code PASSIVE} checkpoint, which copies frames without waiting for any lock and never blocks
 * the writer or a reader. Under sustained writes a passive checkpoint never quite catches up
 * (frames keep arriving while it copies), and SQLite starts the WAL over only after a checkpoint
 * that did, once no reader is still reading its frames. So:
 * <ul>
 *   <li>when the passive one left frames behind, a {@code RESTART} follows on the same
 *       connection, waiting at most {@link #RESTART_WAIT} for the write lock and for readers;
 *       that is enough for a writer that pauses between writes, and when it succeeds the next
 *       write starts the WAL over;
 *   <li>when it did not, or when the passive one looked complete (it is complete only up to the
 *       end the WAL had when it began, and the writer may have added frames since), the tail is
 *       finished on the writer lane ({@link OnWriter}): a turn of the lane's own, queued behind
 *       the writes already waiting, runs {@code RESTART} on the writer connection, where no
 *       write can add frames meanwhile, waiting at most {@link #TAIL_WAIT} for readers. The
 *       writes are held up only for that tail. One tail is in the lane's queue at a time.
 * </ul>
 * Writers that never pause hand SQLite's write lock from one group to the next within
 * microseconds, so a checkpoint on another connection that must take it through the busy
 * handler's sleeps never gets it: before the tail, the WAL grew by everything written (270 MB in
 * 8 s of 64 writers here).
 *
 * <p>Once no write came for {@link #QUIET}: a database that was checkpointed while active gets a
 * {@code TRUNCATE} checkpoint, which shrinks the WAL to zero bytes, and its connection closes;
 * then (or at once, for a WAL that never reached the threshold, which is left as SQLite's own
 * autocheckpoint would leave it) the looks stop until the next write. So an idle database costs
 * no timer task and no connection, and a database that is never written past the threshold never
 * opens one. A {@code TRUNCATE} that cannot get its locks within {@link #LOCK_WAIT} keeps the
 * connection and is tried again after another quiet period. The checkpoints run as background
 * turns on the runtime's pool, on the checkpointer's own read-write connection (opened when the
 * first checkpoint of an active period runs, counted in the connection budget), never on the
 * writer's.
 *
 * <h2>On a SQLite with the WAL-reset bug</h2>
 * There the checkpointer opens no connection: every checkpoint runs whole on the writer lane
 * ({@link LaneCheckpoints#run}), a {@code RESTART} for a WAL past the threshold and the quiet
 * period's {@code TRUNCATE}, so that no checkpoint ever runs beside a commit of another
 * connection (ARCHITECTURE.md, "The WAL-reset bug"). The writes wait for the copy.
 *
 * <h2>Concurrency</h2>
 * {@link #state}, {@link #pending}, {@link #closing} and {@link #ticking} are guarded by {@link
 * #lock}. Like the writer lane, the task is in one of three run states ({@code IDLE},
 * {@code SCHEDULED}, {@code RUNNING}); only the party moving it out of {@code IDLE} submits it to
 * the pool, so it never runs on two threads at once. The connection is used only by the turn
 * holder (a pool thread, always a platform thread), and opened and closed only by a turn, which
 * publishes whether it holds one in {@link #connected}. The {@code tick} fields are touched only
 * by the timer's single thread. {@link #onLane} is thread-safe. The {@link CheckpointRecord} is
 * shared with {@link dev.lanes.Database#checkpoint()}'s path, made by whichever records first,
 * and publishes through a volatile field. Each run, and
 * each failure (opening the connection included), is reported to the metrics listener by the
 * turn that ran it.
 *
 * <p>A checkpointer lives for one active period. The tick that ends the period, with no
 * connection held and no turn asked for, <em>retires</em> it ({@link #retired}, under the lock)
 * and tells its owner, which drops it; the next write makes a new one. So an idle database holds
 * no checkpointer at all. No write is missed at the hand-over: {@link #wrote} sets {@link
 * #written} and then reads {@link #active}; the ending tick clears {@link #active} and then reads
 * {@link #written} (both volatile). Whichever order the two threads run in, one of them sees the
 * other's write: the writer finds the looks stopped and starts them (or, finding the checkpointer
 * retired, has its owner make a new one), or the tick sees the write and starts them again.
 */
public final class Checkpointer implements WorkerPool.Task {
    private static final Logger log = LoggerFactory.getLogger(LogNames.FILES);

    /** A WAL this large that grew since the last checkpoint gets a {@code PASSIVE} one. */
    static final long WAL_THRESHOLD_BYTES = 4L * 1024 * 1024;
    /** How often the timer looks at the WAL file while the database is active. */
    static final Duration TICK = Duration.ofMillis(250);
    /** How long without a write ends an active period (and truncates a checkpointed WAL). */
    static final Duration QUIET = Duration.ofSeconds(2);
    /**
     * How long a checkpoint's tail on the writer waits for readers to leave the WAL. Every queued
     * write waits too, so it is short; but shorter than a typical read, and the WAL rarely starts
     * over beside a reader that takes snapshot after snapshot (20 ms let the WAL grow to 33 MB
     * where 100 ms kept it under 10 MB). A tail that gives up leaves the WAL to the next look.
     */
    static final Duration TAIL_WAIT = Duration.ofMillis(100);
    /**
     * How long the {@code RESTART} after an incomplete {@code PASSIVE} waits on the checkpointer's
     * connection for the write lock and for readers: enough for a writer that pauses between
     * writes; one that never pauses does not let go of the lock at all, and the tail on the
     * writer lane takes over sooner the shorter this is.
     */
    static final Duration RESTART_WAIT = Duration.ofMillis(10);
    /** How long a {@code TRUNCATE} waits for the write lock and for readers. */
    static final Duration LOCK_WAIT = Duration.ofMillis(100);

    private static final VarHandle WRITTEN =
            VarHandles.field(MethodHandles.lookup(), "written", boolean.class);

    private enum Run { IDLE, SCHEDULED, RUNNING }

    /**
     * Runs a checkpoint's body on the database's writer lane, as a turn of its own queued behind
     * the work already there, on the writer connection.
     */
    @FunctionalInterface
    public interface OnWriter {
        /** Queues {@code body}; the future completes with its result, or fails as a write would. */
        CompletableFuture<CheckpointResult> run(SqlFunction<CheckpointResult> body);
    }

    /** The checkpoint modes the checkpointer runs, weakest first. */
    enum Kind { PASSIVE, TRUNCATE }

    private final Path path;
    private final String name;
    private final Synchronous synchronous;
    private final WorkerPool pool;
    private final ConnectionBudget budget;
    private final Clock clock;
    private final Timer timer;
    private final Identity identity;
    private final ConnectionSettings settings;
    /**
     * The database's checkpoint record, asked for only when a checkpoint is recorded: a database
     * whose WAL never grew enough for one (most tenants) then never makes it.
     */
    private final Supplier<CheckpointRecord> stats;
    private final MetricsReporter metrics;
    private final Consumer<Checkpointer> onRetired;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    /** A write came since the last tick looked; set by {@link #wrote}, cleared by a tick. */
    private volatile boolean written;
    /** The looks are scheduled; written under {@link #lock}, read by {@link #wrote} without. */
    private volatile boolean active;
    /** Whether the turn holds a connection; written by turns only, read by ticks. */
    private volatile boolean connected;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private Run state = Run.IDLE;
    private Kind pending;
    private boolean closing;
    private boolean retired;
    private Timer.Scheduled ticking;

    // turn only
    private SQLiteConnection connection;

    /** Runs checkpoints, or their tails, on the writer lane (see the class comment). */
    private final LaneCheckpoints onLane;
    /** Whether every checkpoint runs whole on the writer lane: a SQLite with the WAL-reset bug. */
    private final boolean onWriterOnly;

    // tick only (the timer's single thread)
    private long lastSize = -1;
    private FileTime lastModified;
    private long lastChangeNanos;
    private FileTime checkpointedAt;
    private long truncateTriedNanos;
    private boolean truncateTried;

    public Checkpointer(Path path, String name, Synchronous synchronous, WorkerPool pool,
            ConnectionBudget budget, Clock clock, Timer timer, Identity identity,
            Supplier<CheckpointRecord> stats, MetricsReporter metrics, ConnectionSettings settings,
            Consumer<Checkpointer> onRetired, OnWriter onWriter, boolean onWriterOnly) {
        this.metrics = metrics;
        this.onLane = new LaneCheckpoints(name, onWriter, stats, metrics, clock);
        this.onWriterOnly = onWriterOnly;
        this.onRetired = onRetired;
        this.path = path;
        this.name = name;
        this.synchronous = synchronous;
        this.pool = pool;
        this.budget = budget;
        this.clock = clock;
        this.timer = timer;
        this.identity = identity;
        this.stats = stats;
        this.settings = settings;
    }

    /**
     * A checkpointer that is closed from the start: {@link #wrote} does nothing and {@link
     * #close} is complete. It stands in for one that a closed database will never make.
     */
    public static Checkpointer closedOne() {
        Checkpointer c = new Checkpointer(null, null, null, null, null, null, null, null, null,
                null, null, null, null, false);
        c.closing = true;
        c.closed.complete(null);
        return c;
    }

    /** The {@code -wal} file of a database, named from a copy of its path ({@link PathCopy}). */
    static Path walOf(Path database) {
        Path copy = PathCopy.of(database);
        return copy.resolveSibling(copy.getFileName() + "-wal");
    }

    /**
     * The size of a database's WAL file now, 0 when there is none or it cannot be read. Plain
     * file I/O, and no exception for a missing file (which is common: see {@link #tick}).
     */
    public static long walBytes(Path database) {
        return walOf(database).toFile().length();
    }

    /**
     * The database was just written (a writer turn served requests): starts the looks at the WAL
     * if they are not running. Called on the writer's turn holder after every turn, so it costs
     * a volatile write and a volatile read when the checkpointer is already active.
     *
     * @return false when this checkpointer is retired: the owner must make a new one and tell it
     */
    public boolean wrote() {
        written = true;
        return active || activate();
    }

    /** Whether the looks at the WAL are scheduled now; for tests. */
    boolean active() {
        return active;
    }

    /** @return false when retired */
    private boolean activate() {
        lock.lock();
        try {
            if (retired) {
                return false;
            }
            if (closing || ticking != null) {
                return true;
            }
            try {
                ticking = timer.scheduleWithFixedDelay(this::tick, TICK.toNanos());
            } catch (RejectedExecutionException e) {
                return true; // the runtime is shutting down; its close closes this checkpointer
            }
            active = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the active period and retires the checkpointer, unless a checkpoint is still asked for
     * or running (its turn may open the connection, which only a later quiet {@code TRUNCATE}
     * closes) or the close has begun; timer thread only. When a write came meanwhile, the period
     * goes on instead.
     */
    private void deactivate() {
        boolean retire;
        lock.lock();
        try {
            if (state != Run.IDLE || pending != null || closing) {
                return;
            }
            ticking.cancel();
            ticking = null;
            active = false;
            retire = !written; // after clearing active: see the class comment
            retired = retire;
        } finally {
            lock.unlock();
        }
        if (retire) {
            onRetired.accept(this);
        } else {
            activate();
        }
    }

    /** One look at the WAL file; asks for a turn when a checkpoint is due. Timer thread only. */
    void tick() {
        Path wal = walOf(path);
        try {
            long size;
            FileTime modified;
            // The WAL is often gone (the writer's last close deleted it): File.exists answers
            // without the two exceptions (with stack traces) a missing file costs readAttributes,
            // which were most of the timer thread's time at thousands of evicted tenants.
            BasicFileAttributes a = null;
            if (wal.toFile().exists()) {
                try {
                    a = Files.readAttributes(wal, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    // deleted since: as if it had been missing
                }
            }
            size = a == null ? 0 : a.size();
            modified = a == null ? null : a.lastModifiedTime();
            long now = clock.nanoTime();
            // A WAL emptied (by a TRUNCATE) was not written; a write is seen through wrote(), or,
            // for a writer other than the lane, through the file's size or time.
            boolean wroteSince = (boolean) WRITTEN.getAndSet(this, false);
            if (wroteSince || (size != 0
                    && (size != lastSize || !Objects.equals(modified, lastModified)))) {
                lastChangeNanos = now;
                truncateTried = false;
            }
            lastSize = size;
            lastModified = modified;
            if (size >= WAL_THRESHOLD_BYTES && !modified.equals(checkpointedAt)) {
                checkpointedAt = modified;
                request(Kind.PASSIVE);
            } else if (now - lastChangeNanos >= QUIET.toNanos()) {
                quiet(now);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("{}: the checkpointer could not look at {}", name, wal, e);
        }
    }

    /** No write for {@link #QUIET}: truncate a checkpointed WAL, or stop looking. */
    private void quiet(long now) {
        boolean checkpointed = onWriterOnly ? onLane.truncateOwed() || onLane.queued() : connected;
        if (!checkpointed) {
            deactivate();
        } else if (!truncateTried || now - truncateTriedNanos >= QUIET.toNanos()) {
            truncateTried = true;
            truncateTriedNanos = now;
            request(Kind.TRUNCATE);
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
                stats.get().failed(kind.name(), e);
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
        if (onWriterOnly) {
            if (SqliteConnections.isWalDatabase(path)) {
                onLane.run(kind == Kind.PASSIVE ? "RESTART" : "TRUNCATE",
                        kind == Kind.PASSIVE ? TAIL_WAIT : LOCK_WAIT);
            }
            return;
        }
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
            connected = true;
        }
        String mode = kind.name();
        if (kind == Kind.PASSIVE) {
            CheckpointResult passive = run(c, mode, CheckpointTrigger.DEDICATED, metrics, clock);
            if (!passive.complete()) {
                stats.get().record(mode, passive);
                CheckpointResult restart = LaneCheckpoints.runWaiting(c, "RESTART", RESTART_WAIT,
                        metrics, clock);
                if (!restart.busy()) {
                    stats.get().record("RESTART", restart); // the next write starts the WAL over
                    return;
                }
                onLane.finish("RESTART", restart, TAIL_WAIT); // it could not take the lock in time
                return;
            }
            // A result that looks complete is complete only up to the WAL's end when the
            // checkpoint began, and the writer may have added frames since (see the class comment).
            onLane.finish(mode, passive, TAIL_WAIT);
            return;
        }
        CheckpointResult result = LaneCheckpoints.runWaiting(c, mode, LOCK_WAIT, metrics, clock);
        if (!result.busy()) {
            closeConnection(); // the database is quiet: see the class comment
        }
        stats.get().record(mode, result);
        if (result.busy()) {
            log.debug("{}: {} checkpoint was busy: {}", name, mode, result);
        }
    }

    private SQLiteConnection open() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setOpenMode(SQLiteOpenMode.READWRITE);
        config.setBusyTimeout(0); // never wait: a busy checkpoint is simply tried again later
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.name()));
        SQLiteConnection c = SqliteConnections.open(config, path,
                SqliteConnections.Limits.LOCKED_DOWN);
        budget.opened();
        try {
            SqliteConnections.walAutocheckpoint(c, 0);
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
        connected = false;
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
                    ticking = null;
                }
                active = false;
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
}
