package dev.lanes.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Drives the Litestream binary (v0.3.13, from the npm package {@code
 * @flydotio/litestream-linux-x64}, installed by {@code scripts/install-litestream.sh}) for the
 * replication tests: writes its configuration, runs {@code litestream replicate} as a child
 * process logging at debug level into a file, runs {@code litestream restore}, and reads the
 * checkpoints Litestream ran back out of its log.
 *
 * <p>Every wait here is bounded, and every process started here is ended by {@link
 * Replicator#close()} or before the method that started it returns.
 */
final class Litestream {
    /** The version the npm package ships; the syntax below (YAML keys, flags) is that version's. */
    static final String VERSION = "v0.3.13";

    private static final Pattern CHECKPOINT = Pattern.compile(
            "^time=(\\S+) level=DEBUG msg=checkpoint .*\\bmode=(\\w+) "
                    + "result=(\\d+),(-?\\d+),(-?\\d+)");
    /** A replica position in the log: generation/shadow-WAL-index:offset. */
    private static final Pattern POSITION = Pattern.compile("position=[0-9a-f]{16}/([0-9a-f]{8}):");

    private final Path binary;

    private Litestream(Path binary) {
        this.binary = binary;
    }

    /**
     * The binary the build installed: the {@code litestream.bin} system property, which the
     * {@code replication} profile sets. Fails (never skips) when it is missing, so a broken
     * install cannot pass as a green run.
     */
    static Litestream installed() throws IOException, InterruptedException {
        String property = System.getProperty("litestream.bin");
        assertThat(property).as("system property litestream.bin: run these tests with "
                + "mvn -Preplication (the profile installs Litestream from npm first)")
                .isNotBlank();
        Path binary = Path.of(property);
        assertThat(Files.isExecutable(binary)).as("Litestream binary %s is executable", binary)
                .isTrue();
        Litestream litestream = new Litestream(binary);
        Result version = litestream.run(Duration.ofSeconds(30), "version");
        assertThat(version.output().strip()).as("litestream version").isEqualTo(VERSION);
        return litestream;
    }

    /**
     * The settings of one replicated database; the YAML keys are Litestream 0.3's. Durations
     * are written in Go's syntax ({@code 250ms}, {@code 1s}, {@code 1m}).
     *
     * @param database the SQLite file to replicate
     * @param replica the directory of the {@code type: file} replica
     * @param monitorInterval how often Litestream looks at the WAL and copies new frames into its
     *     shadow WAL (and decides on a checkpoint)
     * @param checkpointInterval checkpoint at least this often while the WAL has frames
     * @param minCheckpointPages a {@code PASSIVE} checkpoint once the WAL holds this many pages
     * @param maxCheckpointPages a {@code RESTART} checkpoint once the WAL holds this many pages
     * @param syncInterval how often the replica copies the shadow WAL
     * @param logLevel {@code debug}, {@code info}, {@code warn} or {@code error}
     */
    record Config(Path database, Path replica, Duration monitorInterval,
            Duration checkpointInterval, int minCheckpointPages, int maxCheckpointPages,
            Duration syncInterval, String logLevel) {

        /** Litestream's own defaults, spelled out, logging at debug level. */
        static Config defaults(Path database, Path replica) {
            return new Config(database, replica, Duration.ofSeconds(1), Duration.ofMinutes(1),
                    1000, 10000, Duration.ofSeconds(1), "debug");
        }

        /**
         * The same at another log level. Only {@code debug} logs the checkpoints ({@link
         * Replicator#checkpoints()}); it also logs every WAL frame copied.
         */
        Config logLevel(String level) {
            return new Config(database, replica, monitorInterval, checkpointInterval,
                    minCheckpointPages, maxCheckpointPages, syncInterval, level);
        }

        String yaml() {
            return String.join("\n",
                    "logging:",
                    "  level: " + logLevel,
                    "dbs:",
                    "  - path: " + database.toAbsolutePath(),
                    "    monitor-interval: " + go(monitorInterval),
                    "    checkpoint-interval: " + go(checkpointInterval),
                    "    min-checkpoint-page-count: " + minCheckpointPages,
                    "    max-checkpoint-page-count: " + maxCheckpointPages,
                    "    replicas:",
                    "      - type: file",
                    "        path: " + replica.toAbsolutePath(),
                    "        sync-interval: " + go(syncInterval),
                    "");
        }

        Path write(Path file) throws IOException {
            Files.writeString(file, yaml(), StandardCharsets.UTF_8);
            return file;
        }

        private static String go(Duration d) {
            return d.toMillis() + "ms";
        }
    }

    /** Starts {@code litestream replicate -config config}, its output going to {@code log}. */
    Replicator replicate(Path config, Path log) throws IOException {
        Process process = new ProcessBuilder(binary.toString(), "replicate", "-config",
                config.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new Replicator(process, log);
    }

    /**
     * {@code litestream restore -config config -o out database}: the latest state of the
     * replica, written to {@code out}.
     */
    Result restore(Path config, Path database, Path out) throws IOException, InterruptedException {
        return run(Duration.ofSeconds(60), "restore", "-config", config.toString(), "-o",
                out.toString(), database.toAbsolutePath().toString());
    }

    /**
     * Restores into fresh files {@code dir/restore-N.db} until one passes {@code accept}, at
     * most for {@code bound}, pausing a little between tries (Litestream's state is another
     * process's, so polling is the only way to see it). Rejected restores are deleted.
     *
     * @return the first accepted restore
     */
    Path restoreUntil(Path config, Path database, Path dir, Duration bound, String what,
            Predicate<Path> accept, Replicator replicator)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        String last = "no restore ran";
        for (int n = 1; ; n++) {
            Path out = dir.resolve("restore-" + n + ".db");
            Result r = restore(config, database, out);
            if (r.exitCode() == 0 && Files.exists(out)) {
                if (accept.test(out)) {
                    return out;
                }
                last = "restore " + n + " did not yet hold " + what;
            } else {
                last = "restore " + n + " failed (exit " + r.exitCode() + "): " + r.output();
            }
            for (String suffix : new String[] {"", "-wal", "-shm", ".tmp"}) {
                Files.deleteIfExists(dir.resolve(out.getFileName() + suffix));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the replica did not catch up within " + bound + ": "
                        + what + "; " + last + "\nlitestream log tail:\n"
                        + (replicator == null ? "" : replicator.logTail(40)));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
        }
    }

    /** A finished command: exit code and everything it printed. */
    record Result(int exitCode, String output) {}

    private Result run(Duration bound, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile("litestream-", ".out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        try {
            if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("litestream " + String.join(" ", args)
                        + " did not finish within " + bound + ": " + Files.readString(out));
            }
            return new Result(p.exitValue(), Files.readString(out));
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(out);
        }
    }

    /** One checkpoint Litestream ran, as its debug log reports it when it ends. */
    record Checkpoint(Instant endedAt, String mode, boolean busy, int walFrames,
            int checkpointedFrames) {}

    /** A running {@code litestream replicate}; {@link #close()} stops it. */
    static final class Replicator implements AutoCloseable {
        private final Process process;
        private final Path log;

        Replicator(Process process, Path log) {
            this.process = process;
            this.log = log;
        }

        Path log() {
            return log;
        }

        boolean alive() {
            return process.isAlive();
        }

        /** Waits, polling its log for at most {@code bound}, until a line holds {@code needle}. */
        void awaitLog(String needle, Duration bound) throws IOException {
            long deadline = System.nanoTime() + bound.toNanos();
            while (lines().stream().noneMatch(l -> l.contains(needle))) {
                if (!process.isAlive()) {
                    throw new AssertionError("litestream exited (" + process.exitValue()
                            + ") before logging '" + needle + "':\n" + logTail(40));
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("litestream did not log '" + needle + "' within "
                            + bound + ":\n" + logTail(40));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }

        /** The checkpoints Litestream logged so far. */
        List<Checkpoint> checkpoints() throws IOException {
            List<Checkpoint> out = new ArrayList<>();
            for (String line : lines()) {
                Matcher m = CHECKPOINT.matcher(line);
                if (m.find()) {
                    out.add(new Checkpoint(OffsetDateTime.parse(m.group(1)).toInstant(),
                            m.group(2), !m.group(3).equals("0"), Integer.parseInt(m.group(4)),
                            Integer.parseInt(m.group(5))));
                }
            }
            return out;
        }

        /**
         * The highest shadow-WAL index in Litestream's log. Litestream starts a new shadow WAL
         * (index + 1) each time it sees the database's WAL start over after a checkpoint, so an
         * index above 0 means the source WAL was restarted.
         */
        long highestShadowWalIndex() throws IOException {
            long max = -1;
            for (String line : lines()) {
                Matcher m = POSITION.matcher(line);
                while (m.find()) {
                    max = Math.max(max, Long.parseLong(m.group(1), 16));
                }
            }
            return max;
        }

        /** Lines at level ERROR (Litestream's monitor, replica and checkpoint failures). */
        List<String> errors() throws IOException {
            return lines().stream().filter(l -> l.contains(" level=ERROR ")).toList();
        }

        String logTail(int n) {
            try {
                List<String> all = lines();
                return String.join("\n", all.subList(Math.max(0, all.size() - n), all.size()));
            } catch (IOException e) {
                return "(log unreadable: " + e + ")";
            }
        }

        private List<String> lines() throws IOException {
            try (Stream<String> s = Files.lines(log, StandardCharsets.UTF_8)) {
                return s.toList();
            } catch (java.io.UncheckedIOException e) {
                // a line cut in the middle of a multi-byte character while Litestream writes
                return List.of(new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                        .split("\n"));
            }
        }

        /**
         * Stops Litestream: SIGTERM (it closes its databases, which runs a last sync), then
         * SIGKILL if it has not exited within 15 s, or at once if this thread is interrupted.
         */
        @Override
        public void close() {
            try {
                process.destroy();
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(15, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            } finally {
                keepLog();
            }
        }

        /**
         * Copies the log into the directory named by the {@code litestream.logs} system property
         * (the profile sets {@code target/litestream-logs}), so it outlives the test's temporary
         * directory.
         */
        private void keepLog() {
            String logs = System.getProperty("litestream.logs");
            if (logs == null || logs.isBlank()) {
                return;
            }
            try {
                Path target = Path.of(logs);
                Files.createDirectories(target);
                Files.copy(log, target.resolve(log.getFileName()),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                System.err.println("could not keep the litestream log " + log + ": " + e);
            }
        }
    }
}
