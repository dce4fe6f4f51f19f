package dev.lanes.internal.writer;

import dev.lanes.internal.util.LogNames;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The idle release of a writer lane, run as a turn of its own: when the lane is idle (nothing
 * queued or running, no transaction or cork holding it, still running), the calling platform
 * thread becomes its holder, gives the writer connection's memory back or closes the connection
 * (the database's idle release and eviction decide which), and releases the lane. It does not
 * count as use.
 *
 * <h2>Concurrency</h2>
 * No state of its own. The idle check and the claim of the lane happen under the lane's lock, in
 * one hold, so no request can slip in between; the release itself runs with the lock released,
 * as the holder, so it may touch the connection like any turn. {@link #idleNow()} only tries the
 * lock and answers false when it is taken: a hint for eviction that never blocks.
 */
final class IdleReleaseTurn {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    private final String name;
    private final ReentrantLock laneLock;
    private final TurnScheduler scheduler;
    private final WriteQueue queue;
    private final PinnedTransaction pinned;
    private final Cork cork;
    private final LaneLifecycle lifecycle;
    private final WriterConnectionSlot connection;

    IdleReleaseTurn(String name, ReentrantLock laneLock, TurnScheduler scheduler, WriteQueue queue,
            PinnedTransaction pinned, Cork cork, LaneLifecycle lifecycle,
            WriterConnectionSlot connection) {
        this.name = name;
        this.laneLock = laneLock;
        this.scheduler = scheduler;
        this.queue = queue;
        this.pinned = pinned;
        this.cork = cork;
        this.lifecycle = lifecycle;
        this.connection = connection;
    }

    /** See {@link WriterLane#releaseIfIdle}. @return whether it ran (false: the lane was in use) */
    boolean releaseIfIdle(Function<WriterLane.Releasable, Boolean> release) {
        laneLock.lock();
        try {
            if (!idleLocked() || !scheduler.claim()) {
                return false;
            }
        } finally {
            laneLock.unlock();
        }
        try {
            WriterConnection c = connection.current();
            if (Boolean.TRUE.equals(release.apply(c))) {
                connection.closeQuietly();
            }
        } catch (RuntimeException e) {
            log.warn("{}: releasing idle resources failed", name, e);
        } finally {
            scheduler.finishTurn(false);
        }
        return true;
    }

    /** Whether the lane could give up its connection now: a racy hint that never blocks. */
    boolean idleNow() {
        if (!laneLock.tryLock()) {
            return false;
        }
        try {
            return idleLocked();
        } finally {
            laneLock.unlock();
        }
    }

    // guarded by the lane's lock
    private boolean idleLocked() {
        return scheduler.isIdle() && queue.isEmpty() && pinned.pinned() == null
                && !cork.engaged() && lifecycle.running();
    }
}
