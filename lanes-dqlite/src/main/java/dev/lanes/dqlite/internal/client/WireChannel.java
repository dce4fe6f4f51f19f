package dev.lanes.dqlite.internal.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * One non-blocking TCP socket with its own selector, so that every connect, write and read has a
 * deadline.
 *
 * <p>Concurrency: one thread at a time does I/O (the owning {@link Connection} holds its request
 * lock around every call); {@link #close()} may come from any thread at any time, and makes an
 * I/O call in progress fail at once (the selector wakes and is closed). The socket has
 * TCP_NODELAY set: a request is one small write followed by a wait for the answer, the pattern
 * Nagle's algorithm delays by up to 40 ms.
 *
 * <p>Reads are buffered: {@link #read(int, long)} returns a view of the next {@code n} bytes,
 * valid until the next read.
 */
final class WireChannel implements AutoCloseable {
    private static final int READ_BUFFER = 64 * 1024;

    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    /** Unread bytes are [position, limit). Touched only by the thread doing I/O. */
    private ByteBuffer in = emptyBuffer(READ_BUFFER);

    private WireChannel(SocketChannel channel, Selector selector, SelectionKey key) {
        this.channel = channel;
        this.selector = selector;
        this.key = key;
    }

    /** Connects within the deadline (nanoTime) and returns the channel. */
    static WireChannel connect(InetSocketAddress address, long deadline) throws IOException {
        SocketChannel channel = SocketChannel.open();
        Selector selector = null;
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            selector = Selector.open();
            SelectionKey key = channel.register(selector, 0);
            WireChannel wire = new WireChannel(channel, selector, key);
            if (!channel.connect(address)) {
                while (!channel.finishConnect()) {
                    wire.await(SelectionKey.OP_CONNECT, deadline);
                }
            }
            return wire;
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            if (selector != null) {
                closeQuietly(selector);
            }
            throw e;
        }
    }

    /**
     * Writes all of {@code buffer} before the deadline.
     *
     * @param progress told, once, when the first byte reached the socket
     */
    void write(ByteBuffer buffer, long deadline, Runnable progress) throws IOException {
        boolean first = true;
        while (buffer.hasRemaining()) {
            int written = channel.write(buffer);
            if (written > 0) {
                if (first) {
                    first = false;
                    progress.run();
                }
            } else {
                await(SelectionKey.OP_WRITE, deadline);
            }
        }
    }

    /**
     * The next {@code n} bytes, little endian, read before the deadline. The view is valid until
     * the next call.
     */
    ByteBuffer read(int n, long deadline) throws IOException {
        if (in.remaining() < n) {
            fill(n, deadline);
        }
        int start = in.position();
        in.position(start + n);
        return in.slice(start, n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void fill(int n, long deadline) throws IOException {
        if (in.capacity() < n) {
            ByteBuffer bigger = emptyBuffer(Math.max(n, in.capacity() * 2));
            bigger.clear();
            bigger.put(in);
            bigger.flip();
            in = bigger;
        } else if (in.capacity() > 4 * READ_BUFFER && in.remaining() <= READ_BUFFER && n <= READ_BUFFER) {
            // a huge result's buffer is not kept once it is read
            ByteBuffer smaller = emptyBuffer(READ_BUFFER);
            smaller.clear();
            smaller.put(in);
            smaller.flip();
            in = smaller;
        }
        in.compact(); // write mode: unread bytes at [0, position)
        try {
            while (in.position() < n) {
                int read = channel.read(in);
                if (read < 0) {
                    throw new EOFException("the server closed the connection");
                }
                if (read == 0) {
                    await(SelectionKey.OP_READ, deadline);
                }
            }
        } finally {
            in.flip();
        }
    }

    private void await(int ops, long deadline) throws IOException {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
            throw new WireTimeoutException();
        }
        try {
            key.interestOps(ops);
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining + 999_999)));
            selector.selectedKeys().clear();
        } catch (ClosedSelectorException | CancelledKeyException e) {
            throw new IOException("the connection was closed", e);
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted while waiting for the server");
        }
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() {
        closeQuietly(selector);
        closeQuietly(channel);
    }

    private static ByteBuffer emptyBuffer(int capacity) {
        ByteBuffer buffer = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
        buffer.limit(0);
        return buffer;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing is best effort; the socket is gone either way
        }
    }

    /** The deadline passed before the server answered. */
    static final class WireTimeoutException extends IOException {
        WireTimeoutException() {
            super("timed out");
        }
    }
}
