package dev.lanes.internal.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The idle connections of one {@link ReaderSet}, each in its home slot, and the assignment of
 * homes. A thread looks first in the slot its id maps to, so a thread tends to get the
 * connection it used last (its page cache and the driver's monitor stay warm, as with a
 * connection per thread).
 *
 * <p>Invariants:
 * <ul>
 *   <li>{@link #slots} is lock-free: any thread may {@link #take} (CAS a slot to null) or {@link
 *       #put} a connection back into its own home, which no other connection shares, so a put
 *       never overwrites a connection. The set puts a connection back <em>before</em> it frees
 *       the slot of the lease, so whoever takes that slot finds a connection idle.
 *   <li>{@link #homeTaken} and {@link #open} are read and written only under the set's lock;
 *       the methods marked "guarded by lock" must be called holding it. A connection gets a
 *       home when it opens ({@link #assignHome}) and gives it up when it leaves ({@link
 *       #forget}); a connection that finds every home taken keeps home -1 and is not kept.
 * </ul>
 */
final class IdleSlots {
    private final int capacity;
    /** Idle connections, each in its home slot; null where none waits. */
    private final AtomicReferenceArray<ReaderConnection> slots;
    // guarded by lock
    private final boolean[] homeTaken;
    private int open;

    IdleSlots(int capacity) {
        this.capacity = capacity;
        this.slots = new AtomicReferenceArray<>(capacity);
        this.homeTaken = new boolean[capacity];
    }

    /** An idle connection, preferring the slot this thread maps to; null when none is idle. */
    ReaderConnection take() {
        int start = (int) (Thread.currentThread().getId() % capacity);
        for (int i = 0; i < capacity; i++) {
            int slot = (start + i) % capacity;
            ReaderConnection c = slots.get(slot);
            if (c != null && slots.compareAndSet(slot, c, null)) {
                return c;
            }
        }
        return null;
    }

    /** Puts a connection with a home ({@code c.home >= 0}) back there, idle. */
    void put(ReaderConnection c) {
        slots.set(c.home, c);
    }

    /** Counts a connection just opened and gives it the first free home, if any. */
    // guarded by lock
    void assignHome(ReaderConnection c) {
        open++;
        for (int i = 0; i < capacity; i++) {
            if (!homeTaken[i]) {
                homeTaken[i] = true;
                c.home = i;
                break;
            }
        }
        // With every home taken (a connection that raced past an idle one), c.home stays
        // -1 and the connection is closed after this read.
    }

    /** A connection leaving the set: its home is free again. */
    // guarded by lock
    void forget(ReaderConnection c) {
        open--;
        if (c.home >= 0) {
            homeTaken[c.home] = false;
        }
    }

    /** Takes every idle connection out and forgets it; appended to {@code into}, or a new list. */
    // guarded by lock
    List<ReaderConnection> takeAll(List<ReaderConnection> into) {
        List<ReaderConnection> list = into;
        for (int i = 0; i < capacity; i++) {
            ReaderConnection c = slots.getAndSet(i, null);
            if (c != null) {
                if (list == null) {
                    list = new ArrayList<>(capacity);
                }
                list.add(c);
                forget(c);
            }
        }
        return list;
    }

    /** Connections open now, idle or leased. */
    // guarded by lock
    int open() {
        return open;
    }
}
