package dev.lanes.internal.engine;

import dev.lanes.CheckpointMode;
import dev.lanes.internal.reader.ReaderSet;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Timer;
import dev.lanes.internal.util.VarHandles;
import dev.lanes.internal.writer.WriterLane;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When one database gives resources back while it stays open (its lease held, its next use
 * reopening what it needs):
 * <ul>
 *   <li>unused for {@code idleRelease}: memory ({@code PRAGMA shrink_memory} on the writer) and
 *       its idle reader connections, as a background turn of the pool;
 *   <li>chosen by the connection budget ({@link ConnectionBudget.Evictable}): every connection
 *       at once, the writer's and the idle readers', on the thread that needs the room.
 * </ul>
 * An eviction keeps the database's {@code -wal} and {@code -shm} files when it can: the last
 * connection of a database to close deletes them when it may write (after checkpointing), and
 * the next open creates them again. On ext4, creating files in a directory where many were just
 * deleted is slow (the inode allocator skips recently freed inodes), and at 100,000 tenants that
 * churn was the larger part of a cold open: about 2 ms against 0.4 ms with the files in place. So
 * when readers are open, the writer empties the WAL into the database ({@code
 * wal_checkpoint(TRUNCATE)}, which syncs as a close would) and closes first, and the readers,
 * which open read-only and never delete, close after it. A busy checkpoint, or no reader open,
 * closes as before: readers first, then the writer, which checkpoints and deletes.
 *
 * Both run as a turn of the writer lane ({@link WriterLane#releaseIfIdle}), so they never
 * overlap a write, and are skipped while the lane is in use or held by a transaction or cork.
 *
 * <h2>Concurrency</h2>
 * {@link #lastUsedNanos} and {@link #releasedSinceUse} are volatile stamps written by the uses
 * (the lane after each turn; reads at most about once a second, to keep reader threads off one
 * cache line). {@link #check} holds the pending check, null, or {@link #CLOSED}, and changes only
 * by compare-and-set ({@link #CHECK}; a database keeps no lock for it), so the timer holds at most
 * one pending check per database, whatever the number of uses: a use that finds none schedules
 * one and keeps it only if its compare-and-set wins (a loser cancels its own), and the close
 * swaps in {@link #CLOSED} and cancels what it replaced. A use that finds a check pending does
 * nothing more (it wrote {@link #lastUsedNanos} first, so a check that fires concurrently and
 * clears {@code check} reads the new stamp and arms again). {@link #evicting} is the claim of the one
 * eviction under way (volatile, claimed by compare-and-set through {@link #EVICTING}).
 * {@link #releasedAt} is written by the thread that released the connections and taken (swapped
 * to 0 through {@link #RELEASED_AT}) by whichever connection opens first after.
 * An eviction that closed connections is reported to the metrics listener by the thread that ran
 * it, after its turn.
 */
final class IdleRelease implements ConnectionBudget.Evictable {
    private static final Logger log = LoggerFactory.getLogger(LogNames.LIFECYCLE);
    /** A read stamps the use at most this often. */
    private static final long TOUCH_GRANULARITY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final long idleNanos;
    /** The lane, and through its setup the runtime's budget, pool, timer, clock and metrics. */
    private final WriterLane lane;
    private final ReaderSet readers;
    private volatile long lastUsedNanos;
    private volatile boolean releasedSinceUse;
    private volatile boolean evicting;
    private static final VarHandle EVICTING =
            VarHandles.field(MethodHandles.lookup(), "evicting", boolean.class);
    /** The budget's stamp of this database's last release; taken by its next connection. */
    private volatile long releasedAt;
    private static final VarHandle RELEASED_AT =
            VarHandles.field(MethodHandles.lookup(), "releasedAt", long.class);
    /** Told, inside the release's turn, of each release and whether it closed connections. */
    private volatile Consumer<Boolean> observer = closeConnections -> {};
    /**
     * The database's read path while it is awake: made by its first read ({@link
     * DatabaseImpl#routing}) and let go by a release that closed the connections, so that an
     * asleep database holds none and an awake one makes none per read. Immutable, so a read that
     * raced the release keeps using the one it took.
     */
    private volatile ReadRouting routing;

    /** The pending check (a {@link Timer.Scheduled}), null while none, or {@link #CLOSED}. */
    private volatile Object check;
    private static final VarHandle CHECK =
            VarHandles.field(MethodHandles.lookup(), "check", Object.class);
    /** {@link #check} once the database closed: no check is armed again. */
    private static final Object CLOSED = new Object();

    IdleRelease(Duration idleRelease, WriterLane lane, ReaderSet readers) {
        this.idleNanos = idleRelease.toNanos();
        this.lane = lane;
        this.readers = readers;
        this.lastUsedNanos = lane.clock().nanoTime();
    }

    /** The lane served requests: the database was used now. */
    void used() {
        lane.setup().budget().used();
        lastUsedNanos = lane.clock().nanoTime();
        releasedSinceUse = false;
        armIfUnarmed();
    }

    /** A read: the database is used too, though a read touches no lane. */
    void touched() {
        lane.setup().budget().used();
        long now = lane.clock().nanoTime();
        if (now - lastUsedNanos > TOUCH_GRANULARITY_NANOS || releasedSinceUse) {
            lastUsedNanos = now;
            releasedSinceUse = false;
            armIfUnarmed();
        }
    }

    /** The database opened a connection: it is a candidate for eviction from now on. */
    void connectionOpened() {
        lane.setup().budget().candidate(this);
    }

    /** The database is closing: no more checks, and no eviction will choose it. */
    void close() {
        Object pending = CHECK.getAndSet(this, CLOSED);
        if (pending instanceof Timer.Scheduled) {
            ((Timer.Scheduled) pending).cancel();
        }
        lane.setup().budget().released(this);
    }

    private void armIfUnarmed() {
        if (check == null) {
            arm(idleNanos);
        }
    }

    /** Schedules a check, kept only when none is pending and the database is open. */
    private void arm(long delayNanos) {
        Timer.Scheduled scheduled;
        try {
            scheduled = lane.setup().timer().schedule(this::due, delayNanos);
        } catch (RejectedExecutionException e) {
            return; // the runtime is shutting down
        }
        if (!CHECK.compareAndSet(this, null, scheduled)) {
            scheduled.cancel(); // another use armed one first, or the database closed
        }
    }

    /** On the timer: releases if still idle, else checks again when it could be. */
    private void due() {
        Object pending = check;
        if (pending == CLOSED || !CHECK.compareAndSet(this, pending, null)) {
            return;
        }
        if (releasedSinceUse) {
            return;
        }
        long idleFor = lane.clock().nanoTime() - lastUsedNanos;
        if (idleFor < idleNanos) {
            arm(idleNanos - idleFor);
            return;
        }
        lane.setup().pool().submit(new WorkerPool.Task() {
            @Override
            public void runTurn() {
                release(false);
            }

            @Override
            public boolean background() {
                return true;
            }
        });
    }

    /**
     * Releases as a turn of the lane, if it is idle: memory and idle readers, and with {@code
     * closeConnections} the writer's connection too.
     *
     * @return whether it ran
     */
    private boolean release(boolean closeConnections) {
        // written inside the turn, which runs on this thread
        int[] closed = new int[1];
        boolean[] readersLast = new boolean[1];
        boolean ran = lane.releaseIfIdle(writer -> {
            releasedSinceUse = true;
            if (writer != null && !closeConnections) {
                writer.releaseMemory(); // PRAGMA shrink_memory
            }
            // EXTERNAL: the replicator owns the WAL; Lanes runs no checkpoint of its own
            readersLast[0] = closeConnections && writer != null && readers.openConnections() > 0
                    && lane.setup().options().checkpointMode() != CheckpointMode.EXTERNAL
                    && writer.emptyWal();
            closed[0] = (readersLast[0] ? 0 : readers.releaseIdle())
                    + (writer != null && closeConnections ? 1 : 0);
            if (closeConnections) {
                routing = null;
            }
            observer.accept(closeConnections);
            return closeConnections;
        });
        if (readersLast[0]) {
            closed[0] += readers.releaseIdle();
        }
        if (ran && closeConnections) {
            lane.setup().budget().released(this);
            lane.setup().metrics().connectionsEvicted(closed[0]);
        }
        return ran;
    }

    /** The read path kept while the database is awake; null while asleep. */
    ReadRouting routing() {
        return routing;
    }

    /** Keeps {@code awake}, the read path a read just made, until the next release. */
    void awake(ReadRouting awake) {
        routing = awake;
    }

    /** Installs the observer of releases; for white-box tests. */
    void observer(Consumer<Boolean> observer) {
        this.observer = observer;
    }

    @Override
    public long lastUsedNanos() {
        return lastUsedNanos;
    }

    @Override
    public boolean evictable() {
        return !evicting && lane.idleNow();
    }

    @Override
    public void releasedAt(long closes) {
        releasedAt = closes;
    }

    @Override
    public long takeReleasedAt() {
        // the writer and a reader can open at once: one of them takes the stamp
        return releasedAt == 0 ? 0 : (long) RELEASED_AT.getAndSet(this, 0L);
    }

    @Override
    public boolean evictNow() {
        if (!EVICTING.compareAndSet(this, false, true)) {
            return false;
        }
        try {
            return release(true);
        } finally {
            evicting = false;
        }
    }
}
