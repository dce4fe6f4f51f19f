package dev.lanes.internal.scheduler;

import dev.lanes.internal.writer.WriterLane;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The databases that have connections open, least recently used first, for the connection
 * budget's evictions. Choosing a victim costs O(log n) amortized, not a scan of every database
 * with connections: with a budget of thousands of connections and an eviction on nearly every
 * open, a scan was most of an open's cost.
 *
 * <p>The order is kept lazily, so that using a database never touches this class: a heap holds
 * each lane once, keyed by the last use it had when it was queued. A lane's last use only grows,
 * so an entry's key is never later than the lane's real last use. When the head's lane was used
 * since it was queued, it is queued again with its real last use; when it was not, its key is its
 * real last use and no other lane's real last use is earlier (each is at least its own key,
 * which is at least the head's): the head is the least recently used lane. Each re-queueing
 * follows a use, so the work is paid for by the uses.
 *
 * <p>{@link #lock} guards {@link #byLastUse} and {@link #queued}; it is held only to pick or
 * queue, never while a connection closes. An entry leaves when its lane is chosen or released;
 * one whose lane lost its connections otherwise is dropped when it reaches the head.
 */
public final class EvictionOrder {
    /** Lanes that cannot give up their connections now, passed over per choice at most. */
    private static final int MAX_PASSED_OVER = 64;

    private record Entry(WriterLane lane, long lastUsed) {}

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final PriorityQueue<Entry> byLastUse =
            new PriorityQueue<>((a, b) -> Long.compare(a.lastUsed, b.lastUsed));
    // guarded by lock: the lanes with an entry in byLastUse, each exactly once
    private final Set<WriterLane> queued = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<WriterLane> withConnections =
            java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** {@code lane} opened a connection: it is a candidate until its connections are released. */
    public void opened(WriterLane lane) {
        withConnections.add(lane);
        queue(lane);
    }

    /**
     * {@code lane}'s connections were all closed (by an eviction or its close). Its entry goes at
     * once, so that a closed database is not kept reachable; a victim has none by then, so only a
     * close pays for the linear removal.
     */
    public void released(WriterLane lane) {
        withConnections.remove(lane);
        lock.lock();
        try {
            if (queued.remove(lane)) {
                byLastUse.removeIf(e -> e.lane == lane);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the least recently used lane that could give up its connections now out of the
     * order, or returns null when none could (every candidate looked at was busy, or held by a
     * transaction or cork). The caller evicts it, or gives it back with {@link #requeue}.
     */
    public WriterLane takeVictim() {
        List<WriterLane> passedOver = new ArrayList<>();
        lock.lock();
        try {
            while (passedOver.size() < MAX_PASSED_OVER) {
                Entry head = byLastUse.poll();
                if (head == null) {
                    return null;
                }
                WriterLane lane = head.lane;
                if (!withConnections.contains(lane)) {
                    queued.remove(lane);
                    continue;
                }
                long lastUsed = lane.lastUsedNanos();
                if (lastUsed != head.lastUsed) {
                    byLastUse.add(new Entry(lane, lastUsed));
                    continue;
                }
                if (!lane.evictable()) {
                    passedOver.add(lane);
                    continue;
                }
                queued.remove(lane);
                return lane;
            }
            return null;
        } finally {
            for (WriterLane lane : passedOver) {
                byLastUse.add(new Entry(lane, lane.lastUsedNanos()));
            }
            lock.unlock();
        }
    }

    /** Gives back a lane {@link #takeVictim} returned and that kept its connections. */
    public void requeue(WriterLane lane) {
        if (withConnections.contains(lane)) {
            queue(lane);
        }
    }

    private void queue(WriterLane lane) {
        lock.lock();
        try {
            if (queued.add(lane)) {
                byLastUse.add(new Entry(lane, lane.lastUsedNanos()));
            }
        } finally {
            lock.unlock();
        }
    }
}
