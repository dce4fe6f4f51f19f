package dev.lanes.internal.file;

import dev.lanes.CapacityFloorException;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.PathCopy;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The free-space floor of one database's volume. Write turns ask {@link #check()} after taking
 * the write lock, so a write is refused with {@link CapacityFloorException} before SQLite could
 * meet a full disk halfway through a transaction. Used only by the writer lane's holder, but for
 * {@link #lastFreeBytes()}: the latest sample is volatile, for a gauge to read on any thread.
 *
 * <p>Sampling is one {@code statvfs}: a path walk and the file system's free counts, about 2 us
 * alone here. When every turn sampled, that was 9 % of the lane's samples in native code at 64
 * writers, and a lone writer's every write paid it. So a turn uses its volume's latest sample,
 * whoever took it, while that sample is at most {@link #SAMPLE_REUSE_NANOS} old and left at
 * least {@link #SAMPLE_REUSE_HEADROOM} above this database's floor (the reserve plus its WAL):
 * no writer fills that much in that time. Nearer the floor every turn samples afresh, as does
 * every refusal, so a write is never refused on an old sample and the floor is met where it was
 * before.
 *
 * <p>Volumes: a {@link FileStore} keeps its volume's mount entry (a few hundred bytes), and
 * databases by the thousand live on a handful of volumes, so the stores are shared through
 * {@link #VOLUMES}, one {@link Volume} per volume (stores are equal when they name the same
 * mounted device), with the volume's latest sample. A shared store samples through the file it
 * was made for, another database's; when that sample fails (that file was deleted, say), this
 * database falls back to a store of its own file and offers it to the others in place of the
 * failed one.
 */
public final class DiskReserve {
    private final String name;
    private final Path path;
    private final long reserveBytes;
    private final Clock clock;
    private final MetricsReporter metrics;
    /** How long a volume's sample may serve other turns while far above their floor. */
    static final long SAMPLE_REUSE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * The free space above a database's floor that a sample must have left to serve other turns:
     * more than a volume's writers can fill in {@link #SAMPLE_REUSE_NANOS} (64 MiB in 10 ms is
     * 6.4 GB/s).
     */
    static final long SAMPLE_REUSE_HEADROOM = 64L * 1024 * 1024;
    /** One per volume, shared by the databases on it; see the class comment. */
    private static final ConcurrentHashMap<FileStore, Volume> VOLUMES = new ConcurrentHashMap<>();

    /**
     * A volume's store and its latest sample. Any lane samples it; the sample is one immutable
     * record in a volatile field, so a reader sees a bytes-and-time pair that belong together.
     * Two lanes sampling at once both store theirs; either is a true sample.
     */
    private static final class Volume {
        private record Sample(long usable, long atNanos) {}

        final FileStore store;
        volatile Sample latest;

        Volume(FileStore store) {
            this.store = store;
        }

        long sample(Clock clock) throws IOException {
            long usable = store.getUsableSpace();
            latest = new Sample(usable, clock.nanoTime());
            return usable;
        }

        /** The latest sample if it is recent and leaves {@code floor} far below; else -1. */
        long recent(Clock clock, long floor) {
            Sample s = latest;
            if (s == null || clock.nanoTime() - s.atNanos > SAMPLE_REUSE_NANOS
                    || s.usable - floor < SAMPLE_REUSE_HEADROOM) {
                return -1;
            }
            return s.usable;
        }
    }

    private Volume volume;
    /** Whether {@link #volume}'s store was made for this database's own file (not shared). */
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
        long wal = walBytes(false);
        long usable = recentSample(reserveBytes + wal);
        if (usable < 0) {
            usable = usable();
        }
        if (usable >= 0) {
            lastFree = usable;
        }
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
     * Free bytes on the volume in the sample the latest write turn used (its own, or its
     * volume's from at most {@link #SAMPLE_REUSE_NANOS} before), without sampling again; -1
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

    /** The volume's recent sample, if it may serve a turn whose floor is {@code floor}; else -1. */
    private long recentSample(long floor) {
        try {
            return volume().recent(clock, floor);
        } catch (IOException | RuntimeException e) {
            return -1; // usable() samples, or falls back to a store of this database's own
        }
    }

    private Volume volume() throws IOException {
        if (volume == null) {
            Volume own = new Volume(ownStore());
            Volume shared = VOLUMES.putIfAbsent(own.store, own);
            volume = shared == null ? own : shared;
            storeIsOwn = shared == null;
        }
        return volume;
    }

    /** Usable bytes on the volume, sampled now, or -1 when they cannot be sampled. */
    long usable() {
        try {
            return volume().sample(clock);
        } catch (IOException | RuntimeException e) {
            if (storeIsOwn) {
                return -1;
            }
        }
        // the shared store failed through another database's file: sample through our own
        Volume failed = volume;
        try {
            Volume own = new Volume(ownStore());
            volume = own;
            storeIsOwn = true;
            VOLUMES.replace(own.store, failed, own);
            return own.sample(clock);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Forgets the shared stores, so that the next sample starts a volume's anew; for tests. */
    static void forgetVolumes() {
        VOLUMES.clear();
    }

    private FileStore ownStore() throws IOException {
        Path copy = PathCopy.of(path);
        return Files.getFileStore(Files.exists(copy) ? copy : copy.toAbsolutePath().getParent());
    }

    private static long size(Path p) {
        try {
            return Files.exists(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
