package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The write scenario: for each synchronous level, Lanes against a HikariCP pool with {@code
 * threads} writers (or each count of {@code --writers} above 1), then Lanes against one raw
 * connection with a lone writer (unless {@code --writers} leaves 1 out), each thread inserting
 * single rows of about 100 bytes as fast as they are acknowledged, and Lanes with {@code threads}
 * writers ({@link #cLoopWriters()}) against SQLite's own C API committing one row per
 * transaction in a loop ({@link SqliteCLoop}), where {@code gcc} and SQLite's headers are
 * installed. Every run (every repetition too) gets a fresh database file and its own warm-up,
 * the two sides of a comparison run next to each other in one process, and after each run the
 * table's rows are counted against the acknowledged inserts.
 */
final class WriteScenario implements ScenarioBench {
    /** Opens a system on a fresh file; a lambda per system keeps the plan readable. */
    @FunctionalInterface
    private interface Opener {
        BenchSystem open(Path file) throws Exception;
    }

    private final BenchOptions options;
    private final Path directory;
    private final WorkloadRunner runner;
    private final SqliteCLoop loop;

    WriteScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
        this.runner = new WorkloadRunner(options.warmup(), options.durationFor(Scenario.WRITE));
        this.loop = SqliteCLoop.build(directory.resolve("sqlite-c-loop"));
    }

    @Override
    public Scenario scenario() {
        return Scenario.WRITE;
    }

    /**
     * The writer counts Lanes meets HikariCP at: {@code --writers} above 1, else {@code
     * --threads} (64).
     */
    List<Integer> pooledWriters() {
        List<Integer> writers = options.writers();
        if (writers == null) {
            return List.of(options.threadsFor(Scenario.WRITE));
        }
        return writers.stream().filter(n -> n > 1).sorted().collect(Collectors.toList());
    }

    /** Whether a lone writer meets raw JDBC: unless {@code --writers} leaves 1 out. */
    boolean loneWriter() {
        return options.writers() == null || options.writers().contains(1);
    }

    /**
     * The writer count Lanes meets SQLite's C loop at: {@code --threads} (64) unless {@code
     * --writers} leaves it out, then the most it lists.
     */
    int cLoopWriters() {
        int threads = options.threadsFor(Scenario.WRITE);
        List<Integer> writers = options.writers();
        return writers == null || writers.contains(threads) ? threads
                : writers.stream().mapToInt(Integer::intValue).max().getAsInt();
    }

    @Override
    public String description() {
        List<Integer> pooled = pooledWriters();
        String writers = pooled.stream().map(String::valueOf).collect(Collectors.joining(", "));
        int lastPooled = pooled.isEmpty() ? 0 : pooled.get(pooled.size() - 1);
        int cLoop = cLoopWriters();
        return (pooled.isEmpty() ? "" : writers + " writer" + (lastPooled == 1 ? "" : "s")
                        + " vs HikariCP (" + HikariSystem.POOL_SIZE + " connections)"
                        + (loneWriter() ? ", " : ""))
                + (loneWriter() ? "1 writer vs raw JDBC" : "") + "; synchronous "
                + options.synchronousFor(Scenario.WRITE).stream().map(Enum::name)
                        .collect(Collectors.joining(", "))
                + (loop.unavailable() == null
                        ? "; " + cLoop + " vs SQLite's C loop (SQLite " + loop.sqliteVersion()
                                + ", 1 connection)"
                        : "; SQLite's C loop left out: " + loop.unavailable());
    }

    @Override
    public int plannedComparisons() {
        return (pooledWriters().size() + (loneWriter() ? 1 : 0)
                + (loop.unavailable() == null ? 1 : 0))
                * options.synchronousFor(Scenario.WRITE).size();
    }

    @Override
    public void run(Sink sink) throws Exception {
        for (Synchronous sync : options.synchronousFor(Scenario.WRITE)) {
            for (int writers : pooledWriters()) {
                sink.compare(
                        rep -> measure(sink, rep, "lanes", sync, writers,
                                file -> LanesSystem.open(options.lanesDatabase(), file, sync,
                                        writers)),
                        rep -> measure(sink, rep, "hikari", sync, writers,
                                file -> HikariSystem.open(file, sync)));
            }
            if (loneWriter()) {
                sink.compare(
                        rep -> measure(sink, rep, "lanes", sync, 1,
                                file -> LanesSystem.open(options.lanesDatabase(), file, sync, 1)),
                        rep -> measure(sink, rep, "raw", sync, 1,
                                file -> RawJdbcSystem.open(file, sync)));
            }
            if (loop.unavailable() == null) {
                int writers = cLoopWriters();
                sink.compare(
                        rep -> measure(sink, rep + 1000, "lanes", sync, writers,
                                file -> LanesSystem.open(options.lanesDatabase(), file, sync,
                                        writers)),
                        rep -> cLoop(sink, rep, sync));
            }
        }
    }

    private RunResult cLoop(Sink sink, int repetition, Synchronous sync) throws Exception {
        String level = sync.name().toLowerCase(Locale.ROOT);
        Path file = directory.resolve("write-" + SqliteCLoop.SYSTEM + "-" + level + "-r"
                + repetition + ".db");
        sink.runStarting("write: SQLite's C loop, 1 connection, " + sync);
        return loop.run(file, sync, options.warmup(), options.durationFor(Scenario.WRITE));
    }

    /**
     * One run of {@code system}; {@code run} names its fresh file (the repetition, offset for a
     * second comparison of the same system and threads).
     */
    private RunResult measure(Sink sink, int run, String system, Synchronous sync,
            int threads, Opener opener) throws Exception {
        String level = sync.name().toLowerCase(Locale.ROOT);
        Path file = directory.resolve(
                "write-" + system + "-" + level + "-" + threads + "-r" + run + ".db");
        sink.runStarting("write: " + system + ", " + threads + " thread" + (threads == 1 ? "" : "s")
                + ", " + sync);
        try (BenchSystem opened = opener.open(file)) {
            Measurement m = runner.run("write-" + system, thread -> {
                String payload = Payloads.of(thread);
                return () -> {
                    opened.insert(payload);
                    return "insert";
                };
            }, threads);
            Consistency rows = new Consistency("rows in bench", m.acknowledged(), opened.countRows());
            return RunResult.of(Scenario.WRITE, "", sync, system, threads, m, rows);
        }
    }
}
