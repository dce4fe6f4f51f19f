package dev.lanes.cli.inspect;

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
    void theLockFileIsNamedAsLanesNamesIt() {
        assertThat(LeaseProbe.lockFileOf(Path.of("/data/app.db")))
                .isEqualTo(Path.of("/data/app.db.lanes-lock"));
    }

    @Test
    void aPosixLockOnTheLockFilesDeviceAndInodeIsTheLease() throws Exception {
        Path lock = Files.createFile(dir.resolve("app.db.lanes-lock"));
        String id = deviceAndInode(lock);

        assertThat(LeaseProbe.holderFromProcLocks(lock, List.of(
                "1: FLOCK  ADVISORY  WRITE 10 " + id + " 0 EOF",
                "2: POSIX  ADVISORY  WRITE 4242 " + id + " 0 EOF"))).contains(4242L);
        // a waiter blocked on the lock is not its holder; another inode is another file
        assertThat(LeaseProbe.holderFromProcLocks(lock, List.of(
                "1: -> POSIX  ADVISORY  WRITE 77 " + id + " 0 EOF",
                "2: POSIX  ADVISORY  WRITE 4242 00:00:1 0 EOF"))).isEmpty();
    }

    @Test
    void theSameInodeOnAnotherDeviceCountsOnlyWhenItsHolderHasTheFileOpen() throws Exception {
        Path lock = Files.createFile(dir.resolve("app.db.lanes-lock"));
        long inode = ((Number) Files.getAttribute(lock, "unix:ino")).longValue();
        String elsewhere = "ab:cd:" + inode;
        long self = ProcessHandle.current().pid();

        // this process does not have the file open: an unrelated file on another device
        assertThat(LeaseProbe.holderFromProcLocks(lock,
                List.of("1: POSIX  ADVISORY  WRITE " + self + " " + elsewhere + " 0 EOF"))).isEmpty();
        try (var channel = java.nio.channels.FileChannel.open(lock,
                java.nio.file.StandardOpenOption.READ)) {
            assertThat(channel.isOpen()).isTrue();
            // now it has (as on an overlay file system, whose device differs from the lock's)
            assertThat(LeaseProbe.holderFromProcLocks(lock,
                    List.of("1: POSIX  ADVISORY  WRITE " + self + " " + elsewhere + " 0 EOF")))
                    .contains(self);
        }
    }

    private static String deviceAndInode(Path file) throws Exception {
        long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
        long ino = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        return String.format(Locale.ROOT, "%02x:%02x:%d", major, minor, ino);
    }
}
