package dev.lanes.internal.reader;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The idle connections of one {@link ReaderSet}, each in its home slot, and the assignment of
 * homes. A thread looks first in the slot its id maps to, so a thread tends to get the
 * connection it used last (its page cache and the driver's monitor stay warm, as with a
 * connection per thread).
 *
 * <p>Invariants:
 * <ul>
 *   <li>{@link #slots} and {@link #homes} exist only while a connection is open: made by the
 *       first {@link #assignHome}, dropped by the {@link #forget} of the last one (most databases
 *       of a large runtime hold no reader, so they hold no arrays either). Both are written only
 *       under the set's lock; {@link #slots} is volatile for the lock-free {@link #take}.
 *   <li>The slots are lock-free: any thread may {@link #take} (CAS a slot to null) or {@link
 *       #put} a connection back into its own home, which no other connection shares, so a put
 *       never overwrites a connection. The set puts a connection back <em>before</em> it frees
 *       the slot of the lease, so whoever takes that slot finds a connection idle. A connection
 *       is counted in {@link #open} from its home's assignment to its {@link #forget}, and is in
 *       a slot only in between, so once none is open no slot holds one: a {@link #take} still
 *       reading the dropped array finds nothing, as it would have in the live one.
 *   <li>{@link #homes}, {@link #homeless} and {@link #open} are read and written only under
 *       the set's lock; the methods marked "guarded by lock" must be called holding it. A
 *       connection gets a home when it opens ({@link #assignHome}) and gives it up when it
 *       leaves ({@link #forget}); a connection that finds every home taken keeps home -1, is
 *       listed in {@link #homeless} until it leaves, and is not kept. So every open connection,
 *       idle or leased, is in {@link #homes} or {@link #homeless} ({@link #allOpen}).
 * </ul>
 */
final class IdleSlots {
    private static final VarHandle SLOT =
            MethodHandles.arrayElementVarHandle(ReaderConnection[].class);

    private final int capacity;
    /** Idle connections, each in its home slot; null where none waits; see the class comment. */
    private volatile ReaderConnection[] slots;
    // guarded by lock
    /** The connection whose home each slot is, idle or leased; null where none. */
    private ReaderConnection[] homes;
    /** Connections open without a home (every home was taken); null when none. */
    private List<ReaderConnection> homeless;
    private int open;

    IdleSlots(int capacity) {
        this.capacity = capacity;
    }

    /** An idle connection, preferring the slot this thread maps to; null when none is idle. */
    ReaderConnection take() {
        ReaderConnection[] s = slots;
        if (s == null) {
            return null;
        }
        int start = (int) (Thread.currentThread().getId() % capacity);
        for (int i = 0; i < capacity; i++) {
            int slot = (start + i) % capacity;
            ReaderConnection c = (ReaderConnection) SLOT.getVolatile(s, slot);
            if (c != null && SLOT.compareAndSet(s, slot, c, null)) {
                return c;
            }
        }
        return null;
    }

    /** Puts a connection with a home ({@code c.home >= 0}) back there, idle. */
    void put(ReaderConnection c) {
        SLOT.setVolatile(slots, c.home, c);
    }

    /** Counts a connection just opened and gives it the first free home, if any. */
    // guarded by lock
    void assignHome(ReaderConnection c) {
        if (open++ == 0) {
            homes = new ReaderConnection[capacity];
            slots = new ReaderConnection[capacity];
        }
        for (int i = 0; i < capacity; i++) {
            if (homes[i] == null) {
                homes[i] = c;
                c.home = i;
                return;
            }
        }
        // With every home taken (a connection that raced past an idle one), c.home stays
        // -1 and the connection is closed after this read.
        if (homeless == null) {
            homeless = new ArrayList<>(1);
        }
        homeless.add(c);
    }

    /** A connection leaving the set: its home is free again. */
    // guarded by lock
    void forget(ReaderConnection c) {
        if (c.home >= 0) {
            homes[c.home] = null;
        } else if (homeless != null && homeless.remove(c) && homeless.isEmpty()) {
            homeless = null;
        }
        if (--open == 0) {
            homes = null;
            slots = null;
        }
    }

    /** Takes every idle connection out and forgets it; appended to {@code into}, or a new list. */
    // guarded by lock
    List<ReaderConnection> takeAll(List<ReaderConnection> into) {
        List<ReaderConnection> list = into;
        ReaderConnection[] s = slots;
        for (int i = 0; s != null && i < capacity; i++) {
            ReaderConnection c = (ReaderConnection) SLOT.getAndSet(s, i, null);
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

    /** Every connection open now, idle or leased; a copy. */
    // guarded by lock
    List<ReaderConnection> allOpen() {
        List<ReaderConnection> all = new ArrayList<>(open);
        for (int i = 0; homes != null && i < capacity; i++) {
            if (homes[i] != null) {
                all.add(homes[i]);
            }
        }
        if (homeless != null) {
            all.addAll(homeless);
        }
        return all;
    }

    /** Connections open now, idle or leased. */
    // guarded by lock
    int open() {
        return open;
    }
}
