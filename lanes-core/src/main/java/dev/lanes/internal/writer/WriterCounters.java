package dev.lanes.internal.writer;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one writer's transactions: written by the lane's holder (and by callers, for
 * refusals at admission), read by diagnostics at any time.
 */
public final class WriterCounters {
    final LongAdder acquisitions = new LongAdder();
    final LongAdder busyRefusals = new LongAdder();
    final LongAdder busyAbsorbed = new LongAdder();
    final LongAdder beginErrors = new LongAdder();
    final LongAdder committed = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder unknown = new LongAdder();
    final LongAdder groups = new LongAdder();
    final LongAdder overloads = new LongAdder();
    final LongAdder replays = new LongAdder();

    dev.lanes.DatabaseDiagnostics.WriterCounters snapshot() {
        return new dev.lanes.DatabaseDiagnostics.WriterCounters(acquisitions.sum(),
                busyRefusals.sum(), busyAbsorbed.sum(), beginErrors.sum(), failed.sum(),
                unknown.sum());
    }
}
