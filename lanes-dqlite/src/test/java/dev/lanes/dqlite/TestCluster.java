package dev.lanes.dqlite;

import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanes.dqlite.internal.client.ClientConfig;
import dev.lanes.dqlite.internal.client.Connection;
import dev.lanes.dqlite.internal.client.WireEvents;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real dqlite cluster of separate processes on 127.0.0.1, for tests.
 *
 * <p>Tooling: the node program ({@code dqlite-test-node.c}, a resource of the test tree) is
 * compiled once per JVM into {@code target/dqlite-test/} against libdqlite. When {@code gcc},
 * {@code pkg-config} or libdqlite's headers are missing and the tests run as root with apt-get,
 * they are installed ({@code apt-get install libdqlite-dev gcc pkg-config}, bounded to 300 s);
 * otherwise every test of the class is skipped with a message that says what to install.
 *
 * <p>Forming: node 1 bootstraps a cluster of one; each other node starts empty and is added by
 * the client under test (ADD, then ASSIGN as voter). Each node has its own port (free when
 * chosen) and data directory.
 *
 * <p>Processes: the helpers stop nodes by PID ({@code kill -9}, SIGSTOP, SIGCONT) and restart them
 * on their data directories. {@link #close()} kills every node it started, stopped ones included,
 * and deletes their data directories (their logs stay in {@code target/dqlite-test/}); a JVM
 * shutdown hook kills any node that a test run left behind.
 *
 * <p>Concurrency: a cluster is driven from one test thread at a time; {@code LIVE} is a
 * concurrent set shared with the shutdown hook.
 */
final class TestCluster implements AutoCloseable {
    private static final Path WORK = Path.of("target", "dqlite-test").toAbsolutePath();
    private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(300);
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static Path binary;
    private static String unavailable;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
                "dqlite-test-nodes-reaper"));
    }

    private final Path dir;
    private final List<Node> nodes = new ArrayList<>();

    /** One node process of the cluster. */
    static final class Node {
        final long id;
        final String address;
        final Path dataDir;
        final Path logFile;
        Process process;

        Node(long id, String address, Path dataDir, Path logFile) {
            this.id = id;
            this.address = address;
            this.dataDir = dataDir;
            this.logFile = logFile;
        }

        long pid() {
            return process.pid();
        }

        @Override
        public String toString() {
            return "node " + id + " (" + address + ")";
        }
    }

    private TestCluster(Path dir) {
        this.dir = dir;
    }

    /** Starts a cluster of {@code voters} voting nodes; node 1 leads it when this returns. */
    static TestCluster start(int voters) {
        Path program = nodeProgram();
        Path dir;
        try {
            Files.createDirectories(WORK);
            dir = Files.createTempDirectory(WORK, "cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TestCluster cluster = new TestCluster(dir);
        try {
            Node first = cluster.startNode(1, program);
            cluster.awaitLeader(first);
            DqliteCluster client = cluster.client();
            for (int id = 2; id <= voters; id++) {
                Node node = cluster.startNode(id, program);
                client.add(node.id, node.address);
                client.assign(node.id, DqliteRole.VOTER);
            }
            List<DqliteNode> members = client.members();
            if (members.size() != voters
                    || !members.stream().allMatch(m -> m.role() == DqliteRole.VOTER)) {
                throw new IllegalStateException("the cluster did not form: " + members);
            }
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** The nodes, in id order (node 1 first). */
    List<Node> nodes() {
        return List.copyOf(nodes);
    }

    Node node(long id) {
        return nodes.stream().filter(n -> n.id == id).findFirst().orElseThrow();
    }

    /** The node whose address is {@code address}. */
    Node byAddress(String address) {
        return nodes.stream().filter(n -> n.address.equals(address)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node at " + address));
    }

    String[] addresses() {
        return nodes.stream().map(n -> n.address).toArray(String[]::new);
    }

    /** A client of every node, with timeouts short enough for fault tests. */
    DqliteCluster client() {
        return clientBuilder().build();
    }

    DqliteCluster.Builder clientBuilder() {
        return DqliteCluster.builder()
                .nodes(addresses())
                .connectTimeout(Duration.ofMillis(500))
                .requestTimeout(Duration.ofSeconds(5))
                .leaderTimeout(Duration.ofSeconds(15));
    }

    /** A connection to one node, without discovery (to talk to a follower), 2 s per request. */
    static Connection rawConnection(String address) {
        ClientConfig config = new ClientConfig(Duration.ofSeconds(1), Duration.ofSeconds(2),
                Duration.ofSeconds(2), Duration.ofMillis(10), Duration.ofMillis(100), 1, 1 << 20,
                WireEvents.NONE);
        Connection connection = Connection.open(address, config);
        connection.setRequestTimeout(config.requestTimeout());
        return connection;
    }

    /** Starts one more node, not yet a member: the client must ADD it. */
    Node startExtraNode(long id) {
        return startNode(id, nodeProgram());
    }

    /** SIGKILL, and waits until the process is gone. */
    void kill9(Node node) {
        node.process.destroyForcibly();
        try {
            if (!node.process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(node + " did not die of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        LIVE.remove(node.process);
    }

    /**
     * SIGSTOP, and waits until every thread of the node has stopped (the signal takes effect
     * after kill returns): from then on it answers nothing, while the kernel still accepts
     * connections and buffers bytes for it.
     */
    void freeze(Node node) {
        signal(node, "-STOP");
        awaitThreads(node, true);
    }

    /** SIGCONT, and waits until the node's threads run again. */
    void thaw(Node node) {
        signal(node, "-CONT");
        awaitThreads(node, false);
    }

    /** Waits, bounded, until all threads of the node are stopped, or none is. */
    private static void awaitThreads(Node node, boolean stopped) {
        Path tasks = Path.of("/proc", Long.toString(node.pid()), "task");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            List<Character> states = new ArrayList<>();
            try (var dirs = Files.list(tasks)) {
                for (Path task : dirs.toList()) {
                    String stat = Files.readString(task.resolve("stat"));
                    // pid (comm) state ...: the state follows the last parenthesis
                    states.add(stat.charAt(stat.lastIndexOf(')') + 2));
                }
            } catch (IOException e) {
                // a thread ended while listed: look again
                states.clear();
            }
            boolean allStopped = !states.isEmpty() && states.stream().allMatch(c -> c == 'T' || c == 't');
            boolean noneStopped = !states.isEmpty() && states.stream().noneMatch(c -> c == 'T' || c == 't');
            if (stopped ? allStopped : noneStopped) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(node + " threads are " + states + ", not "
                        + (stopped ? "all stopped" : "running"));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Starts a node that was killed again, on its data directory. */
    void restart(Node node) {
        if (node.process.isAlive()) {
            throw new IllegalStateException(node + " is still running");
        }
        launch(node, nodeProgram());
    }

    @Override
    public void close() {
        for (Node node : nodes) {
            if (node.process != null && node.process.isAlive()) {
                node.process.destroyForcibly();
            }
        }
        for (Node node : nodes) {
            if (node.process != null) {
                try {
                    node.process.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                LIVE.remove(node.process);
            }
        }
        // the logs stay for a failure's post-mortem; the data (raft segments are preallocated,
        // ~25 MB a node) does not
        for (Node node : nodes) {
            deleteTree(node.dataDir);
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // best effort: target/ is cleaned by mvn clean anyway
                }
            });
        } catch (IOException e) {
            // as above
        }
    }

    /** The log of every node, for a failure message. */
    String logs() {
        StringBuilder text = new StringBuilder();
        for (Node node : nodes) {
            try {
                text.append("--- ").append(node).append('\n').append(Files.readString(node.logFile));
            } catch (IOException e) {
                text.append("--- ").append(node).append(": no log: ").append(e.getMessage()).append('\n');
            }
        }
        return text.toString();
    }

    private Node startNode(long id, Path program) {
        Node node = new Node(id, "127.0.0.1:" + freePort(), dir.resolve("node-" + id),
                dir.resolve("node-" + id + ".log"));
        try {
            Files.createDirectories(node.dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        nodes.add(node);
        launch(node, program);
        return node;
    }

    private void launch(Node node, Path program) {
        try {
            Files.writeString(node.logFile, "");
            ProcessBuilder builder = new ProcessBuilder(program.toString(), Long.toString(node.id),
                    node.address, node.dataDir.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(node.logFile.toFile()));
            node.process = builder.start();
            LIVE.add(node.process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + node, e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            String log = readLog(node);
            if (log.contains("ready " + node.id + " ")) {
                return;
            }
            if (!node.process.isAlive() || System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(node + " did not start: " + log);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** Waits until a freshly bootstrapped node 1 has elected itself. */
    private void awaitLeader(Node node) {
        DqliteNode leader = DqliteCluster.builder().nodes(node.address)
                .connectTimeout(Duration.ofMillis(500)).leaderTimeout(Duration.ofSeconds(15))
                .build().leader();
        if (leader.id() != node.id) {
            throw new IllegalStateException("the bootstrap node is not the leader: " + leader);
        }
    }

    private static String readLog(Node node) {
        try {
            return Files.readString(node.logFile);
        } catch (IOException e) {
            return "";
        }
    }

    private static void signal(Node node, String signal) {
        int rc = run(List.of("kill", signal, Long.toString(node.pid())), Duration.ofSeconds(10)).exitCode;
        if (rc != 0) {
            throw new IllegalStateException("kill " + signal + " " + node + " exited " + rc);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The compiled node program, compiling it (and installing the tools) on first use; aborts the
     * calling test (skipped, with the reason) when they cannot be had.
     */
    static synchronized Path nodeProgram() {
        if (binary != null) {
            return binary;
        }
        if (unavailable != null) {
            abort(unavailable);
        }
        String missing = missingTools();
        if (missing != null) {
            if (!isRoot() || !Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
                unavailable = "dqlite cluster tests skipped: " + missing + " and the tests are not"
                        + " running as root with apt-get; install libdqlite-dev, gcc and pkg-config";
                abort(unavailable);
            }
            install();
            missing = missingTools();
            if (missing != null) {
                unavailable = "dqlite cluster tests skipped: " + missing
                        + " after apt-get install libdqlite-dev gcc pkg-config";
                abort(unavailable);
            }
        }
        try {
            Files.createDirectories(WORK);
            Path source = WORK.resolve("dqlite-test-node.c");
            try (InputStream in = TestCluster.class.getResourceAsStream("dqlite-test-node.c")) {
                if (in == null) {
                    throw new IllegalStateException("dqlite-test-node.c is not on the test classpath");
                }
                Files.write(source, in.readAllBytes());
            }
            Path out = WORK.resolve("dqlite-test-node");
            Result flags = run(List.of("pkg-config", "--cflags", "--libs", "dqlite"), Duration.ofSeconds(30));
            List<String> command = new ArrayList<>(List.of("gcc", "-O1", "-Wall", "-o", out.toString(),
                    source.toString()));
            command.addAll(Arrays.asList(flags.output.trim().split("\\s+")));
            command.add("-lpthread");
            Result compiled = run(command, Duration.ofSeconds(120));
            if (compiled.exitCode != 0) {
                throw new IllegalStateException("gcc failed: " + compiled.output);
            }
            binary = out;
            return binary;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String missingTools() {
        if (run(List.of("gcc", "--version"), Duration.ofSeconds(30)).exitCode != 0) {
            return "gcc is missing";
        }
        if (run(List.of("pkg-config", "--exists", "dqlite"), Duration.ofSeconds(30)).exitCode != 0) {
            return "libdqlite-dev (or pkg-config) is missing";
        }
        return null;
    }

    private static boolean isRoot() {
        Result id = run(List.of("id", "-u"), Duration.ofSeconds(10));
        return id.exitCode == 0 && id.output.trim().equals("0");
    }

    /** apt-get install, with one apt-get update first if the package lists are stale. */
    private static void install() {
        long deadline = System.nanoTime() + INSTALL_TIMEOUT.toNanos();
        List<String> install = List.of("apt-get", "install", "-y", "-q", "libdqlite-dev", "gcc", "pkg-config");
        System.err.println("dqlite tests: installing libdqlite-dev gcc pkg-config with apt-get");
        if (run(install, remaining(deadline)).exitCode == 0) {
            return;
        }
        run(List.of("apt-get", "update", "-q"), remaining(deadline));
        Result second = run(install, remaining(deadline));
        if (second.exitCode != 0) {
            System.err.println("dqlite tests: apt-get install failed: " + second.output);
        }
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(TimeUnit.SECONDS.toNanos(1), deadline - System.nanoTime()));
    }

    private record Result(int exitCode, String output) {}

    /** Runs a command to its end within the timeout (else kills it: exit code -1). */
    private static Result run(List<String> command, Duration timeout) {
        try {
            Path output = Files.createTempFile("dqlite-test-cmd", ".out");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(output.toFile());
                builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
                Process process = builder.start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                    return new Result(-1, command + " timed out after " + timeout);
                }
                return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            return new Result(-1, command + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, command + ": interrupted");
        }
    }
}
