package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What hosting many tenant databases in one runtime cost, sampled at the end of the tenants run
 * while every database was still open, against samples taken just before the databases were
 * opened; the per-database figures divide the growth by their number, so that the JVM's own
 * footprint is not charged to the databases.
 *
 * <p>Heap is the heap in use after a full GC. RSS is the resident set size from {@code
 * /proc/self/status}; its growth is counted <em>without</em> the growth of the committed Java
 * heap (which the collector expands and shrinks on its own schedule, and which the heap figure
 * already covers), so that it shows the native memory the databases took: SQLite's page caches
 * and connections, and thread stacks. The absolute samples are kept beside the figures.
 *
 * @param databases tenant databases open in the runtime
 * @param hotDatabases how many of them form the hot set
 * @param hotShare the share of requests sent to the hot set (0..1)
 * @param readShare the share of requests that are reads (0..1)
 * @param liveThreads the runtime's pool threads alive at the end
 * @param maxThreads the runtime's cap on pool threads
 * @param openConnections SQLite connections open in the runtime at the end
 * @param connectionBudget the runtime's {@code maxOpenConnections}, 0 for none
 * @param openFilesLimit the process's soft limit on open files, or -1 when unknown
 * @param openFilesMost the most descriptors the process had open, sampled every 250 ms from
 *     before the databases opened to the end, or -1 when unknown
 * @param heapBytesBefore used heap after a GC, before the databases were opened
 * @param heapBytesAfter used heap after a GC, at the end
 * @param heapCommittedBefore committed heap before the databases were opened
 * @param heapCommittedAfter committed heap at the end
 * @param rssBytesBefore the resident set size before the databases were opened, or -1 when
 *     unknown (no {@code /proc/self/status})
 * @param rssBytesAfter the resident set size at the end, or -1 when unknown
 * @param setupSeconds how long creating and opening the databases took (not measured as load)
 */
record TenantFootprint(
        int databases,
        int hotDatabases,
        double hotShare,
        double readShare,
        int liveThreads,
        int maxThreads,
        int openConnections,
        int connectionBudget,
        long openFilesLimit,
        long openFilesMost,
        long heapBytesBefore,
        long heapBytesAfter,
        long heapCommittedBefore,
        long heapCommittedAfter,
        long rssBytesBefore,
        long rssBytesAfter,
        double setupSeconds) {

    /** The connection budget for people: its count, or "none". */
    String connectionBudgetText() {
        return connectionBudget == 0 ? "none" : ReportTable.count(connectionBudget);
    }

    /** Heap growth per database, in bytes; never negative. */
    @JsonProperty
    long heapBytesPerDatabase() {
        return Math.max(0, heapBytesAfter - heapBytesBefore) / Math.max(1, databases);
    }

    /**
     * RSS growth per database beyond the committed heap's growth, in bytes; never negative; -1
     * when RSS is unknown.
     */
    @JsonProperty
    long rssBytesPerDatabase() {
        if (rssBytesBefore < 0 || rssBytesAfter < 0) {
            return -1;
        }
        long growth = (rssBytesAfter - rssBytesBefore) - (heapCommittedAfter - heapCommittedBefore);
        return Math.max(0, growth) / Math.max(1, databases);
    }
}
