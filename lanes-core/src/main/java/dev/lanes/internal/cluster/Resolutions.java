package dev.lanes.internal.cluster;

import java.util.concurrent.atomic.LongAdder;

/**
 * How the uncertain commits of one cluster database were resolved, by verdict. Written by the
 * lane's holder, read at any time.
 */
public final class Resolutions {
    final LongAdder committed = new LongAdder();
    final LongAdder notApplied = new LongAdder();
    final LongAdder unresolved = new LongAdder();

    /**
     * The counts at one instant.
     *
     * @param committed uncertain commits proven committed (their writes were acknowledged)
     * @param notApplied uncertain commits proven not applied (their writes ran again, or failed
     *     {@code ROLLED_BACK})
     * @param unresolved uncertain commits left {@code UNKNOWN} (no leader answered in time; the
     *     writer was poisoned)
     */
    public record Counts(long committed, long notApplied, long unresolved) {
        /** Every uncertain commit met. */
        public long total() {
            return committed + notApplied + unresolved;
        }
    }

    void count(GroupLedger.Verdict verdict) {
        switch (verdict) {
            case COMMITTED:
                committed.increment();
                break;
            case NOT_APPLIED:
                notApplied.increment();
                break;
            default:
                unresolved.increment();
        }
    }

    public Counts snapshot() {
        return new Counts(committed.sum(), notApplied.sum(), unresolved.sum());
    }
}
