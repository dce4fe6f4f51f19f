package dev.lanes.internal.scheduler;

import dev.lanes.internal.scheduler.ConnectionBudget.Evictable;
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
 * each database once, keyed by the last use it had when it was queued. A database's last use only grows,
 * so an entry's key is never later than the database's real last use. When the head's database was used
 * since it was queued, it is queued again with its real last use; when it was not, its key is its
 * real last use and no other database's real last use is earlier (each is at least its own key,
 * which is at least the head's): the head is the least recently used database. Each re-queueing
 * follows a use, so the work is paid for by the uses.
 *
 * <p>{@link #lock} guards {@link #byLastUse} and {@link #queued}; it is held only to pick or
 * queue, never while a connection closes. An entry leaves when its database is chosen or released;
 * one whose database lost its connections otherwise is dropped when it reaches the head.
 */
final class EvictionOrder {
    /** Databases that cannot give up their connections now, passed over per choice at most. */
    private static final int MAX_PASSED_OVER = 64;

    private record Entry(Evictable db, long lastUsed) {}

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final PriorityQueue<Entry> byLastUse =
            new PriorityQueue<>((a, b) -> Long.compare(a.lastUsed, b.lastUsed));
    // guarded by lock: the databases with an entry in byLastUse, each exactly once
    private final Set<Evictable> queued = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Evictable> withConnections =
            java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** {@code db} opened a connection: it is a candidate until its connections are released. */
    void opened(Evictable db) {
        withConnections.add(db);
        queue(db);
    }

    /**
     * {@code db}'s connections were all closed (by an eviction or its close). Its entry goes at
     * once, so that a closed database is not kept reachable; a victim has none by then, so only a
     * close pays for the linear removal.
     */
    void released(Evictable db) {
        withConnections.remove(db);
        lock.lock();
        try {
            if (queued.remove(db)) {
                byLastUse.removeIf(e -> e.db == db);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the least recently used db that could give up its connections now out of the
     * order, or returns null when none could (every candidate looked at was busy, or held by a
     * transaction or cork). The caller evicts it, or gives it back with {@link #requeue}.
     */
    Evictable takeVictim() {
        List<Evictable> passedOver = new ArrayList<>();
        lock.lock();
        try {
            while (passedOver.size() < MAX_PASSED_OVER) {
                Entry head = byLastUse.poll();
                if (head == null) {
                    return null;
                }
                Evictable db = head.db;
                if (!withConnections.contains(db)) {
                    queued.remove(db);
                    continue;
                }
                long lastUsed = db.lastUsedNanos();
                if (lastUsed != head.lastUsed) {
                    byLastUse.add(new Entry(db, lastUsed));
                    continue;
                }
                if (!db.evictable()) {
                    passedOver.add(db);
                    continue;
                }
                queued.remove(db);
                return db;
            }
            return null;
        } finally {
            for (Evictable db : passedOver) {
                byLastUse.add(new Entry(db, db.lastUsedNanos()));
            }
            lock.unlock();
        }
    }

    /** Gives back a db {@link #takeVictim} returned and that kept its connections. */
    void requeue(Evictable db) {
        if (withConnections.contains(db)) {
            queue(db);
        }
    }

    private void queue(Evictable db) {
        lock.lock();
        try {
            if (queued.add(db)) {
                byLastUse.add(new Entry(db, db.lastUsedNanos()));
            }
        } finally {
            lock.unlock();
        }
    }
}
