package dev.lanes.internal.file;

import dev.lanes.CapacityFloorException;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The free-space floor of one database's volume. Write turns ask {@link #check()} after taking
 * the write lock, so a write is refused with {@link CapacityFloorException} before SQLite could
 * meet a full disk halfway through a transaction. Sampling is one {@code statvfs}, about a
 * microsecond. Used only by the writer lane's holder, but for {@link #lastFreeBytes()}: the
 * latest sample is volatile, for a gauge to read on any thread.
 *
 * <p>Volumes: a {@link FileStore} keeps its volume's mount entry (a few hundred bytes), and
 * databases by the thousand live on a handful of volumes, so the stores are shared through
 * {@link #VOLUMES}, one per volume (stores are equal when they name the same mounted device). A
 * shared store samples through the file it was made for, another database's; when that sample
 * fails (that file was deleted, say), this database falls back to a store of its own file and
 * offers it to the others in place of the failed one.
 */
public final class DiskReserve {
    private final String name;
    private final Path path;
    private final long reserveBytes;
    private final Clock clock;
    private final MetricsReporter metrics;
    /** One store per volume, shared by the databases on it; see the class comment. */
    private static final ConcurrentHashMap<FileStore, FileStore> VOLUMES =
            new ConcurrentHashMap<>();

    private FileStore store;
    /** Whether {@link #store} was made for this database's own file (not shared from another). */
    private boolean storeIsOwn;
    /** Free bytes as {@link #check()} last sampled them; -1 before the first sample. */
    private volatile long lastFree = -1;

    public DiskReserve(String name, Path path, long reserveBytes, Clock clock,
            MetricsReporter metrics) {
        this.clock = clock;
        this.metrics = metrics;
        this.name = name;
        this.path = path;
        this.reserveBytes = reserveBytes;
    }

    /** Throws when free space is at or below the reserve; a failure to sample passes. */
    public void check() {
        if (reserveBytes == 0) {
            return;
        }
        long usable = usable();
        if (usable >= 0) {
            lastFree = usable;
        }
        long wal = walBytes(false);
        if (usable >= 0 && usable <= reserveBytes + wal) {
            // a refusal is never decided on a stale sample: a checkpoint may just have
            // truncated the WAL
            wal = walBytes(true);
        }
        if (usable >= 0 && usable <= reserveBytes + wal) {
            metrics.diskFloorRefused(usable, reserveBytes + wal);
            throw new CapacityFloorException(name + ": " + usable + " bytes free on the volume, "
                    + "at or below the reserve of " + reserveBytes + " bytes (diskReserveBytes)"
                    + (wal > 0 ? " plus the " + wal + " bytes of WAL a checkpoint may move into "
                    + "the database" : "") + "; the write was refused and nothing was written. "
                    + "Free space on the volume, or checkpoint and delete data through "
                    + "maintenance, which still runs below the floor");
        }
    }

    /**
     * The WAL's size: a checkpoint can move that much into the database file, so it counts
     * against free space. Sampled at most every {@link #WAL_SAMPLE_NANOS}: a stat per commit
     * would cost a sizeable share of a fast commit, and the WAL grows little in between; {@code
     * fresh} samples now.
     */
    private long walBytes(boolean fresh) {
        long now = clock.nanoTime();
        if (fresh || now - walSampledAt >= WAL_SAMPLE_NANOS || walSampledAt == 0) {
            walSampledAt = now;
            walSample = size(Checkpointer.walOf(path));
        }
        return walSample;
    }

    private static final long WAL_SAMPLE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50);
    private long walSampledAt;
    private long walSample;

    /**
     * Free bytes on the volume as the latest write turn sampled them, without sampling again; -1
     * before the first sample, or when the reserve is off (nothing samples then).
     */
    public long lastFreeBytes() {
        return lastFree;
    }

    /**
     * {@code VACUUM} rewrites the whole database through a temporary copy: it needs the
     * database and its WAL in free space, on top of the reserve.
     */
    public void checkVacuumHeadroom() {
        long usable = usable();
        if (usable < 0) {
            return;
        }
        long needed = size(path) + size(Checkpointer.walOf(path)) + reserveBytes;
        if (usable < needed) {
            throw new CapacityFloorException(name + ": VACUUM needs " + needed + " bytes free "
                    + "(database and WAL plus the reserve of " + reserveBytes + "), but only "
                    + usable + " are; it was refused before it ran");
        }
    }

    /** Usable bytes on the volume, or -1 when they cannot be sampled. */
    long usable() {
        try {
            if (store == null) {
                FileStore own = ownStore();
                FileStore shared = VOLUMES.putIfAbsent(own, own);
                store = shared == null ? own : shared;
                storeIsOwn = shared == null;
            }
            return store.getUsableSpace();
        } catch (IOException | RuntimeException e) {
            if (storeIsOwn) {
                return -1;
            }
        }
        // the shared store failed through another database's file: sample through our own
        FileStore failed = store;
        try {
            FileStore own = ownStore();
            store = own;
            storeIsOwn = true;
            VOLUMES.replace(own, failed, own);
            return own.getUsableSpace();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Forgets the shared stores, so that the next sample starts a volume's anew; for tests. */
    static void forgetVolumes() {
        VOLUMES.clear();
    }

    private FileStore ownStore() throws IOException {
        return Files.getFileStore(Files.exists(path) ? path : path.toAbsolutePath().getParent());
    }

    private static long size(Path p) {
        try {
            return Files.exists(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
