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
 *   <li>An instance exists only while a connection of its set is open: the set makes it when
 *       its first connection opens and drops it when the last one leaves ({@link #forget} or
 *       {@link #takeAll} return with {@link #open} 0), both under the set's lock, so that most
 *       databases of a large runtime, which hold no reader, hold no slots either. The set's
 *       field is volatile for the lock-free {@link #take}; {@link #slots} and {@link #homes}
 *       are final.
 *   <li>The slots are lock-free: any thread may {@link #take} (CAS a slot to null) or {@link
 *       #put} a connection back into its own home, which no other connection shares, so a put
 *       never overwrites a connection. The set puts a connection back <em>before</em> it frees
 *       the slot of the lease, so whoever takes that slot finds a connection idle. A connection
 *       is counted in {@link #open} from its home's assignment to its {@link #forget}, and is in
 *       a slot only in between, so the instance a connection was given a home in stays its
 *       set's until the connection leaves, and once none is open no slot holds one: a {@link
 *       #take} still reading a dropped instance finds nothing, as it would have in the live one.
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
    private final ReaderConnection[] slots;
    // guarded by lock
    /** The connection whose home each slot is, idle or leased; null where none. */
    private final ReaderConnection[] homes;
    /** Connections open without a home (every home was taken); null when none. */
    private List<ReaderConnection> homeless;
    private int open;

    IdleSlots(int capacity) {
        this.capacity = capacity;
        this.slots = new ReaderConnection[capacity];
        this.homes = new ReaderConnection[capacity];
    }

    /** An idle connection, preferring the slot this thread maps to; null when none is idle. */
    ReaderConnection take() {
        ReaderConnection[] s = slots;
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
        open++;
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

    /** A connection leaving the set: its home is free again. @return whether none is open now */
    // guarded by lock
    boolean forget(ReaderConnection c) {
        if (c.home >= 0) {
            homes[c.home] = null;
        } else if (homeless != null && homeless.remove(c) && homeless.isEmpty()) {
            homeless = null;
        }
        return --open == 0;
    }

    /** Takes every idle connection out and forgets it; appended to {@code into}, or a new list. */
    // guarded by lock
    List<ReaderConnection> takeAll(List<ReaderConnection> into) {
        List<ReaderConnection> list = into;
        for (int i = 0; i < capacity; i++) {
            ReaderConnection c = (ReaderConnection) SLOT.getAndSet(slots, i, null);
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
        for (int i = 0; i < capacity; i++) {
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
