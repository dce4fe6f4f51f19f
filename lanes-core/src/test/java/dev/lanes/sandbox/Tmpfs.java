package dev.lanes.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted for one test, so that a disk really fills up. Skips the test (an
 * assumption, with the reason) where mounting is impossible: not root, or refused.
 */
final class Tmpfs implements AutoCloseable {
    final Path path;

    private Tmpfs(Path path) {
        this.path = path;
    }

    static Tmpfs mount(Path parent, String size) throws IOException, InterruptedException {
        String uid = run("id", "-u").trim();
        Assumptions.assumeTrue(uid.equals("0"), "mounting a tmpfs needs root; running as uid "
                + uid);
        Path dir = Files.createDirectories(parent.resolve("tmpfs"));
        String out = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
        Assumptions.assumeTrue(Files.getFileStore(dir).type().equals("tmpfs"), "mounting a "
                + size + " tmpfs at " + dir + " failed (" + out.trim() + ")");
        return new Tmpfs(dir);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", path.toString());
        if (Files.getFileStore(path).type().equals("tmpfs")) {
            run("umount", "-l", path.toString());
        }
    }

    /** Runs a command and returns what it printed. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end");
        }
        return out;
    }
}
