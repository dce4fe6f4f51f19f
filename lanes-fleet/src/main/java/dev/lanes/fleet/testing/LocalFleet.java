package dev.lanes.fleet.testing;

import dev.lanes.fleet.Durability;
import dev.lanes.fleet.ObjectStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Fleet nodes as separate JVMs on 127.0.0.1 ({@link FleetNodeMain}), on engines started
 * elsewhere ({@link LocalEtcd}, {@link LocalObjectStore}, Litestream): started, killed ({@code
 * kill -9}), paused past their lease (SIGSTOP, SIGCONT), closed gracefully (they hand their
 * tenants over), restarted on their data directories. {@link #close()} kills what still runs.
 *
 * <p>Concurrency: driven from one thread at a time.
 */
public final class LocalFleet implements AutoCloseable {
    /** How every node runs. */
    public record Settings(Durability durability, int ttlSeconds, int intervalMillis,
            int litestreamProcesses, String heap) {}

    /** One node. */
    public static final class Node {
        private final String id;
        private final int port;
        private final Path dataDir;
        private Child process;

        Node(String id, int port, Path dataDir) {
            this.id = id;
            this.port = port;
            this.dataDir = dataDir;
        }

        public String id() {
            return id;
        }

        /** Its HTTP address. */
        public String address() {
            return "http://127.0.0.1:" + port;
        }

        /** Its current process. */
        public Child process() {
            return process;
        }

        public boolean alive() {
            return process != null && process.alive();
        }

        @Override
        public String toString() {
            return "node " + id + " (" + address() + ")";
        }
    }

    private final Path dir;
    private final LocalEtcd etcd;
    private final ObjectStore store;
    private final Path litestream;
    private final Settings settings;
    private final List<Node> nodes = new ArrayList<>();

    public LocalFleet(Path dir, LocalEtcd etcd, ObjectStore store, Path litestream,
            Settings settings) {
        this.dir = dir;
        this.etcd = etcd;
        this.store = store;
        this.litestream = litestream;
        this.settings = settings;
    }

    /** Starts a new node and waits until it serves (at most 180 s: a loaded machine is slow). */
    public Node add() {
        Node node = new Node("n" + (nodes.size() + 1), Child.freePort(),
                dir.resolve("n" + (nodes.size() + 1)));
        nodes.add(node);
        launch(node);
        return node;
    }

    public List<Node> nodes() {
        return List.copyOf(nodes);
    }

    /** {@code kill -9}. */
    public void kill(Node node) {
        node.process.kill();
    }

    /** SIGSTOP. */
    public void pause(Node node) {
        node.process.pause();
    }

    /** SIGCONT. */
    public void resume(Node node) {
        node.process.resume();
    }

    /** {@code close} on its stdin: it hands its tenants over and exits (at most 120 s). */
    public void closeGracefully(Node node) {
        try {
            OutputStream in = node.process.process().getOutputStream();
            in.write("close\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            if (!node.process.process().waitFor(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException(node + " did not leave within 120 s:\n"
                        + node.process.logTail(40));
            }
        } catch (IOException e) {
            throw new IllegalStateException(node + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            node.process.kill();
        }
    }

    /** Starts a stopped or killed node again on its data directory. */
    public void restart(Node node) {
        if (node.alive()) {
            throw new IllegalStateException(node + " still runs");
        }
        launch(node);
    }

    private void launch(Node node) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx" + settings.heap(), "-Xss1m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                // the time first in each log line, for FailoverTimeline (slf4j-simple's flags)
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                "-cp", System.getProperty("java.class.path"),
                FleetNodeMain.class.getName(), node.id, node.dataDir.toString(),
                Integer.toString(node.port), String.join(",", etcd.endpoints()),
                store.endpoint().toString(), store.bucket(), store.accessKeyId(),
                store.secretAccessKey(), litestream.toString(), settings.durability().name(),
                Integer.toString(settings.ttlSeconds()),
                Integer.toString(settings.intervalMillis()),
                Integer.toString(settings.litestreamProcesses()));
        Path log = dir.resolve(node.id + ".log");
        long before = readyLines(log); // a restarted node appends to its previous process's log
        node.process = Child.start("fleet " + node.id, command, log);
        awaitReady(node, before);
    }

    /** How many times the log says a process of the node served; 0 when there is no log. */
    private static long readyLines(Path log) {
        try {
            return Files.exists(log)
                    ? readLines(log).stream().filter(l -> l.equals("READY")).count() : 0;
        } catch (IOException e) {
            return 0; // being written
        }
    }

    private static void awaitReady(Node node, long readyBefore) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        Path log = node.process.log();
        while (true) {
            if (readyLines(log) > readyBefore) {
                return;
            }
            if (!node.process.alive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(node + " did not start:\n"
                        + node.process.logTail(40));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static List<String> readLines(Path log) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                Files.newInputStream(log), StandardCharsets.ISO_8859_1))) {
            return r.lines().toList();
        }
    }

    /** How long etcd needs before a killed node's tenants may move: its lease TTL. */
    public Duration ttl() {
        return Duration.ofSeconds(settings.ttlSeconds());
    }

    /** Kills every node still running. */
    @Override
    public void close() {
        for (Node n : nodes) {
            if (n.alive()) {
                n.process.resume();
                n.process.kill();
            }
        }
    }
}
