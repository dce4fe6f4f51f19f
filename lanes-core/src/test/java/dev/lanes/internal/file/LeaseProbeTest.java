package dev.lanes.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaseProbeTest {
    @TempDir
    Path dir;

    @Test
    void theLeaseIsAByteOfALockFileSharedByTheDirectory() {
        LeaseSlot app = LeaseSlot.of(Path.of("/data/app.db"));
        assertThat(app.lockFile().getParent()).isEqualTo(Path.of("/data/.lanes-lock"));
        assertThat(app.lockFile().getFileName().toString()).matches("[0-9a-f]{2}");
        assertThat(app.offset()).isNotNegative();
        assertThat(LeaseSlot.of(Path.of("/elsewhere/app.db")).offset())
                .as("the byte depends on the file name only").isEqualTo(app.offset());
        assertThat(LeaseSlot.of(Path.of("/data/app2.db"))).isNotEqualTo(app);
    }

    @Test
    void aPosixLockOnTheLockFileCoveringTheDatabasesByteIsTheLease() throws Exception {
        LeaseSlot slot = slotWithLockFile("app.db");
        String id = deviceAndInode(slot.lockFile());
        long at = slot.offset();

        assertThat(LeaseProbe.holderFromProcLocks(slot, List.of(
                "1: FLOCK  ADVISORY  WRITE 10 " + id + " 0 EOF",
                "2: POSIX  ADVISORY  WRITE 4242 " + id + " " + at + " " + at))).contains(4242L);
        assertThat(LeaseProbe.holderFromProcLocks(slot, List.of(
                "1: POSIX  ADVISORY  WRITE 4343 " + id + " " + (at - 1) + " EOF"))).contains(4343L);
        // a neighbour's byte is another database's lease; a waiter blocked on the lock is not
        // its holder; another inode is another file
        assertThat(LeaseProbe.holderFromProcLocks(slot, List.of(
                "1: POSIX  ADVISORY  WRITE 55 " + id + " " + (at + 1) + " " + (at + 1),
                "2: POSIX  ADVISORY  WRITE 56 " + id + " 0 " + (at - 1),
                "3: -> POSIX  ADVISORY  WRITE 77 " + id + " " + at + " " + at,
                "4: POSIX  ADVISORY  WRITE 4242 00:00:1 0 EOF"))).isEmpty();
    }

    @Test
    void theSameInodeOnAnotherDeviceCountsOnlyWhenItsHolderHasTheFileOpen() throws Exception {
        LeaseSlot slot = slotWithLockFile("app.db");
        long inode = ((Number) Files.getAttribute(slot.lockFile(), "unix:ino")).longValue();
        String elsewhere = "ab:cd:" + inode;
        long self = ProcessHandle.current().pid();

        // this process does not have the file open: an unrelated file on another device
        assertThat(LeaseProbe.holderFromProcLocks(slot,
                List.of("1: POSIX  ADVISORY  WRITE " + self + " " + elsewhere + " 0 EOF"))).isEmpty();
        try (var channel = java.nio.channels.FileChannel.open(slot.lockFile(),
                java.nio.file.StandardOpenOption.READ)) {
            assertThat(channel.isOpen()).isTrue();
            // now it has (as on an overlay file system, whose device differs from the lock's)
            assertThat(LeaseProbe.holderFromProcLocks(slot,
                    List.of("1: POSIX  ADVISORY  WRITE " + self + " " + elsewhere + " 0 EOF")))
                    .contains(self);
        }
    }

    private LeaseSlot slotWithLockFile(String database) throws Exception {
        LeaseSlot slot = LeaseSlot.of(dir.resolve(database));
        Files.createDirectories(slot.lockFile().getParent());
        Files.createFile(slot.lockFile());
        return slot;
    }

    private static String deviceAndInode(Path file) throws Exception {
        long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        long ino = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        return String.format(Locale.ROOT, "%02x:%02x:%d", major, minor, ino);
    }
}
