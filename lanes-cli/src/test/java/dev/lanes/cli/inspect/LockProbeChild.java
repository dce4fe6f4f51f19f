package dev.lanes.cli.inspect;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A second process for {@link InspectCommandTest}: tries the exclusive lock a Lanes lease takes on
 * the byte (second argument) of the lock file (first argument) and prints {@code HELD} when
 * another process holds it, or {@code FREE} (releasing it at once).
 */
public final class LockProbeChild {
    private LockProbeChild() {}

    public static void main(String[] args) throws Exception {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock(Long.parseLong(args[1]), 1, false);
            if (lock == null) {
                System.out.println("HELD");
            } else {
                lock.release();
                System.out.println("FREE");
            }
        }
        System.out.flush();
    }
}
