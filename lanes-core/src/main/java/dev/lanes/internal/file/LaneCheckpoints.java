package dev.lanes.internal.file;

import dev.lanes.CheckpointResult;
import dev.lanes.MetricsListener.CheckpointTrigger;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConnection;

/**
 * The checkpoints a {@link Checkpointer} runs on its database's writer lane ({@link
 * Checkpointer.OnWriter}): each a turn of the lane's own, queued behind the writes already
 * waiting, on the writer connection, where no write can add frames, nor any commit run,
 * meanwhile. At most one is in the lane's queue at a time. They are
 * <ul>
 *   <li>the tail of a checkpoint whose bulk the checkpointer copied on its own connection
 *       ({@link #finish}), and
 *   <li>on a SQLite with the WAL-reset bug, every checkpoint whole ({@link #run}): the
 *       checkpointer then never checkpoints on a connection of its own.
 * </ul>
 * A checkpoint the lane refuses (closing, poisoned, corked) or that fails is left to the next
 * look; a failure leaves every frame in the WAL and does not poison the writer.
 *
 * <p>Thread-safe: {@link #queued} is set by compare-and-set by the checkpointer's turn that
 * queues one, and cleared by whoever completes it; {@link #truncateOwed} is written when one
 * completes and read by the checkpointer's ticks.
 */
final class LaneCheckpoints {
    private static final Logger log = LoggerFactory.getLogger(LogNames.FILES);
    private static final VarHandle QUEUED =
            VarHandles.field(MethodHandles.lookup(), "queued", boolean.class);

    private final String name;
    private final Checkpointer.OnWriter onWriter;
    private final Supplier<CheckpointRecord> record;
    private final MetricsReporter metrics;
    private final Clock clock;

    /** Whether one is in the lane's queue. */
    private volatile boolean queued;
    /**
     * Whether a checkpoint run whole on the lane copied frames since the last {@code TRUNCATE}
     * that was not busy: the quiet period then truncates the WAL.
     */
    private volatile boolean truncateOwed;

    LaneCheckpoints(String name, Checkpointer.OnWriter onWriter, Supplier<CheckpointRecord> record,
            MetricsReporter metrics, Clock clock) {
        this.name = name;
        this.onWriter = onWriter;
        this.record = record;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Whether one is queued on the lane now. */
    boolean queued() {
        return queued;
    }

    /** Whether the WAL should be truncated once the database is quiet; see {@link #run}. */
    boolean truncateOwed() {
        return truncateOwed;
    }

    /**
     * Queues the tail of a checkpoint that copied what it could ({@code bulk}, run in {@code
     * bulkMode}): a {@code RESTART} that copies the frames left, then waits at most {@code wait}
     * for the readers still reading frames of the WAL (new readers read the database file
     * alone), so that the next write starts the WAL over. The two are one checkpoint in the
     * record: the tail's result is recorded, or the bulk's when no tail ran.
     */
    void finish(String bulkMode, CheckpointResult bulk, Duration wait) {
        queue("RESTART", wait, (result, failure) -> {
            if (failure == null) {
                record.get().record("RESTART", result);
            } else {
                record.get().record(bulkMode, bulk);
                log.debug("{}: a checkpoint's tail on the writer failed: {}", name,
                        failure.toString());
            }
        }, () -> record.get().record(bulkMode, bulk));
    }

    /**
     * Queues a whole checkpoint in {@code mode} ({@code RESTART} or {@code TRUNCATE}), waiting at
     * most {@code wait} for readers; one queued already stands for it.
     */
    void run(String mode, Duration wait) {
        queue(mode, wait, (result, failure) -> {
            if (failure == null) {
                record.get().record(mode, result);
                // a TRUNCATE that was not busy emptied the WAL; anything else leaves it to one
                truncateOwed = mode.equals("TRUNCATE") ? result.busy() : true;
            } else {
                record.get().failed(mode, failure);
                log.debug("{}: a {} checkpoint on the writer failed: {}", name, mode,
                        failure.toString());
            }
        }, () -> { });
    }

    private void queue(String mode, Duration wait,
            java.util.function.BiConsumer<CheckpointResult, Throwable> done, Runnable notRun) {
        if (!QUEUED.compareAndSet(this, false, true)) {
            notRun.run();
            return;
        }
        CompletableFuture<CheckpointResult> f;
        try {
            f = onWriter.run(c -> runWaiting(c, mode, wait, metrics, clock));
        } catch (RuntimeException refused) {
            queued = false;
            notRun.run();
            log.debug("{}: the writer refused a checkpoint: {}", name, refused.toString());
            return;
        }
        f.whenComplete((result, failure) -> {
            queued = false;
            done.accept(result, failure);
        });
    }

    /**
     * A blocking checkpoint mode on {@code c}, waiting at most {@code wait} for its locks; the
     * connection's busy timeout is put back after (0 on the checkpointer's own, the writer's on
     * the writer's).
     */
    static CheckpointResult runWaiting(Connection c, String mode, Duration wait,
            MetricsReporter metrics, Clock clock) throws SQLException {
        long busyTimeout;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA busy_timeout")) {
            rs.next();
            busyTimeout = rs.getLong(1);
        }
        setBusyTimeout(c, wait.toMillis());
        try {
            return Checkpointer.run(c, mode, CheckpointTrigger.DEDICATED, metrics, clock);
        } finally {
            setBusyTimeout(c, busyTimeout);
        }
    }

    /**
     * Sets the busy timeout on the driver's connection itself: Lanes owns the pragma, which the
     * guard of a body on the writer refuses in SQL.
     */
    private static void setBusyTimeout(Connection c, long millis) throws SQLException {
        SQLiteConnection raw = c instanceof SQLiteConnection ? (SQLiteConnection) c
                : c.unwrap(SQLiteConnection.class);
        raw.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, millis));
    }
}
