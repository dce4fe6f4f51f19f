package dev.lanes.cli.inspect;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Finds out whether a Lanes runtime holds a database's lease without ever holding it.
 *
 * <p>The lease is an exclusive OS record lock ({@code fcntl}, through {@link FileChannel#tryLock()},
 * over the whole file) on {@code <database file name>.lanes-lock} beside the database (see {@code
 * dev.lanes.internal.Lease}). Two facts of POSIX locks shape the probe:
 * <ul>
 *   <li>A lock attempt that succeeds holds the lock, however briefly: an owner opening the
 *       database in that instant would be refused.
 *   <li>Closing <em>any</em> descriptor of a file drops every lock the process holds on it. A
 *       probe that opened the lock file inside a JVM that owns the lease would, on closing it,
 *       silently drop that lease.
 * </ul>
 * So on Linux the probe reads the kernel's lock table, {@code /proc/locks}, which opens nothing:
 * a {@code POSIX} lock on the lock file's device and inode means the lease is held, and the line
 * names the holder's process. On an overlay file system the device in that table is the
 * underlying one, not the one {@code stat} reports; a lock on the same inode is then accepted when
 * the holder's {@code /proc/<pid>/fd} shows it has the lock file open.
 *
 * <p>Without {@code /proc/locks} the probe falls back to a shared lock attempt on a read-only
 * channel: refused means held. This is exact in a process that owns no lease on the database,
 * such as the {@code lanes inspect} command; should it find the lease held by its own JVM
 * ({@link OverlappingFileLockException}), it keeps that channel open for the life of the JVM
 * rather than drop the lease by closing it.
 */
public final class LeaseProbe {
    /** The suffix of the lock file beside a database, as {@code dev.lanes.internal.Lease} names it. */
    public static final String LOCK_SUFFIX = ".lanes-lock";

    private static final Path PROC_LOCKS = Path.of("/proc/locks");
    // channels that must never close: closing one would drop this JVM's own lease (see above)
    private static final Queue<FileChannel> KEPT_OPEN = new ConcurrentLinkedQueue<>();

    private LeaseProbe() {}

    /** The lock file beside {@code database}. */
    public static Path lockFileOf(Path database) {
        return database.resolveSibling(database.getFileName() + LOCK_SUFFIX);
    }

    /** Probes the lease of {@code database}. */
    public static LeaseStatus probe(Path database) throws IOException {
        Path lockFile = lockFileOf(database.toAbsolutePath());
        if (!Files.exists(lockFile)) {
            return new LeaseStatus(lockFile.toString(), false, false, null, "no-lock-file");
        }
        if (Files.isReadable(PROC_LOCKS)) {
            Optional<Long> holder = holderFromProcLocks(lockFile, Files.readAllLines(PROC_LOCKS));
            return new LeaseStatus(lockFile.toString(), true, holder.isPresent(),
                    holder.orElse(null), "proc-locks");
        }
        return new LeaseStatus(lockFile.toString(), true, heldByFileLock(lockFile), null,
                "file-lock");
    }

    /**
     * The process holding a {@code POSIX} lock on {@code lockFile} according to the lines of
     * {@code /proc/locks}, if any.
     */
    static Optional<Long> holderFromProcLocks(Path lockFile, List<String> procLocks)
            throws IOException {
        long inode = ((Number) Files.getAttribute(lockFile, "unix:ino")).longValue();
        long dev = ((Number) Files.getAttribute(lockFile, "unix:dev")).longValue();
        String device = String.format(Locale.ROOT, "%02x:%02x", major(dev), minor(dev));
        Long sameInode = null;
        for (String line : procLocks) {
            // "1: POSIX  ADVISORY  WRITE 2581 fe:00:2147432 0 EOF"; blocked waiters carry "->"
            String[] f = line.trim().split("\\s+");
            if (f.length < 6 || !f[1].equals("POSIX")) {
                continue;
            }
            String[] id = f[5].split(":");
            if (id.length != 3 || !id[2].equals(Long.toString(inode))) {
                continue;
            }
            long pid;
            try {
                pid = Long.parseLong(f[4]);
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

    private static boolean heldByFileLock(Path lockFile) throws IOException {
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.READ);
        boolean keep = false;
        try {
            FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true);
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            // this JVM holds the lease: closing the channel would drop it
            keep = true;
            KEPT_OPEN.add(channel);
            return true;
        } finally {
            if (!keep) {
                channel.close();
            }
        }
    }
}
