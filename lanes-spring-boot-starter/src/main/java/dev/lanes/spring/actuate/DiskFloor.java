package dev.lanes.spring.actuate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Free space on the volume of a directory, sampled at most once per {@code period}: the health
 * indicator asks on every health request, and a file-system call per request per directory would
 * be too many at a high probe rate.
 */
final class DiskFloor {
    /*
     * Concurrency: `samples` maps a directory to its latest Sample (an immutable record). Two
     * health requests may both find a sample stale and both take a new one; the later put wins,
     * and both values are true readings, so no lock is needed.
     */
    private record Sample(long usableBytes, long atNanos) {}

    private final long periodNanos;
    private final LongSupplier clock;
    private final ConcurrentHashMap<Path, Sample> samples = new ConcurrentHashMap<>();

    DiskFloor(long periodNanos, LongSupplier clock) {
        this.periodNanos = periodNanos;
        this.clock = clock;
    }

    /** Usable bytes on the volume of {@code directory}; -1 when it cannot be read. */
    long usableBytes(Path directory) {
        long now = clock.getAsLong();
        Sample sample = samples.get(directory);
        if (sample == null || now - sample.atNanos >= periodNanos) {
            sample = new Sample(read(directory), now);
            samples.put(directory, sample);
        }
        return sample.usableBytes;
    }

    private static long read(Path directory) {
        try {
            return Files.getFileStore(directory).getUsableSpace();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
