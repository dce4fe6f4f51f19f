package dev.lanes.fleet;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Litestream processes this JVM's fleet nodes run, seen from outside: found among the JVM's
 * descendants, signalled with {@code kill}.
 */
final class LitestreamProcesses {
    private LitestreamProcesses() {}

    /** The one {@code litestream replicate} process running under this JVM. */
    static ProcessHandle replicating() {
        List<ProcessHandle> found = ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("litestream")).orElse(false)
                        && p.info().arguments().map(a -> a.length > 0 && a[0].equals("replicate"))
                                .orElse(false))
                .toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one Litestream process, found " + found.size());
        }
        return found.get(0);
    }

    /** Sends {@code SIG<name>} to the process. */
    static void signal(ProcessHandle p, String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid()))
                .inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + name + " " + p.pid() + " failed");
        }
    }

    /**
     * Waits until the node asked {@code litestream} to stop: the shell that runs it sent it
     * SIGTERM and started the timer that kills it 30 s later (a {@code sleep 30} beside it).
     */
    static void awaitAskedToStop(ProcessHandle litestream) {
        ProcessHandle shell = litestream.parent().orElseThrow();
        FleetTest.await(() -> shell.descendants().anyMatch(p -> p.info().command()
                        .map(c -> c.endsWith("sleep")).orElse(false)
                        && p.info().arguments().map(a -> a.length == 1 && a[0].equals("30"))
                                .orElse(false)),
                "the node asked Litestream " + litestream.pid() + " to stop");
    }
}
