package dev.lanes.internal.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counters kept as the slots of {@code long[]}s that exist only once something was counted
 * in them: most databases of a large runtime count nothing while idle, and arrays made at open
 * would cost each of them their whole size. The first {@link #common()} counters (those that
 * every use bumps) share one array, the rest (failures, refusals, timeouts) another, so that a
 * database that was used but never failed holds only the first. A subclass names its slots, the
 * common ones first, and says how many there are of each kind.
 *
 * <p>Striping: a common counter that threads bump at the same moment (the reads of a database,
 * each from its own thread and core) would make its cache line travel between the cores at
 * every count. So a common counter counts into its slot by compare-and-set while that never
 * fails; the first time one fails (another thread counted at the same moment), a third array
 * is made once, {@link #stripes}: {@link #STRIPES} stripes of the common counters, each stripe
 * on cache lines of its own, and from then on a thread adds to the stripe its identity hash
 * picks (so each thread mostly to its own line). A counter's value is its slot plus its cells
 * in every stripe. A database used from one thread at a time never makes them. The maximums
 * that {@link #raise} keeps live in their slots alone; {@link #add} must not be used on them.
 *
 * <p>Concurrency: lock-free. Each array goes once from null to itself, by compare-and-set
 * ({@link VarHandles#getOrSet}), so every counting thread adds to the same arrays; every slot
 * and cell is read and written through {@link #SLOT} with volatile semantics, so a reader sees
 * each one whole. A counter is read as the sum of its slot and cells, one by one, and counters
 * are read one by one, so a snapshot may be a few events apart from one another (never a count
 * lost or counted twice: each event goes to exactly one slot or cell). Before its array exists
 * a counter reads 0.
 */
public abstract class CounterSlots {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle COMMON =
            VarHandles.field(MethodHandles.lookup(), "commonSlots", long[].class);
    private static final VarHandle RARE =
            VarHandles.field(MethodHandles.lookup(), "rareSlots", long[].class);
    private static final VarHandle STRIPED =
            VarHandles.field(MethodHandles.lookup(), "stripes", long[].class);

    /**
     * How many stripes {@link #stripes} holds: four per processor, rounded up to a power of two,
     * at most 64; more stripes than running threads, so that few threads share one.
     */
    static final int STRIPES =
            Math.min(64, Integer.highestOneBit(4 * Runtime.getRuntime().availableProcessors() - 1)
                    << 1);
    /**
     * The slots between one stripe and the next: 128 bytes, two cache lines, as the JDK pads
     * its contended fields (the adjacent-line prefetch pulls lines in pairs). A stripe holds at
     * most this many common counters.
     */
    static final int STRIDE = 16;

    /** Null until the first count of a common counter; see the class comment. */
    private volatile long[] commonSlots;
    /** Null until the first count of any other counter. */
    private volatile long[] rareSlots;
    /** Null until two threads counted a common counter at the same moment; see above. */
    private volatile long[] stripes;

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
        if (n == 0) {
            return;
        }
        if (slot >= common()) {
            SLOT.getAndAdd(array(slot, true), index(slot), n);
            return;
        }
        long[] striped = stripes;
        if (striped == null) {
            long[] s = array(slot, true);
            long seen = (long) SLOT.getVolatile(s, slot);
            if (SLOT.compareAndSet(s, slot, seen, seen + n)) {
                return;
            }
            striped = makeStripes(); // another thread counted at the same moment
        }
        SLOT.getAndAdd(striped, stripe() * STRIDE + slot, n);
    }

    /** The stripes, made now if nobody made them yet. */
    final long[] makeStripes() {
        return VarHandles.getOrSet(STRIPED, this, () -> new long[STRIPES * STRIDE]);
    }

    /** The stripe of the current thread: its identity hash, spread. */
    private static int stripe() {
        int h = System.identityHashCode(Thread.currentThread());
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }

    /** Raises counter {@code slot} to {@code value} when it is below it; it never goes down. */
    public final void raise(int slot, long value) {
        long[] s = array(slot, false);
        int i = index(slot);
        if (value <= (s == null ? 0 : (long) SLOT.getVolatile(s, i))) {
            return;
        }
        s = array(slot, true);
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
        long value = s == null ? 0 : (long) SLOT.getVolatile(s, index(slot));
        long[] striped = slot < common() ? stripes : null;
        if (striped != null) {
            for (int i = slot; i < striped.length; i += STRIDE) {
                value += (long) SLOT.getVolatile(striped, i);
            }
        }
        return value;
    }
}
