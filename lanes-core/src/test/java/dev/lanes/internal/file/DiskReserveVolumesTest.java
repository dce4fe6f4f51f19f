package dev.lanes.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.ManualClock;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The databases of one volume share one {@code FileStore} (a store keeps its
 * volume's mount entry, a few hundred bytes a database otherwise), which samples through the
 * file it was made for. When that database's file is gone, the others still sample free space,
 * so the disk floor still holds for them. The volume's latest free-space sample serves every turn
 * of its databases for a few milliseconds while it is far above their floor, and near the floor
 * each turn samples afresh.
 */
class DiskReserveVolumesTest {
    @TempDir Path dir;

    private DiskReserve reserve(String file) throws Exception {
        return reserve(file, 1, Clock.SYSTEM);
    }

    private DiskReserve reserve(String file, long reserveBytes, Clock clock) throws Exception {
        Path path = Files.createFile(dir.resolve(file));
        return new DiskReserve(file, path, reserveBytes, clock, MetricsReporter.NONE);
    }

    /** Takes {@code bytes} of the volume, synced, so that its free space drops by that much. */
    private void fill(String file, int bytes) throws Exception {
        try (FileChannel c = FileChannel.open(dir.resolve(file), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            ByteBuffer block = ByteBuffer.allocate(1 << 20);
            for (int written = 0; written < bytes; written += block.capacity()) {
                block.clear();
                c.write(block);
            }
            c.force(true);
        }
    }

    @Test
    void farAboveTheFloorTurnsShareTheVolumesRecentSampleUntilItIsOld() throws Exception {
        DiskReserve.forgetVolumes();
        ManualClock clock = new ManualClock();
        DiskReserve first = reserve("first.db", 1, clock);
        DiskReserve second = reserve("second.db", 1, clock);
        first.check();
        long sampled = first.lastFreeBytes();
        assertThat(sampled).as("free space on the test's volume").isGreaterThan(
                DiskReserve.SAMPLE_REUSE_HEADROOM + (16 << 20));

        fill("taken", 8 << 20);
        first.check();
        second.check();
        assertThat(first.lastFreeBytes()).as("the sample is recent and far above the floor")
                .isEqualTo(sampled);
        assertThat(second.lastFreeBytes()).as("another database of the volume uses it too")
                .isEqualTo(sampled);

        clock.advance(Duration.ofNanos(DiskReserve.SAMPLE_REUSE_NANOS + 1));
        second.check();
        assertThat(second.lastFreeBytes()).as("an old sample is taken again")
                .isLessThanOrEqualTo(sampled - (4 << 20));
    }

    @Test
    void nearTheFloorEveryTurnSamplesAfresh() throws Exception {
        DiskReserve.forgetVolumes();
        ManualClock clock = new ManualClock();
        long free = Files.getFileStore(dir).getUsableSpace();
        // 32 MiB above the floor: less than the headroom a shared sample needs
        DiskReserve near = reserve("near.db", free - (32 << 20), clock);
        near.check();
        long sampled = near.lastFreeBytes();

        fill("taken", 8 << 20);
        near.check();
        assertThat(near.lastFreeBytes()).as("sampled again with no time passed")
                .isLessThanOrEqualTo(sampled - (4 << 20));
    }

    @Test
    void aDatabaseStillSamplesFreeSpaceOnceTheFileItsVolumesStoreWasMadeForIsDeleted()
            throws Exception {
        DiskReserve.forgetVolumes();
        DiskReserve first = reserve("first.db");
        DiskReserve second = reserve("second.db");
        assertThat(first.usable()).as("made the volume's store, for first.db").isPositive();
        assertThat(second.usable()).as("shares it").isPositive();

        Files.delete(dir.resolve("first.db"));
        assertThat(second.usable()).as("falls back to a store of its own file").isPositive();
        assertThat(second.usable()).isPositive();
        assertThat(reserve("third.db").usable()).as("shares second's store now").isPositive();
    }
}
