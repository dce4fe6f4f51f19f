package dev.lanes.iofault;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Runs one {@link RoundSpec}: starts a {@link FaultChild} under {@code fiu-run -x} in a directory
 * of its own, waits until it is warm, switches the faults on with {@code fiu-ctrl}, lets the
 * workload run until a request has failed (or {@link #MAX_EXPOSURE}) and {@link #AFTER_FAILURE}
 * longer, then kills the child, or switches the faults off, lets the workload recover and the
 * child close; then reads the file without faults and judges the round. No child outlives this
 * method.
 */
final class FaultRound {
    static final Duration READY = Duration.ofSeconds(90);
    /** How long the faults stay on at most while no request has failed yet. */
    static final Duration MAX_EXPOSURE = Duration.ofSeconds(5);
    /**
     * How long the faults stay on after the first failure: long enough for several poisonings,
     * reopens under the faults, and failed reopens.
     */
    static final Duration AFTER_FAILURE = Duration.ofMillis(1500);
    /**
     * How long the workload runs at most once the faults are off, before a clean close: until
     * {@link #AFTER_FAULTS_ACKS} requests were acknowledged (the database recovered).
     */
    static final Duration AFTER_FAULTS = Duration.ofSeconds(5);
    static final int AFTER_FAULTS_ACKS = 50;
    static final Duration QUIESCE = Duration.ofSeconds(40);
    static final Duration EXIT = Duration.ofSeconds(60);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private FaultRound() {}

    static RoundReport run(RoundSpec spec, Path dir) throws Exception {
        Path round = Files.createDirectories(dir.resolve(spec.name() + "-" + spec.level()));
        Path db = round.resolve("fiu.db");
        Path channel = round.resolve("outcomes");
        Path fifos = round.resolve("fiu-ctrl");
        Path stderr = round.resolve("child.err");
        List<String> java = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                // nothing of a killed child outside its directory: no hsperfdata file in /tmp,
                // sqlite-jdbc's native library extracted into the round's directory
                "-XX:-UsePerfData", "-Djava.io.tmpdir=" + round));
        if (Runtime.version().feature() >= 24) {
            java.add("--enable-native-access=ALL-UNNAMED");
        }
        java.addAll(List.of("-cp", System.getProperty("java.class.path"),
                FaultChild.class.getName(), db.toString(), spec.level().name(), channel.toString()));
        Process child = new ProcessBuilder(Libfiu.run(fifos, java))
                .redirectError(stderr.toFile())
                .redirectOutput(round.resolve("child.out").toFile())
                .start();
        Progress progress = new Progress(new OutcomeChannel.Reader(channel), child, stderr,
                round.resolve("child.out"));
        try (Writer commands = new OutputStreamWriter(child.getOutputStream(),
                StandardCharsets.UTF_8)) {
            progress.await(READY, p -> p.ready, "the child to warm up");
            send(commands, "phase 1");
            Libfiu.enable(fifos, child.pid(), spec.faults());
            progress.await(MAX_EXPOSURE, p -> p.failedUnderFaults > 0, null);
            progress.await(AFTER_FAILURE, p -> false, null);
            if (spec.ending() == RoundSpec.Ending.KILL_WHEN_QUIET) {
                send(commands, "quiesce");
                progress.await(QUIESCE, p -> p.quiet, "the workload to stop");
            }
            if (spec.ending().kills()) {
                child.destroyForcibly(); // SIGKILL while the faults are on: no close, no hooks
            } else {
                Libfiu.disable(fifos, child.pid(), spec.faults());
                send(commands, "phase 2");
                progress.await(AFTER_FAULTS, p -> p.ackedAfterFaults >= AFTER_FAULTS_ACKS, null);
                send(commands, "stop");
            }
            if (!child.waitFor(EXIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(spec.name() + ": the child did not end within " + EXIT
                        + "; its stderr:\n" + tail(stderr));
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
        FileState file = FileState.read(db, spec.level());
        RoundReport report = Ledger.judge(spec, OutcomeChannel.readAll(channel), file,
                new Ledger.ChildEnd(spec.ending().kills(), child.exitValue()));
        if (!report.violations().isEmpty()) {
            String aliens = aliens(stderr);
            System.err.println(spec.name() + " " + spec.level() + ": the child's stderr"
                    + (aliens.isEmpty() ? "" : ", its stack traces of non-LanesExceptions:\n"
                    + aliens + "...") + "\nits last lines:\n" + tail(stderr, 15));
        }
        return report;
    }

    private static void send(Writer commands, String command) throws IOException {
        commands.write(command + "\n");
        commands.flush();
    }

    static String tail(Path file) {
        return tail(file, 40);
    }

    static String tail(Path file, int n) {
        List<String> lines = lines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    /** The first stack traces the child printed for non-LanesExceptions its callers got. */
    static String aliens(Path file) {
        List<String> lines = lines(file);
        StringBuilder b = new StringBuilder();
        int traces = 0;
        for (int i = 0; i < lines.size() && traces < 3; i++) {
            if (lines.get(i).startsWith("a caller got a non-LanesException")) {
                traces++;
                for (int j = i; j < Math.min(lines.size(), i + 45); j++) {
                    b.append(lines.get(j)).append('\n');
                }
            }
        }
        return b.toString();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of("(unreadable: " + e + ")");
        }
    }

    /**
     * What the running child has stored so far, for pacing the round only; the verdict comes from
     * the whole channel once the child is dead.
     */
    static final class Progress {
        private final OutcomeChannel.Reader reader;
        private final Process child;
        private final Path stderr;
        private final Path stdout;
        /** Lines the child stored so far, for a timeout's message. */
        private int lines;
        boolean ready;
        boolean quiet;
        int failedUnderFaults;
        int ackedAfterFaults;

        Progress(OutcomeChannel.Reader reader, Process child, Path stderr, Path stdout) {
            this.reader = reader;
            this.child = child;
            this.stderr = stderr;
            this.stdout = stdout;
        }

        /**
         * Polls the channel until {@code done} holds or {@code bound} passes. The child is
         * another process writing a file: polling with a short park is the only way to watch it,
         * and every wait is bounded. With a {@code what}, running out of time is an error.
         */
        void await(Duration bound, Predicate<Progress> done, String what) {
            long deadline = System.nanoTime() + bound.toNanos();
            while (true) {
                for (String text : reader.poll()) {
                    note(text);
                }
                if (done.test(this)) {
                    return;
                }
                if (!child.isAlive()) {
                    throw new AssertionError("the child died unexpectedly (exit "
                            + child.exitValue() + "); its stderr:\n" + tail(stderr));
                }
                if (System.nanoTime() - deadline > 0) {
                    if (what != null) {
                        throw new AssertionError("timed out after " + bound + " waiting for "
                                + what + " (" + lines + " lines stored); the child's stderr:\n"
                                + tail(stderr) + "\nits threads:\n" + threadDump());
                    }
                    return;
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
        }

        /**
         * The child's threads, for a timeout's message: SIGQUIT makes its JVM print them to its
         * standard output, a file, which is read back once it stops growing (bounded).
         */
        private String threadDump() {
            try {
                long before = Files.size(stdout);
                new ProcessBuilder("kill", "-QUIT", Long.toString(child.pid())).start()
                        .waitFor(5, TimeUnit.SECONDS);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                long size = before;
                while (System.nanoTime() - deadline < 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                    long now = Files.size(stdout);
                    if (now > before && now == size) {
                        break; // printed, and done printing
                    }
                    size = now;
                }
                return tail(stdout, 300);
            } catch (IOException | RuntimeException e) {
                return "(no thread dump: " + e + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "(no thread dump: interrupted)";
            }
        }

        private void note(String text) {
            lines++;
            Ledger.Line line;
            try {
                line = Ledger.Line.parse(text);
            } catch (RuntimeException e) {
                return; // a line not yet fully visible; the final read sees it whole
            }
            if (line.type().equals("E") && "ready".equals(line.opt("event"))) {
                ready = true;
            }
            if (line.type().equals("E") && "quiet".equals(line.opt("event"))) {
                quiet = true;
            }
            if (line.failed() && !"0".equals(line.opt("phase"))) {
                failedUnderFaults++;
            }
            if (line.type().equals("R") && "2".equals(line.opt("phase")) && line.ok()) {
                ackedAfterFaults++;
            }
        }
    }
}
