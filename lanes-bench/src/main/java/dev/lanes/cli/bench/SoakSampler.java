package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.Lanes;
import dev.lanes.RuntimeDiagnostics;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Takes a soak's samples: the process (heap after a full collection, RSS, descriptors, threads),
 * the runtime (pool threads, open connections, the most of them in the window) and its databases
 * (reader connections and WAL bytes, summed from {@code db.diagnostics()}, which reads the WAL's
 * size from the file system without touching SQLite).
 *
 * <p>The heap is read last but for RSS: the full collection takes the longest, and the load goes
 * on meanwhile, so the cheap figures describe the moment the window closed. RSS is read after
 * the collection, once the heap the collector gave back is gone from it too: G1 returns the
 * memory on a thread of its own after the collection ended, so RSS read at once is sometimes a
 * hundred MiB above what it is a moment later; the lowest of a few reads over {@value
 * #RSS_SETTLE_MILLIS} ms is taken.
 *
 * <p>The heap after GC needs {@code System.gc()} honoured: when the JVM ignores it ({@code
 * -XX:+DisableExplicitGC}), no collection runs, and the heap series is reported as not measured
 * rather than as the garbage in use.
 *
 * <p>Not thread-safe: the soak's thread calls it.
 */
final class SoakSampler {
    /** How long RSS is watched after the collection, for the heap it gave back to leave it. */
    static final long RSS_SETTLE_MILLIS = 500;
    private static final int RSS_READS = 10;

    private final Lanes lanes;
    private final List<Database> databases;
    private final PeakSampler connections;

    /**
     * A sampler of {@code lanes} and its {@code databases}; {@code connections} samples {@code
     * lanes.diagnostics().openConnections()} between samples.
     */
    SoakSampler(Lanes lanes, List<Database> databases, PeakSampler connections) {
        this.lanes = lanes;
        this.databases = List.copyOf(databases);
        this.connections = connections;
    }

    /** A sample closing a window of {@code windowSeconds} in which the clients did {@code load}. */
    SoakSample sample(double elapsedSeconds, double windowSeconds, SoakLoad.Window load)
            throws InterruptedException {
        int most = (int) connections.window();
        RuntimeDiagnostics runtime = lanes.diagnostics();
        int readers = 0;
        long wal = 0;
        for (Database db : databases) {
            DatabaseDiagnostics d = db.diagnostics();
            readers += d.readers().openConnections();
            wal += d.checkpoints().walBytes();
        }
        long files = ProcessMemory.openFiles();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        long collections = collections();
        long heap = ProcessMemory.heapUsedAfterGc();
        if (collections() == collections) {
            // System.gc() was ignored (-XX:+DisableExplicitGC): the heap in use is then mostly
            // garbage, whose sawtooth is no figure to fit; the series is not measured
            heap = -1;
        }
        long committed = ProcessMemory.heapCommitted();
        return new SoakSample(elapsedSeconds, windowSeconds, load.requests(),
                load.deliberateFailures(), load.errors(), heap, committed, settledRss(),
                files, threads, runtime.liveThreads(),
                runtime.openConnections(), Math.max(most, runtime.openConnections()), readers,
                wal, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** Collections run since the JVM started, by every collector. */
    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /** The lowest RSS of a few reads after a collection; -1 when it cannot be read. */
    private static long settledRss() throws InterruptedException {
        long lowest = ProcessMemory.residentSetBytes();
        for (int i = 1; i < RSS_READS && lowest >= 0; i++) {
            // waiting for the collector's own thread to hand memory back, not for ordering
            Thread.sleep(RSS_SETTLE_MILLIS / (RSS_READS - 1));
            lowest = Math.min(lowest, ProcessMemory.residentSetBytes());
        }
        return lowest;
    }
}
