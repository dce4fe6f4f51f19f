package dev.lanes.internal.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counters kept as the slots of two {@code long[]}s that exist only once something was counted
 * in them: most databases of a large runtime count nothing while idle, and arrays made at open
 * would cost each of them their whole size. The first {@link #common()} counters (those that
 * every use bumps) share one array, the rest (failures, refusals, timeouts) another, so that a
 * database that was used but never failed holds only the first. A subclass names its slots, the
 * common ones first, and says how many there are of each kind.
 *
 * <p>Concurrency: lock-free. Each array goes once from null to itself, by compare-and-set
 * ({@link VarHandles#getOrSet}), so every counting thread adds to the same array; every slot is
 * read and written through {@link #SLOT} with volatile semantics, so a reader sees each counter
 * whole (the counters are read one by one, so a snapshot may be a few events apart from one
 * another). Before its array exists a counter reads 0.
 */
public abstract class CounterSlots {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle COMMON =
            VarHandles.field(MethodHandles.lookup(), "commonSlots", long[].class);
    private static final VarHandle RARE =
            VarHandles.field(MethodHandles.lookup(), "rareSlots", long[].class);

    /** Null until the first count of a common counter; see the class comment. */
    private volatile long[] commonSlots;
    /** Null until the first count of any other counter. */
    private volatile long[] rareSlots;

    /** How many counters the subclass has; its slots are {@code 0} to {@code count() - 1}. */
    protected abstract int count();

    /** How many of them, slots {@code 0} to {@code common() - 1}, every use bumps. */
    protected abstract int common();

    /** The array that holds {@code slot}, made when {@code make}; null when not made yet. */
    private long[] array(int slot, boolean make) {
        boolean isCommon = slot < common();
        long[] s = isCommon ? commonSlots : rareSlots;
        if (s != null || !make) {
            return s;
        }
        return isCommon ? VarHandles.getOrSet(COMMON, this, () -> new long[common()])
                : VarHandles.getOrSet(RARE, this, () -> new long[count() - common()]);
    }

    private int index(int slot) {
        return slot < common() ? slot : slot - common();
    }

    /** Adds {@code n} to counter {@code slot}; adding 0 makes no array. */
    public final void add(int slot, long n) {
        if (n != 0) {
            SLOT.getAndAdd(array(slot, true), index(slot), n);
        }
    }

    /** Raises counter {@code slot} to {@code value} when it is below it; it never goes down. */
    public final void raise(int slot, long value) {
        if (value <= get(slot)) {
            return;
        }
        long[] s = array(slot, true);
        int i = index(slot);
        long seen = (long) SLOT.getVolatile(s, i);
        while (seen < value) {
            long witness = (long) SLOT.compareAndExchange(s, i, seen, value);
            if (witness == seen) {
                return;
            }
            seen = witness;
        }
    }

    /** The value of counter {@code slot}; 0 before anything was counted there. */
    public final long get(int slot) {
        long[] s = array(slot, false);
        return s == null ? 0 : (long) SLOT.getVolatile(s, index(slot));
    }
}
