package dev.lanes.fleet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One child process of the local engines (an etcd member, s3proxy, a fleet node): started with
 * its output in a log file, signalled and killed by PID, and reaped by a JVM shutdown hook if
 * its owner did not stop it.
 *
 * <p>Thread-safety: {@code LIVE} is a concurrent set shared with the shutdown hook; a child
 * itself is driven from one thread at a time.
 */
public final class Child {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> LIVE.forEach(Process::destroyForcibly), "fleet-children-reaper"));
    }

    private final String name;
    private final Process process;
    private final Path log;

    private Child(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command}, its stdout and stderr appended to {@code log}. */
    public static Child start(String name, List<String> command, Path log) {
        try {
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            LIVE.add(p);
            return new Child(name, p, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** Its name in messages. */
    public String name() {
        return name;
    }

    /** Its process id. */
    public long pid() {
        return process.pid();
    }

    /** The process, for its standard input. */
    public Process process() {
        return process;
    }

    /** Whether it runs (a stopped one counts as running). */
    public boolean alive() {
        return process.isAlive();
    }

    /** Its log file. */
    public Path log() {
        return log;
    }

    /** The last {@code n} lines of its log. */
    public String logTail(int n) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** {@code kill -9}: no shutdown hook, no close, and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        awaitExit();
    }

    /** SIGTERM, then SIGKILL after {@code graceSeconds}; waits until it is gone. */
    public void stop(int graceSeconds) {
        signal("CONT"); // a stopped process cannot act on SIGTERM
        process.destroy();
        try {
            if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        awaitExit();
    }

    /** SIGSTOP: the process is frozen until {@link #resume()}. */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT. */
    public void resume() {
        signal("CONT");
    }

    private void awaitExit() {
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + pid() + ") did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!process.isAlive()) {
                LIVE.remove(process);
            }
        }
    }

    private void signal(String signal) {
        if (!process.isAlive()) {
            return;
        }
        Result r = run(List.of("kill", "-" + signal, Long.toString(process.pid())), 10);
        if (r.exitCode() != 0 && process.isAlive()) {
            throw new IllegalStateException("kill -" + signal + " " + pid() + ": " + r.output());
        }
    }

    /** A finished command. */
    record Result(int exitCode, String output) {}

    /** Runs a short command to its end (bounded by {@code timeoutSeconds}). */
    static Result run(List<String> command, long timeoutSeconds) {
        try {
            Path out = Files.createTempFile("fleet-cmd-", ".out");
            try {
                Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true)
                        .redirectOutput(out.toFile()).start();
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                    return new Result(-1, command + " timed out after " + timeoutSeconds + " s");
                }
                return new Result(p.exitValue(), Files.readString(out));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** A TCP port on 127.0.0.1 that was free when asked. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
