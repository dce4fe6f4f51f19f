package dev.lanes.dqlite.internal.client;

import dev.lanes.dqlite.internal.wire.Hex;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A scripted stand-in for a dqlite node on 127.0.0.1, for tests of the client's transport and
 * discovery against answers a real node cannot be made to give on cue (silence, a dropped
 * socket, a malformed message, a stale leader hint).
 *
 * <p>Each accepted connection gets its own thread, which reads the 8-byte handshake, then each
 * request (header and body), records it, and does what the script says: write reply bytes, stay
 * silent, or drop the connection. Concurrency: {@code requests}, {@code handshakes} and {@code
 * sockets} are concurrent lists; {@code received} counts requests for tests to wait on.
 */
final class FakeNode implements AutoCloseable {
    /** What the script sees of a request. */
    record Request(int connection, int type, byte[] body) {
        ByteBuffer bodyBuffer() {
            return ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** What the node does about a request. */
    sealed interface Action permits Reply, Silence, Drop {}

    /** Writes these bytes (one or more whole messages). */
    record Reply(byte[] bytes) implements Action {}

    /** Answers nothing, and reads nothing more on that connection. */
    record Silence() implements Action {}

    /** Closes the connection. */
    record Drop() implements Action {}

    @FunctionalInterface
    interface Script {
        Action on(FakeNode node, Request request) throws Exception;
    }

    private final ServerSocket server;
    private final Script script;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<byte[]> handshakes = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Semaphore received = new Semaphore(0);

    FakeNode(Script script) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.script = script;
        Thread acceptor = new Thread(this::accept, "fake-dqlite-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        threads.add(acceptor);
        acceptor.start();
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    List<byte[]> handshakes() {
        return List.copyOf(handshakes);
    }

    /** Waits until {@code count} more requests have arrived; false on timeout. */
    boolean awaitRequests(int count, long timeout, TimeUnit unit) throws InterruptedException {
        return received.tryAcquire(count, timeout, unit);
    }

    /** Bytes a connection has received but not yet read (a request sent while the node is busy). */
    int unreadBytes(int connection) throws IOException {
        return sockets.get(connection).getInputStream().available();
    }

    private void accept() {
        int index = 0;
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                int connection = index++;
                Thread thread = new Thread(() -> serve(socket, connection),
                        "fake-dqlite-" + server.getLocalPort() + "-" + connection);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket socket, int connection) {
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            byte[] handshake = new byte[8];
            in.readFully(handshake);
            handshakes.add(handshake);
            while (true) {
                byte[] header = new byte[8];
                in.readFully(header);
                ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
                byte[] body = new byte[h.getInt(0) * 8];
                in.readFully(body);
                Request request = new Request(connection, h.get(4) & 0xff, body);
                requests.add(request);
                received.release();
                Action action = script.on(this, request);
                if (action instanceof Reply reply) {
                    out.write(reply.bytes());
                    out.flush();
                } else if (action instanceof Silence) {
                    waitForClose(in);
                    return;
                } else {
                    return;
                }
            }
        } catch (Exception e) {
            // the client went away, or the test closed the node
        }
    }

    /** Holds the connection open, reading and dropping whatever comes, until the peer closes it. */
    private static void waitForClose(InputStream in) throws IOException {
        byte[] sink = new byte[4096];
        while (in.read(sink) >= 0) {
            // discard
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        for (Thread thread : threads) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    // ---- building replies ----

    /** One message: header (words, type, schema 0) and the body given as hex. */
    static byte[] message(int type, String bodyHex) {
        byte[] body = Hex.bytes(bodyHex);
        ByteBuffer message = ByteBuffer.allocate(8 + body.length).order(ByteOrder.LITTLE_ENDIAN);
        message.putInt(body.length / 8).put((byte) type).put((byte) 0).putShort((short) 0).put(body);
        return message.array();
    }

    static Reply reply(byte[]... messages) {
        int size = 0;
        for (byte[] m : messages) {
            size += m.length;
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        for (byte[] m : messages) {
            all.put(m);
        }
        return new Reply(all.array());
    }

    /** A little-endian word as hex. */
    static String word(long value) {
        return Hex.of(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
    }

    /** Zero-terminated, word-padded text as hex. */
    static String text(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[(bytes.length + 8) & -8];
        System.arraycopy(bytes, 0, padded, 0, bytes.length);
        return Hex.of(padded);
    }

    static byte[] failure(long code, String message) {
        return message(0, word(code) + text(message));
    }

    static byte[] server(long id, String address) {
        return message(1, word(id) + text(address));
    }

    static byte[] welcome() {
        return message(2, word(15_000));
    }

    static byte[] servers(List<String> addresses) {
        StringBuilder body = new StringBuilder(word(addresses.size()));
        for (int i = 0; i < addresses.size(); i++) {
            body.append(word(i + 1)).append(text(addresses.get(i))).append(word(0));
        }
        return message(3, body.toString());
    }

    static byte[] db() {
        return message(4, "0000000000000000");
    }

    static byte[] result(long lastInsertId, long rowsAffected) {
        return message(6, word(lastInsertId) + word(rowsAffected));
    }

    /** A ROWS batch of one INTEGER column "n" with these values. */
    static byte[] rows(boolean last, long... values) {
        StringBuilder body = new StringBuilder(word(1) + text("n"));
        for (long value : values) {
            body.append(word(1)).append(word(value));
        }
        body.append(last ? "ffffffffffffffff" : "eeeeeeeeeeeeeeee");
        return message(7, body.toString());
    }

    /**
     * A script for a node that leads (it names itself), registers clients, lists {@code members}
     * (itself when empty), opens databases, and hands every other request to {@code rest}.
     */
    static Script leader(long id, List<String> members, Script rest) {
        return (node, request) -> switch (request.type()) {
            case 0 -> reply(server(id, node.address()));
            case 1 -> reply(welcome());
            case 3 -> reply(db());
            case 16 -> reply(servers(members.isEmpty() ? List.of(node.address()) : members));
            default -> rest.on(node, request);
        };
    }

    /** A script for a node that names {@code leader} leader (empty: knows none) and does nothing else. */
    static Script follower(String leader) {
        return (node, request) -> request.type() == 0
                ? reply(server(leader.isEmpty() ? 0 : 9, leader))
                : new Drop();
    }

    static List<String> list(String... addresses) {
        return new ArrayList<>(List.of(addresses));
    }
}
