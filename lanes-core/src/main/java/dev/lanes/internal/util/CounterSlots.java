package dev.lanes.internal.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counters kept as the slots of one {@code long[]} that exists only once something was counted:
 * most databases of a large runtime count nothing while idle, and an array made at open would
 * cost each of them its whole size. A subclass names its slots and says how many there are.
 *
 * <p>Concurrency: lock-free. {@link #slots} goes once from null to the array, by compare-and-set
 * ({@link VarHandles#getOrSet}), so every counting thread adds to the same array; every slot is
 * read and written through {@link #SLOT} with volatile semantics, so a reader sees each counter
 * whole (the counters are read one by one, so a snapshot may be a few events apart from one
 * another). Before the array exists every counter reads 0.
 */
public abstract class CounterSlots {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle SLOTS =
            VarHandles.field(MethodHandles.lookup(), "slots", long[].class);

    /** Null until the first count; see the class comment. */
    private volatile long[] slots;

    /** How many counters the subclass has; its slots are {@code 0} to {@code count() - 1}. */
    protected abstract int count();

    private long[] made() {
        long[] s = slots;
        return s != null ? s : VarHandles.getOrSet(SLOTS, this, () -> new long[count()]);
    }

    /** Adds {@code n} to counter {@code slot}. */
    public final void add(int slot, long n) {
        SLOT.getAndAdd(made(), slot, n);
    }

    /** Raises counter {@code slot} to {@code value} when it is below it; it never goes down. */
    public final void raise(int slot, long value) {
        if (value <= get(slot)) {
            return;
        }
        long[] s = made();
        long seen = (long) SLOT.getVolatile(s, slot);
        while (seen < value) {
            long witness = (long) SLOT.compareAndExchange(s, slot, seen, value);
            if (witness == seen) {
                return;
            }
            seen = witness;
        }
    }

    /** The value of counter {@code slot}; 0 before anything was counted. */
    public final long get(int slot) {
        long[] s = slots;
        return s == null ? 0 : (long) SLOT.getVolatile(s, slot);
    }
}
