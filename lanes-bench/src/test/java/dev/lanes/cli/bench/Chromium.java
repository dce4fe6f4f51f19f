package dev.lanes.cli.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds headless Chromium for the report test, installing Debian's {@code chromium} package when
 * it is missing and this is a Debian-like machine where the test runs as root ({@code apt-get
 * update && apt-get install -y chromium}). Every step is bounded in time: a slow or unreachable
 * package mirror costs at most the budget, and the caller then falls back. The system property
 * {@code lanes.chromium.install=false} skips the install; {@code lanes.chromium.installSeconds}
 * sets the budget (default 300).
 */
final class Chromium {
    private static final List<String> NAMES = List.of("chromium", "chromium-browser");
    private static final Path APT_GET = Path.of("/usr/bin/apt-get");

    private final Path executable;

    private Chromium(Path executable) {
        this.executable = executable;
    }

    /**
     * Chromium, found on the PATH or installed now; empty with {@code why} filled when there is
     * none to be had.
     */
    static Optional<Chromium> findOrInstall(Path logDir, StringBuilder why) throws Exception {
        Optional<Path> found = onPath();
        if (found.isPresent()) {
            return Optional.of(new Chromium(found.get()));
        }
        if (!Boolean.parseBoolean(System.getProperty("lanes.chromium.install", "true"))) {
            why.append("chromium is not installed and lanes.chromium.install=false");
            return Optional.empty();
        }
        if (!"root".equals(System.getProperty("user.name")) || !Files.isExecutable(APT_GET)) {
            why.append("chromium is not installed, and installing it needs root and apt-get");
            return Optional.empty();
        }
        long budgetNanos = Duration.ofSeconds(
                Long.getLong("lanes.chromium.installSeconds", 300)).toNanos();
        long deadline = System.nanoTime() + budgetNanos;
        Path log = logDir.resolve("chromium-install.log");
        int update = run(List.of(APT_GET.toString(), "update"), log, deadline);
        int install = update == 0
                ? run(List.of(APT_GET.toString(), "install", "-y", "chromium"), log, deadline)
                : update;
        found = onPath();
        if (found.isPresent()) {
            return Optional.of(new Chromium(found.get()));
        }
        why.append("installing chromium failed (apt-get exit ").append(install)
                .append(", -1 meaning out of time); see ").append(log);
        return Optional.empty();
    }

    /**
     * Loads {@code page} headless and returns the DOM as Chromium serializes it after loading
     * (scripts in the page have run by then).
     */
    String dumpDom(Path page, Path scratch, Duration timeout) throws Exception {
        Path profile = Files.createTempDirectory(scratch, "chromium-profile-");
        Path dom = scratch.resolve("dom.html");
        Path log = scratch.resolve("chromium.log");
        List<String> command = List.of(executable.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--user-data-dir=" + profile, "--dump-dom",
                page.toUri().toString());
        Process process = new ProcessBuilder(command)
                .redirectOutput(dom.toFile())
                .redirectError(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            destroyTree(process);
            throw new IllegalStateException("chromium did not finish within " + timeout
                    + "; its log: " + Files.readString(log));
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("chromium exited " + process.exitValue()
                    + "; its log: " + Files.readString(log));
        }
        return Files.readString(dom);
    }

    private static Optional<Path> onPath() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            for (String name : NAMES) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** Runs {@code command} until done or {@code deadline}; its exit code, -1 when out of time. */
    private static int run(List<String> command, Path log, long deadline) throws IOException,
            InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
        Process process = builder.start();
        long left = deadline - System.nanoTime();
        if (left <= 0 || !process.waitFor(left, TimeUnit.NANOSECONDS)) {
            destroyTree(process);
            return -1;
        }
        return process.exitValue();
    }

    private static void destroyTree(Process process) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
