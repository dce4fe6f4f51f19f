package dev.lanes.fleet.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One wait for a tenant's replica to hold every commit made up to {@code lastChange}, fed the
 * Litestream process's positions one scrape at a time ({@link LitestreamReplicator#awaitCaughtUp}
 * polls). Two syncs of the process must end after the wait began (the second started after it, so
 * it saw every frame committed before it), or one when the process was launched after the last
 * change; the end of the shadow WAL's current file then ({@link Shadow}) is what the replica must
 * reach. Where the replica is comes from the process, or, while it reports none (a restarted
 * Litestream reports a replica position only once it uploaded WAL for the database, so not for
 * one whose WAL its predecessor shipped as it stopped), from the store: the current generation's
 * WAL there, read only once the process stayed silent for two syncs after the shadow's end was
 * taken (a replica with something to upload reports within about one).
 *
 * <p>Thread-safety: confined to the waiting thread.
 */
final class ReplicaCatchUp {
    private static final Logger log = LoggerFactory.getLogger(ReplicaCatchUp.class);
    /** How often the store is read while the process reports no replica position. */
    private static final long STORE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /**
     * Where the shadow WAL's file {@code index} of the current {@code generation} ends.
     * Litestream's shadow size metric is the sum over the shadow files still on disk, and it
     * keeps the file before the replica's, so after the WAL starts over it exceeds any offset in
     * the current file: the current file's own size is what the replica's offset is compared with
     * (read after the metric, it may include later frames, never fewer).
     */
    record Shadow(String generation, long index, long end) {
        /** The shadow of {@code db}'s WAL file {@code index}, or null while it cannot be read. */
        static Shadow read(Path db, long index) {
            Path meta = db.resolveSibling("." + db.getFileName() + "-litestream");
            try {
                String generation = Files.readString(meta.resolve("generation")).trim();
                return new Shadow(generation, index, Files.size(meta.resolve("generations")
                        .resolve(generation).resolve("wal")
                        .resolve(String.format("%08x.wal", index))));
            } catch (IOException e) {
                return null; // a new generation or a file cleaned meanwhile: the next scrape tells
            }
        }
    }

    private final Path db;
    private final String replicaPath;
    private final long lastChange;
    private final ReplicaRestore store;
    private long starts = -1;
    private long syncsNeeded = -1;
    private Shadow shadow;
    private long shadowSyncs;
    private long nextStoreRead = System.nanoTime();

    /**
     * @param replicaPath the epoch's replica path in the bucket (no trailing {@code /})
     */
    ReplicaCatchUp(Path db, String replicaPath, long lastChange, ReplicaRestore store) {
        this.db = db;
        this.replicaPath = replicaPath + "/";
        this.lastChange = lastChange;
        this.store = store;
    }

    /** Whether, with the process's positions {@code p} as scraped in {@code run}, it caught up. */
    boolean caughtUp(LitestreamShard.Run run, LitestreamMetrics.Position p)
            throws InterruptedException {
        if (run.count() != starts) { // a new process: its syncs count from its start
            starts = run.count();
            syncsNeeded = syncsNeeded(run, p, lastChange);
            shadow = null;
        }
        if (shadow == null && p.syncs() >= syncsNeeded) {
            shadow = Shadow.read(db, p.shadowIndex());
            shadowSyncs = p.syncs();
        }
        if (shadow == null) {
            return false;
        }
        if (p.replicaCovers(shadow.index(), shadow.end())) {
            return true;
        }
        // a replica with something to upload reports where it is within about a sync interval:
        // the store is read only once it stayed silent for two more syncs
        return !p.replicaReported() && p.syncs() >= shadowSyncs + 2 && storeHolds(shadow);
    }

    private boolean storeHolds(Shadow s) throws InterruptedException {
        long now = System.nanoTime();
        if (now - nextStoreRead < 0) {
            return false;
        }
        nextStoreRead = now + STORE_NANOS;
        try {
            return store.holds(replicaPath, s.generation(), s.index(), s.end());
        } catch (IOException | RuntimeException e) {
            log.debug("fleet: reading {}'s replica position from the store failed: {}",
                    replicaPath, e.toString());
            return false; // the next look reads it again
        }
    }

    /**
     * How many syncs of the process must have ended before its shadow holds every commit made
     * up to {@code lastChange}: any one, when it was launched after that (all its syncs read the
     * WAL later); else two more than now (a sync under way now may have read the WAL before the
     * last commit, the one after it started later).
     */
    private static long syncsNeeded(LitestreamShard.Run run, LitestreamMetrics.Position now,
            long lastChange) {
        return run.launched() - lastChange > 0 ? 1 : now.syncs() + 2;
    }
}
