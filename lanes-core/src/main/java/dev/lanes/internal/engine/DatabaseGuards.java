package dev.lanes.internal.engine;

import dev.lanes.CheckpointMode;
import dev.lanes.CheckpointResult;
import dev.lanes.ClosingException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.IdentityMismatchException;
import dev.lanes.InvalidRequestException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.Backup;
import dev.lanes.internal.file.CheckpointRecord;
import dev.lanes.internal.file.Checkpointer;
import dev.lanes.internal.file.Identity;
import dev.lanes.internal.file.Lease;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.VarHandles;
import dev.lanes.internal.writer.WriterLane;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The guards of one database, held by its {@link DatabaseImpl}: the {@link Lease}, the {@link
 * Identity}, checkpoint ownership (the {@link Checkpointer} in {@link CheckpointMode#DEDICATED}
 * mode, and the checkpoint record), and {@link Backup}s in flight.
 *
 * <h2>Release order</h2>
 * The lease is the last thing a database lets go of: {@link #afterClose} chains, behind the
 * close of the writer lane and the reader set, the close of the checkpointer's connection and the
 * end of every backup in flight, and only then releases the lease. This holds however the close
 * was started (close, shutdownNow, the runtime's close, an identity mismatch) and however long it
 * takes: a close that timed out for its caller still releases the lease when it really ends.
 *
 * <p>Concurrency: the fields are final or thread-safe; {@link #closing} is set once, by
 * compare-and-set ({@link #CLOSING}), so the chain is built once whoever closes first. {@link
 * #backups} is made by the first backup or by the close, whichever comes first (most databases
 * never back up, and hold no tracker until they close), and set once by compare-and-set ({@link
 * #BACKUPS}), so that a backup and the close always meet in the same tracker; the tracker is
 * thread-safe and its fields are final, so whoever reads the volatile field sees it whole. {@link
 * #checkpointer} is made by a write when there is none, and set back to null by the one it holds
 * when that one retires (both by compare-and-set, so neither undoes a newer one); the close swaps
 * in {@link #CLOSED_CHECKPOINTER} (getAndSet), so a write that races the close meets either a real
 * checkpointer, which the close then closes, or the closed one, and never makes one after it.
 * {@link #checkpoints}, the record, is made by the first checkpoint recorded (the checkpointer's
 * or a manual one) and set once by compare-and-set, so that every recorder shares it; it is
 * lock-free and thread-safe.
 */
final class DatabaseGuards {
    private static final Logger log = LoggerFactory.getLogger(LogNames.FILES);

    private final Path path;
    private final String name;
    private final DatabaseOptions options;
    private final Lease lease;
    private final Identity identity;
    /** Null until the first checkpoint is recorded; see {@link #checkpoints()}. */
    private volatile CheckpointRecord checkpoints;
    /**
     * The checkpointer of the active period in {@link CheckpointMode#DEDICATED} mode: null while
     * the database is not being written (most databases of a large fleet, which so hold none),
     * made by a write, dropped by the checkpointer itself when it retires; {@link
     * #CLOSED_CHECKPOINTER} once the close took it over. Changed only by compare-and-set ({@link
     * #CHECKPOINTER}).
     */
    private volatile Checkpointer checkpointer;
    /** Null until the first backup or the close; see {@link #backups()}. */
    private volatile Backup.Tracker backups;
    private final WorkerPool pool;
    private final LanesRuntime runtime;
    private final MetricsReporter metrics;
    private volatile CompletableFuture<Void> closing;

    private static final VarHandle CLOSING =
            VarHandles.field(MethodHandles.lookup(), "closing", CompletableFuture.class);
    private static final VarHandle CHECKPOINTER =
            VarHandles.field(MethodHandles.lookup(), "checkpointer", Checkpointer.class);
    private static final Checkpointer CLOSED_CHECKPOINTER = Checkpointer.closedOne();
    private static final VarHandle CHECKPOINTS =
            VarHandles.field(MethodHandles.lookup(), "checkpoints", CheckpointRecord.class);
    private static final VarHandle BACKUPS =
            VarHandles.field(MethodHandles.lookup(), "backups", Backup.Tracker.class);

    /**
     * @param onMismatch told once when a new connection finds the file swapped; the database
     *     must stop using its connections (it goes dead)
     */
    DatabaseGuards(Path path, String name, DatabaseOptions options, Lease lease, WorkerPool pool,
            LanesRuntime runtime, MetricsReporter metrics,
            Consumer<IdentityMismatchException> onMismatch) {
        this.path = path;
        this.name = name;
        this.options = options;
        this.lease = lease;
        this.pool = pool;
        this.runtime = runtime;
        this.metrics = metrics;
        this.identity = new Identity(path, name, options.identityCheck(),
                options.diskReserveBytes(), lease, onMismatch);
    }

    /**
     * The checkpoint record, made once by the first checkpoint recorded, the checkpointer's or a
     * manual one (a database that never checkpointed holds none), and set by compare-and-set, so
     * that every recorder shares it.
     */
    private CheckpointRecord checkpoints() {
        CheckpointRecord s = checkpoints;
        return s != null ? s : VarHandles.getOrSet(CHECKPOINTS, this,
                () -> new CheckpointRecord(options.checkpointMode()));
    }

    /** The database's metrics reporter, which its reads report through too. */
    MetricsReporter metrics() {
        return metrics;
    }

    /** The backups in flight; the tracker is made on first use, once. */
    private Backup.Tracker backups() {
        return VarHandles.getOrSet(BACKUPS, this, () -> new Backup.Tracker(name));
    }

    /**
     * The database was just written (a writer turn served requests). In {@link
     * CheckpointMode#DEDICATED} mode this makes the checkpointer on the first call and tells it
     * on every call; see {@link Checkpointer} for what it does then.
     *
     * @param onWriter runs the tail of a checkpoint on the writer lane
     */
    void wrote(Checkpointer.OnWriter onWriter) {
        if (options.checkpointMode() != CheckpointMode.DEDICATED) {
            return;
        }
        for (;;) {
            Checkpointer c = checkpointer;
            if (c == null) {
                Checkpointer made = new Checkpointer(path, name, options.synchronous(), pool,
                        runtime.budget(), runtime.clock(), runtime.timer(), identity,
                        this::checkpoints, metrics, ConnectionSettings.of(options),
                        retired -> CHECKPOINTER.compareAndSet(this, retired, null), onWriter,
                        runtime.checkpointsOnWriterOnly());
                if (!CHECKPOINTER.compareAndSet(this, null, made)) {
                    continue;
                }
                c = made;
            }
            if (c.wrote()) {
                return;
            }
            CHECKPOINTER.compareAndSet(this, c, null); // retired, and not yet dropped by its tick
        }
    }

    Identity identity() {
        return identity;
    }

    Lease lease() {
        return lease;
    }

    /** The identity mismatch found, if any: the database is dead. */
    IdentityMismatchException identityFailure() {
        return identity.failure();
    }

    /** Refuses work once the file was found swapped; the writer may not have noticed yet. */
    void checkIdentity() {
        IdentityMismatchException failure = identity.failure();
        if (failure != null) {
            throw new DatabaseDeadException(name + ": the database is dead ("
                    + failure.getMessage() + "); the request never ran", failure);
        }
    }

    /**
     * A {@code PASSIVE} checkpoint through the writer lane's top-level path, recorded for
     * diagnostics.
     *
     * @param maintenance runs a body on the lane's top-level path ({@code db.maintenance})
     * @throws InvalidRequestException in {@link CheckpointMode#EXTERNAL} mode
     */
    CheckpointResult checkpoint(
            java.util.function.Function<dev.lanes.SqlFunction<CheckpointResult>, CheckpointResult>
                    maintenance) {
        if (options.checkpointMode() == CheckpointMode.EXTERNAL) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": checkpointMode "
                    + "is EXTERNAL: another tool owns this database's checkpoints and Lanes never "
                    + "runs one; checkpoint with that tool, or open with another mode", null);
        }
        try {
            CheckpointResult result = maintenance.apply(c -> Checkpointer.run(c, "PASSIVE",
                    dev.lanes.MetricsListener.CheckpointTrigger.MANUAL, metrics, runtime.clock()));
            checkpoints().record("PASSIVE", result);
            return result;
        } catch (RuntimeException e) {
            checkpoints().failed("PASSIVE", e);
            throw e;
        }
    }

    /** The WAL's size now, 0 when there is none: one {@code stat}, no SQLite (a gauge). */
    long walBytes() {
        return Checkpointer.walBytes(path);
    }

    /** Checkpoint ownership and the WAL's size, for diagnostics (one {@code stat}, no SQLite). */
    DatabaseDiagnostics.Checkpoints checkpointDiagnostics() {
        CheckpointRecord s = checkpoints;
        // none recorded yet: an empty record's view, not kept
        return (s != null ? s : new CheckpointRecord(options.checkpointMode())).view(path);
    }

    /**
     * Backs the database up to {@code target}; see {@link Backup}. Opens the database first if
     * it is not open yet, so there is a file to copy.
     */
    void backup(Path target, WriterLane lane) {
        checkIdentity();
        switch (lane.state()) {
            case RUNNING:
                break;
            case CLOSING:
                throw new ClosingException(name + ": the database is closing; the backup never "
                        + "started");
            case CLOSED:
                throw backups().closed();
            case DEAD:
            default:
                throw new DatabaseDeadException(name + ": the database is dead; the backup never "
                        + "started", null);
        }
        Failures.join(lane.awaitReady());
        Backup.Tracker tracker = backups();
        tracker.enter();
        try {
            Backup.run(path, target, name, identity, runtime.budget(), pool, options.busyTimeout(),
                    ConnectionSettings.of(options));
        } finally {
            tracker.exit();
        }
    }

    /**
     * Chains the guards' own release behind {@code connectionsClosed} (the writer lane and the
     * reader set closed): the checkpointer's connection closes, backups in flight end, then the
     * lease is released. Built once; later calls return the same future.
     *
     * @return completes, as {@code connectionsClosed} did, once the lease is released
     */
    CompletableFuture<Void> afterClose(CompletableFuture<Void> connectionsClosed) {
        CompletableFuture<Void> existing = closing;
        if (existing != null) {
            return existing;
        }
        CompletableFuture<Void> chain = new CompletableFuture<>();
        if (!CLOSING.compareAndSet(this, null, chain)) {
            return closing;
        }
        connectionsClosed.whenComplete((v, laneFailure) -> {
            Checkpointer c = (Checkpointer) CHECKPOINTER.getAndSet(this, CLOSED_CHECKPOINTER);
            CompletableFuture<Void> checkpointerClosed = c == null
                    ? CompletableFuture.completedFuture(null) : c.close();
            checkpointerClosed
                    .thenCompose(x -> backups().close())
                    .whenComplete((x, e) -> {
                        if (e != null) {
                            log.warn("{}: closing the guards' connections failed", name, e);
                        }
                        lease.release();
                        if (laneFailure != null) {
                            chain.completeExceptionally(laneFailure);
                        } else {
                            chain.complete(null);
                        }
                    });
        });
        return chain;
    }
}
