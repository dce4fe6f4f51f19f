package dev.lanes.iofault;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The channel from a {@link FaultChild} to its test: text lines appended to a memory-mapped file.
 *
 * <p>Why a mapping: storing into a shared mapping makes no system call, so none of the libfiu
 * failure points the tests switch on ({@code posix/io/rw/write}, {@code pwrite}, {@code fsync},
 * ...) can lose or fail a line, and the kernel's page cache keeps every stored byte when the child
 * is killed with SIGKILL. A pipe to stdout would go through {@code write(2)}, which the ENOSPC
 * rounds fail on purpose. Only the line being stored at the instant of a kill can be incomplete;
 * it has no newline yet, and readers drop it.
 *
 * <p>Concurrency: the child's threads append under {@link #lock}, which guards the mapping's
 * position and {@link #full}; one line is stored whole, in order, before the next begins. The test
 * reads the file through the file system ({@link Reader}), never through the mapping.
 */
final class OutcomeChannel {
    /** Room for some 200,000 lines; a round writes a few thousand. */
    static final int CAPACITY = 32 << 20;
    /** The last line when the capacity ran out; the test treats it as a harness failure. */
    static final String OVERFLOW = "E event=overflow";

    private final ReentrantLock lock = new ReentrantLock();
    private final MappedByteBuffer map; // guarded by lock
    private boolean full; // guarded by lock

    private OutcomeChannel(MappedByteBuffer map) {
        this.map = map;
    }

    /** Creates {@code file} (it must not exist) and maps it; the mapping outlives the channel. */
    static OutcomeChannel create(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new OutcomeChannel(channel.map(FileChannel.MapMode.READ_WRITE, 0, CAPACITY));
        }
    }

    /** Appends one line (ASCII, no newline inside). Never blocks on I/O, never fails. */
    void append(String line) {
        byte[] bytes = (line + "\n").getBytes(US_ASCII);
        byte[] overflow = (OVERFLOW + "\n").getBytes(US_ASCII);
        lock.lock();
        try {
            if (full) {
                return;
            }
            if (map.remaining() < bytes.length + overflow.length) {
                map.put(overflow);
                full = true;
                return;
            }
            map.put(bytes);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads a channel's complete lines through the file system, incrementally. The file's unused
     * tail is zeros, so the first zero byte ends what the child stored so far. Not thread-safe:
     * one reader per test thread.
     */
    static final class Reader {
        private final Path file;
        private long offset;

        Reader(Path file) {
            this.file = file;
        }

        /**
         * The complete lines stored since the last call. While the child runs, a line may be seen
         * before all its bytes are visible; callers that poll a running child use the lines for
         * progress only, and judge the round from {@link #readAll(Path)} after the child died.
         */
        List<String> poll() {
            List<String> lines = new ArrayList<>();
            StringBuilder partial = new StringBuilder();
            if (!Files.exists(file)) {
                return lines; // the child has not created it yet
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
                boolean end = false;
                while (!end) {
                    buffer.clear();
                    int n = channel.read(buffer, offset);
                    if (n <= 0) {
                        break;
                    }
                    for (int i = 0; i < n; i++) {
                        byte b = buffer.get(i);
                        if (b == 0) {
                            end = true;
                            break;
                        }
                        offset++;
                        if (b == '\n') {
                            lines.add(partial.toString());
                            partial.setLength(0);
                        } else {
                            partial.append((char) b);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the outcome channel " + file, e);
            }
            // An incomplete line is read again next time, whole.
            offset -= partial.length();
            return lines;
        }
    }

    /** Every complete line of the channel; call it once the child is dead. */
    static List<String> readAll(Path file) {
        return new Reader(file).poll();
    }
}
