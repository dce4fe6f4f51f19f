package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything one {@code lanes bench} invocation measured, with what it ran on: the data behind the
 * printed table and the {@code --json} file.
 */
record BenchReport(
        Environment environment, Settings settings, List<RunResult> runs, List<Comparison> comparisons) {

    BenchReport {
        runs = List.copyOf(runs);
        comparisons = List.copyOf(comparisons);
    }

    /** The machine and software a bench ran on: figures mean little without them. */
    record Environment(
            String java, String os, int cpus, String sqliteJdbc, String directory, String fileSystem) {

        static Environment describe(Path directory) throws IOException {
            return new Environment(
                    System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
                    System.getProperty("os.name") + " " + System.getProperty("os.version")
                            + " " + System.getProperty("os.arch"),
                    Runtime.getRuntime().availableProcessors(),
                    org.sqlite.SQLiteJDBCLoader.getVersion(),
                    directory.toString(),
                    // fsync is free on tmpfs, which makes FULL look like NORMAL: say where we wrote
                    Files.getFileStore(directory).type());
        }
    }

    /** The options the bench ran with, in JSON-friendly units. */
    record Settings(
            int threads, double durationSeconds, double warmupSeconds, List<Synchronous> synchronous) {

        static Settings of(BenchOptions options) {
            return new Settings(
                    options.threads(),
                    options.duration().toNanos() / 1e9,
                    options.warmup().toNanos() / 1e9,
                    options.synchronous());
        }
    }
}
