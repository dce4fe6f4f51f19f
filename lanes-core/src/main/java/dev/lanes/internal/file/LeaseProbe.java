package dev.lanes.internal.file;

import dev.lanes.LeaseStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds out whether a Lanes runtime holds a database's lease without ever holding it; what
 * {@link dev.lanes.DatabaseFiles#lease} does.
 *
 * <p>The lease is an exclusive OS record lock ({@code fcntl}, through {@link
 * FileChannel#tryLock(long, long, boolean)}) on one byte of a lock file that the databases of a
 * directory share, {@code .lanes-lock/<xx>} beside the database ({@link LeaseSlot} says which
 * file and byte). Two facts of POSIX locks shape the probe:
 * <ul>
 *   <li>A lock attempt that succeeds holds the lock, however briefly: an owner opening the
 *       database in that instant would be refused.
 *   <li>Closing <em>any</em> descriptor of a file drops every lock the process holds on it. A
 *       probe that opened the lock file inside a JVM that owns a lease in it would, on closing
 *       it, silently drop that lease.
 * </ul>
 * So on Linux the probe reads the kernel's lock table, {@code /proc/locks}, which opens nothing:
 * a {@code POSIX} lock on the lock file's device and inode whose range covers the database's byte
 * means the lease is held, and the line names the holder's process. On an overlay file system the
 * device in that table is the underlying one, not the one {@code stat} reports; a lock on the same
 * inode is then accepted when the holder's {@code /proc/<pid>/fd} shows it has the lock file open.
 *
 * <p>Without {@code /proc/locks} the probe falls back to a shared lock attempt on the byte,
 * through a read-only channel: refused means held. That channel is never closed, so that the
 * probe cannot drop a lease this JVM holds in the same lock file; a JVM keeps one per lock file
 * it probed.
 */
public final class LeaseProbe {
    private static final Path PROC_LOCKS = Path.of("/proc/locks");
    // channels that must never close: closing one would drop this JVM's own leases (see above)
    private static final Map<Path, FileChannel> KEPT_OPEN = new ConcurrentHashMap<>();

    private LeaseProbe() {}

    /** Probes the lease of {@code database}, an existing file. */
    public static LeaseStatus probe(Path database) throws IOException {
        // the slot derives from the name SQLite opens: the one with symbolic links resolved
        LeaseSlot slot = LeaseSlot.of(database.toRealPath());
        Path lockFile = slot.lockFile();
        if (!Files.exists(lockFile)) {
            return new LeaseStatus(lockFile.toString(), slot.offset(), false, false, null,
                    "no-lock-file");
        }
        if (Files.isReadable(PROC_LOCKS)) {
            Optional<Long> holder = holderFromProcLocks(slot, Files.readAllLines(PROC_LOCKS));
            return new LeaseStatus(lockFile.toString(), slot.offset(), true, holder.isPresent(),
                    holder.orElse(null), "proc-locks");
        }
        return new LeaseStatus(lockFile.toString(), slot.offset(), true, heldByFileLock(slot),
                null, "file-lock");
    }

    /**
     * The process holding a {@code POSIX} lock on the byte of {@code slot} according to the lines
     * of {@code /proc/locks}, if any.
     */
    static Optional<Long> holderFromProcLocks(LeaseSlot slot, List<String> procLocks)
            throws IOException {
        Path lockFile = slot.lockFile();
        long inode = ((Number) Files.getAttribute(lockFile, "unix:ino")).longValue();
        long dev = ((Number) Files.getAttribute(lockFile, "unix:dev")).longValue();
        String device = String.format(Locale.ROOT, "%02x:%02x", major(dev), minor(dev));
        Long sameInode = null;
        for (String line : procLocks) {
            // "1: POSIX  ADVISORY  WRITE 2581 fe:00:2147432 0 EOF"; blocked waiters carry "->"
            String[] f = line.trim().split("\\s+");
            if (f.length < 8 || !f[1].equals("POSIX")) {
                continue;
            }
            String[] id = f[5].split(":");
            if (id.length != 3 || !id[2].equals(Long.toString(inode))) {
                continue;
            }
            long pid;
            try {
                pid = Long.parseLong(f[4]);
                long start = Long.parseLong(f[6]);
                long end = f[7].equals("EOF") ? Long.MAX_VALUE : Long.parseLong(f[7]);
                if (slot.offset() < start || slot.offset() > end) {
                    continue;
                }
            } catch (NumberFormatException e) {
                continue;
            }
            if ((id[0] + ":" + id[1]).equalsIgnoreCase(device)) {
                return Optional.of(pid);
            }
            if (sameInode == null && hasOpen(pid, lockFile)) {
                sameInode = pid;
            }
        }
        return Optional.ofNullable(sameInode);
    }

    /** Whether process {@code pid} has {@code file} open, as far as its fd table can be read. */
    private static boolean hasOpen(long pid, Path file) {
        Path fds = Path.of("/proc", Long.toString(pid), "fd");
        try (var links = Files.list(fds)) {
            Path real = file.toRealPath();
            return links.anyMatch(link -> {
                try {
                    return Files.readSymbolicLink(link).equals(real);
                } catch (IOException | UnsupportedOperationException e) {
                    return false;
                }
            });
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    // glibc's gnu_dev_major / gnu_dev_minor: how Linux packs a device number into st_dev
    private static long major(long dev) {
        return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    }

    private static long minor(long dev) {
        return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    }

    private static boolean heldByFileLock(LeaseSlot slot) throws IOException {
        FileChannel channel;
        try {
            channel = KEPT_OPEN.computeIfAbsent(slot.lockFile(), path -> {
                try {
                    return FileChannel.open(path, StandardOpenOption.READ);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        try {
            FileLock lock = channel.tryLock(slot.offset(), 1, true);
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            // this JVM holds the lease
            return true;
        }
    }
}
