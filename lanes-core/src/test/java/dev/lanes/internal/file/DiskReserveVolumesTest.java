package dev.lanes.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, item 5: the databases of one volume share one {@code FileStore} (a store keeps its
 * volume's mount entry, a few hundred bytes a database otherwise), which samples through the
 * file it was made for. When that database's file is gone, the others still sample free space,
 * so the disk floor still holds for them.
 */
class DiskReserveVolumesTest {
    @TempDir Path dir;

    private DiskReserve reserve(String file) throws Exception {
        Path path = Files.createFile(dir.resolve(file));
        return new DiskReserve(file, path, 1, Clock.SYSTEM, MetricsReporter.NONE);
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
