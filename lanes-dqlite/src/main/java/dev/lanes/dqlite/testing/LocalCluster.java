package dev.lanes.dqlite.testing;

import dev.lanes.dqlite.DqliteCluster;
import dev.lanes.dqlite.DqliteNode;
import dev.lanes.dqlite.DqliteRole;
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
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real dqlite cluster of separate node processes on 127.0.0.1, for tests and benchmarks (not
 * for production: the nodes are a small C program compiled here, with a 10 ms latency hint).
 *
 * <p>Tooling: the node program ({@code dqlite-node.c}, a resource of this package) is compiled
 * once per JVM and work directory against libdqlite. When {@code gcc}, {@code pkg-config} or
 * libdqlite's headers are missing and the process runs as root with apt-get, they are installed
 * ({@code apt-get install libdqlite-dev gcc pkg-config}, bounded to 300 s); otherwise {@link
 * Unavailable} says what to install.
 *
 * <p>Forming: node 1 bootstraps a cluster of one; each other node starts empty and is added by
 * the client (ADD, then ASSIGN as voter). Each node has its own port (free when chosen) and data
 * directory under the work directory.
 *
 * <p>Processes: the helpers stop nodes by PID ({@code kill -9}, SIGSTOP, SIGCONT) and restart
 * them on their data directories. {@link #close()} kills every node it started, stopped ones
 * included, and deletes their data directories (their logs stay); a JVM shutdown hook kills any
 * node left behind.
 *
 * <p>Concurrency: a cluster is driven from one thread at a time; {@code LIVE} is a concurrent set
 * shared with the shutdown hook, and the compiled program is guarded by {@code BUILD}.
 */
public final class LocalCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LocalCluster.class);
    private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(300);
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final ReentrantLock BUILD = new ReentrantLock();
    // guarded by BUILD
    private static Path binary;
    private static String unavailable;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> LIVE.forEach(Process::destroyForcibly), "dqlite-nodes-reaper"));
    }

    /** libdqlite or the tools to build a node are missing and cannot be installed. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    private final Path dir;
    private final Path program;
    private final List<Node> nodes = new ArrayList<>();

    /** One node process of the cluster. */
    public static final class Node {
        private final long id;
        private final String address;
        private final Path dataDir;
        private final Path logFile;
        private Process process;

        Node(long id, String address, Path dataDir, Path logFile) {
            this.id = id;
            this.address = address;
            this.dataDir = dataDir;
            this.logFile = logFile;
        }

        /** The node's Raft id. */
        public long id() {
            return id;
        }

        /** Its {@code host:port}. */
        public String address() {
            return address;
        }

        /** The PID of its current process. */
        public long pid() {
            return process.pid();
        }

        /** Whether its process runs (a stopped one counts as running). */
        public boolean alive() {
            return process != null && process.isAlive();
        }

        @Override
        public String toString() {
            return "node " + id + " (" + address + ")";
        }
    }

    private LocalCluster(Path dir, Path program) {
        this.dir = dir;
        this.program = program;
    }

    /**
     * Starts a cluster of {@code voters} voting nodes under {@code workDir} (the node program is
     * built there too); node 1 leads it when this returns.
     *
     * @throws Unavailable when libdqlite or the build tools are missing and cannot be installed
     */
    public static LocalCluster start(int voters, Path workDir) throws Unavailable {
        Path program = nodeProgram(workDir);
        Path dir;
        try {
            Files.createDirectories(workDir);
            dir = Files.createTempDirectory(workDir, "cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LocalCluster cluster = new LocalCluster(dir, program);
        try {
            Node first = cluster.startNode(1);
            cluster.awaitLeader(first);
            DqliteCluster client = cluster.client();
            for (int id = 2; id <= voters; id++) {
                Node node = cluster.startNode(id);
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
    public List<Node> nodes() {
        return List.copyOf(nodes);
    }

    /** The node with Raft id {@code id}. */
    public Node node(long id) {
        return nodes.stream().filter(n -> n.id == id).findFirst().orElseThrow();
    }

    /** The node whose address is {@code address}. */
    public Node byAddress(String address) {
        return nodes.stream().filter(n -> n.address.equals(address)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node at " + address));
    }

    /** The nodes' {@code host:port}s, in id order. */
    public String[] addresses() {
        return nodes.stream().map(n -> n.address).toArray(String[]::new);
    }

    /** A client of every node, with timeouts short enough for fault tests. */
    public DqliteCluster client() {
        return clientBuilder().build();
    }

    /** The builder of {@link #client()}, to change a setting. */
    public DqliteCluster.Builder clientBuilder() {
        return DqliteCluster.builder()
                .nodes(addresses())
                .connectTimeout(Duration.ofMillis(500))
                .requestTimeout(Duration.ofSeconds(5))
                .leaderTimeout(Duration.ofSeconds(15));
    }

    /** Starts one more node, not yet a member: the client must ADD it. */
    public Node startExtraNode(long id) {
        return startNode(id);
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill9(Node node) {
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
    public void freeze(Node node) {
        signal(node, "-STOP");
        awaitThreads(node, true);
    }

    /** SIGCONT, and waits until the node's threads run again. */
    public void thaw(Node node) {
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
            boolean allStopped = !states.isEmpty()
                    && states.stream().allMatch(c -> c == 'T' || c == 't');
            boolean noneStopped = !states.isEmpty()
                    && states.stream().noneMatch(c -> c == 'T' || c == 't');
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
    public void restart(Node node) {
        if (node.process.isAlive()) {
            throw new IllegalStateException(node + " is still running");
        }
        launch(node);
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
                    // best effort: the work directory is scratch
                }
            });
        } catch (IOException e) {
            // as above
        }
    }

    /** The log of every node, for a failure message. */
    public String logs() {
        StringBuilder text = new StringBuilder();
        for (Node node : nodes) {
            try {
                text.append("--- ").append(node).append('\n')
                        .append(Files.readString(node.logFile));
            } catch (IOException e) {
                text.append("--- ").append(node).append(": no log: ").append(e.getMessage())
                        .append('\n');
            }
        }
        return text.toString();
    }

    private Node startNode(long id) {
        Node node = new Node(id, "127.0.0.1:" + freePort(), dir.resolve("node-" + id),
                dir.resolve("node-" + id + ".log"));
        try {
            Files.createDirectories(node.dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        nodes.add(node);
        launch(node);
        return node;
    }

    private void launch(Node node) {
        try {
            Files.writeString(node.logFile, "");
            ProcessBuilder builder = new ProcessBuilder(program.toString(),
                    Long.toString(node.id), node.address, node.dataDir.toString())
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
        int rc = run(List.of("kill", signal, Long.toString(node.pid())),
                Duration.ofSeconds(10)).exitCode;
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
     * The node program, compiled into {@code workDir} on first use (installing the tools when
     * missing and allowed).
     *
     * @throws Unavailable when the tools cannot be had; later calls say so at once
     */
    public static Path nodeProgram(Path workDir) throws Unavailable {
        BUILD.lock();
        try {
            if (binary != null && binary.startsWith(workDir.toAbsolutePath())
                    && Files.isExecutable(binary)) {
                return binary;
            }
            if (unavailable != null) {
                throw new Unavailable(unavailable);
            }
            String missing = missingTools();
            if (missing != null) {
                if (!isRoot() || !Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
                    unavailable = missing + ", and this process is not root with apt-get; "
                            + "install libdqlite-dev, gcc and pkg-config";
                    throw new Unavailable(unavailable);
                }
                install();
                missing = missingTools();
                if (missing != null) {
                    unavailable = missing + " after apt-get install libdqlite-dev gcc pkg-config";
                    throw new Unavailable(unavailable);
                }
            }
            binary = compile(workDir.toAbsolutePath());
            return binary;
        } finally {
            BUILD.unlock();
        }
    }

    private static Path compile(Path workDir) {
        try {
            Files.createDirectories(workDir);
            Path source = workDir.resolve("dqlite-node.c");
            try (InputStream in = LocalCluster.class.getResourceAsStream("dqlite-node.c")) {
                if (in == null) {
                    throw new IllegalStateException("dqlite-node.c is not on the classpath");
                }
                Files.write(source, in.readAllBytes());
            }
            Path out = workDir.resolve("dqlite-node");
            Result flags = run(List.of("pkg-config", "--cflags", "--libs", "dqlite"),
                    Duration.ofSeconds(30));
            List<String> command = new ArrayList<>(List.of("gcc", "-O1", "-Wall", "-o",
                    out.toString(), source.toString()));
            command.addAll(Arrays.asList(flags.output.trim().split("\\s+")));
            command.add("-lpthread");
            Result compiled = run(command, Duration.ofSeconds(120));
            if (compiled.exitCode != 0) {
                throw new IllegalStateException("gcc failed: " + compiled.output);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String missingTools() {
        if (run(List.of("gcc", "--version"), Duration.ofSeconds(30)).exitCode != 0) {
            return "gcc is missing";
        }
        if (run(List.of("pkg-config", "--exists", "dqlite"), Duration.ofSeconds(30)).exitCode
                != 0) {
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
        List<String> install = List.of("apt-get", "install", "-y", "-q", "libdqlite-dev", "gcc",
                "pkg-config");
        log.warn("dqlite: installing libdqlite-dev gcc pkg-config with apt-get");
        if (run(install, remaining(deadline)).exitCode == 0) {
            return;
        }
        run(List.of("apt-get", "update", "-q"), remaining(deadline));
        Result second = run(install, remaining(deadline));
        if (second.exitCode != 0) {
            log.warn("dqlite: apt-get install failed: {}", second.output);
        }
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(TimeUnit.SECONDS.toNanos(1),
                deadline - System.nanoTime()));
    }

    private record Result(int exitCode, String output) {}

    /** Runs a command to its end within the timeout (else kills it: exit code -1). */
    private static Result run(List<String> command, Duration timeout) {
        try {
            Path output = Files.createTempFile("dqlite-cmd", ".out");
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
                return new Result(process.exitValue(),
                        Files.readString(output, StandardCharsets.UTF_8));
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
