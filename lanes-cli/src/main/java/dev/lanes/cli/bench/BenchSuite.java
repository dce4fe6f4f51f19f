package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The plan of a bench: for each synchronous level, Lanes against a HikariCP pool with {@code
 * threads} writers, then Lanes against one raw connection with a lone writer. Every run gets a
 * fresh database file and its own warm-up, and the two sides of a comparison run back to back in
 * one process, so that they share the machine's state as closely as a bench can arrange.
 */
final class BenchSuite {
    /** Opens a system on a fresh file; a lambda per system keeps the plan readable. */
    @FunctionalInterface
    private interface Opener {
        BenchSystem open(Path file) throws Exception;
    }

    private final BenchOptions options;
    private final Path directory;

    BenchSuite(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
    }

    /** Runs every configuration, handing each result to {@code onRun} as soon as it is known. */
    BenchReport run(BenchReport.Environment environment, Consumer<RunResult> onRun) throws Exception {
        List<RunResult> runs = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        Consumer<RunResult> sink = run -> {
            runs.add(run);
            onRun.accept(run);
        };
        int writers = options.threads();
        for (Synchronous sync : options.synchronous()) {
            RunResult lanes =
                    measure("lanes", sync, writers, file -> LanesSystem.open(file, sync, writers), sink);
            RunResult hikari =
                    measure("hikari", sync, writers, file -> HikariSystem.open(file, sync), sink);
            comparisons.add(Comparison.of(lanes, hikari));

            RunResult loneLanes =
                    measure("lanes", sync, 1, file -> LanesSystem.open(file, sync, 1), sink);
            RunResult raw = measure("raw", sync, 1, file -> RawJdbcSystem.open(file, sync), sink);
            comparisons.add(Comparison.of(loneLanes, raw));
        }
        return new BenchReport(environment, BenchReport.Settings.of(options), runs, comparisons);
    }

    private RunResult measure(
            String system, Synchronous sync, int threads, Opener opener, Consumer<RunResult> sink)
            throws Exception {
        String name = system + "-" + sync.name().toLowerCase(Locale.ROOT) + "-" + threads + ".db";
        RunResult result;
        try (BenchSystem opened = opener.open(directory.resolve(name))) {
            result = new WorkloadRunner(threads, options.warmup(), options.duration()).run(opened, sync);
        }
        sink.accept(result);
        return result;
    }
}
