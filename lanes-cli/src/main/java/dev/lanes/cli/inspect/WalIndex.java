package dev.lanes.cli.inspect;

import dev.lanes.cli.SqliteFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How far a live database's checkpoints got, read from the header of its wal-index (the {@code
 * -shm} file) without disturbing its owner: no SQLite connection, no lock, no write, and never
 * {@code PRAGMA wal_checkpoint}.
 *
 * <p>The wal-index header is SQLite's documented shared-memory format (version 3007000, stable
 * since SQLite 3.7.0; see "WAL-mode file format" in SQLite's documentation): two copies of a
 * 48-byte header ({@code mxFrame}, the last valid frame of the WAL, at offset 16 of each; the
 * page size at 14), then the checkpoint info whose first field, {@code nBackfill} at 96, counts
 * the frames already copied into the database file. The values are in the machine's byte
 * order. The owner rewrites the header while we read it, so a read is accepted only when both
 * copies are identical and the checksum of the first is right, exactly the test SQLite's own
 * readers apply; otherwise it is retried a few times, then reported as unknown. This reads
 * SQLite's internals rather than an API, which is why it is a watch aid and nothing decides on
 * it.
 *
 * <p>One rule of POSIX locks shapes it: closing <em>any</em> descriptor of a file drops every
 * lock the process holds on that file. SQLite holds its wal-index locks with {@code fcntl} on the
 * {@code -shm} file; a watcher in the same JVM as the owner that opened and closed the file
 * would silently drop them, and a second process could then take the database for unused and
 * reset its wal-index. So the channel to a {@code -shm} file is opened once and never closed
 * (one per file and inode this JVM watched; a new inode, after the owner deleted and recreated
 * the file, gets a channel of its own).
 *
 * <p>Concurrency: {@code KEPT_OPEN} is the one shared state; a channel enters it once, through
 * {@code computeIfAbsent} (so two threads watching one file share one descriptor), and never
 * leaves. Reads are positional ({@code read(buffer, position)}), so threads sharing a channel do
 * not move each other's position.
 *
 * @param pageSize the database's page size, as the header records it
 * @param walFrames frames of the WAL that hold committed transactions ({@code mxFrame})
 * @param checkpointedFrames frames of those already copied into the database file ({@code
 *     nBackfill}); equal to {@code walFrames} when checkpoints caught up
 */
public record WalIndex(int pageSize, long walFrames, long checkpointedFrames) {
    private static final int VERSION = 3007000;
    private static final int HEADER = 48;
    private static final int CHECKPOINT_INFO = 2 * HEADER;
    private static final int READ_BYTES = CHECKPOINT_INFO + 4;
    private static final int ATTEMPTS = 5;
    // never closed: see the class comment
    private static final Map<String, FileChannel> KEPT_OPEN = new ConcurrentHashMap<>();

    /** Frames not yet in the database file. */
    public long backlogFrames() {
        return Math.max(0, walFrames - checkpointedFrames);
    }

    /**
     * Reads the wal-index of {@code database}: empty when it has none (not in WAL mode, or no
     * connection ever opened it so) or when the header could not be read consistently.
     */
    static Optional<WalIndex> read(Path database) throws IOException {
        Path shm = SqliteFiles.beside(database, SqliteFiles.SHM);
        FileChannel channel;
        try {
            channel = channel(shm);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (java.io.UncheckedIOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return Optional.empty(); // deleted between the stat and the open
            }
            throw e.getCause();
        }
        ByteBuffer buffer = ByteBuffer.allocate(READ_BYTES).order(ByteOrder.nativeOrder());
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            buffer.clear();
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, buffer.position()) < 0) {
                    return Optional.empty(); // shorter than a header: not initialised
                }
            }
            Optional<WalIndex> index = parse(buffer);
            if (index.isPresent()) {
                return index;
            }
            Thread.onSpinWait();
        }
        return Optional.empty();
    }

    /**
     * Parses the first {@value #READ_BYTES} bytes of a wal-index, in the machine's byte order:
     * empty unless both header copies agree and carry a valid checksum.
     */
    static Optional<WalIndex> parse(ByteBuffer b) {
        if (b.limit() < READ_BYTES || b.getInt(0) != VERSION || b.get(12) != 1) {
            return Optional.empty();
        }
        for (int i = 0; i < HEADER; i++) {
            if (b.get(i) != b.get(HEADER + i)) {
                return Optional.empty(); // torn: the owner was writing the header
            }
        }
        // SQLite's WAL checksum over the header's first 40 bytes, as native 32-bit words
        int s1 = 0;
        int s2 = 0;
        for (int i = 0; i < 40; i += 8) {
            s1 += b.getInt(i) + s2;
            s2 += b.getInt(i + 4) + s1;
        }
        if (s1 != b.getInt(40) || s2 != b.getInt(44)) {
            return Optional.empty();
        }
        int page = Short.toUnsignedInt(b.getShort(14));
        int pageSize = page == 1 ? 65536 : page;
        long mxFrame = Integer.toUnsignedLong(b.getInt(16));
        long backfill = Integer.toUnsignedLong(b.getInt(CHECKPOINT_INFO));
        return Optional.of(new WalIndex(pageSize, mxFrame, backfill));
    }

    private static FileChannel channel(Path shm) throws IOException {
        Object inode;
        try {
            inode = Files.getAttribute(shm, "unix:ino");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            inode = "?"; // no inodes here: one channel per path
        }
        String key = shm.toAbsolutePath() + "#" + inode;
        FileChannel channel = KEPT_OPEN.get(key);
        if (channel != null) {
            return channel;
        }
        return KEPT_OPEN.computeIfAbsent(key, k -> {
            try {
                return FileChannel.open(shm, StandardOpenOption.READ);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }
}
