package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import dev.lanes.cli.DurationConverter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code lanes bench}: measures Lanes against the usual ways of writing SQLite from many threads,
 * in one process, and prints a table (and optionally JSON). This class only reads the flags and
 * wires the pieces: {@link BenchSuite} plans the runs, {@link WorkloadRunner} drives each,
 * {@link ReportTable} and {@link JsonReport} present them.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Measures Lanes against HikariCP and raw JDBC under concurrent single-row inserts.",
        description = {
            "Measures single-row inserts from many writer threads through Lanes (db.execute)"
                    + " and through a HikariCP pool of " + HikariSystem.POOL_SIZE
                    + " sqlite-jdbc connections, then a lone writer through Lanes and through one"
                    + " raw sqlite-jdbc connection, at each synchronous level. Every run uses a"
                    + " fresh database file.",
            "Ratios above 1 mean Lanes is better."
        })
public final class BenchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "64",
            description = "Writer threads of the concurrent runs (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "5s",
            converter = DurationConverter.class,
            description = "How long each run is measured, e.g. 5s, 500ms (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "1s",
            converter = DurationConverter.class,
            description = "Unmeasured writing before each run's measurement"
                    + " (default: ${DEFAULT-VALUE}).")
    private Duration warmup;

    @Option(names = "--synchronous", paramLabel = "LEVEL", split = ",", defaultValue = "NORMAL,FULL",
            description = "Synchronous levels to run, comma-separated: ${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE}).")
    private List<Synchronous> synchronous;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where the scratch directory of database files goes; it is deleted"
                    + " afterwards (default: java.io.tmpdir). Its file system is what FULL measures.")
    private Path dir;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the results to FILE as JSON.")
    private Path json;

    @Override
    public Integer call() throws Exception {
        BenchOptions options = options();
        PrintWriter out = spec.commandLine().getOut();
        ReportTable table = new ReportTable(out);
        BenchReport report;
        try (ScratchDirectory scratch = ScratchDirectory.create(options.dir())) {
            BenchReport.Environment environment = BenchReport.Environment.describe(scratch.path());
            table.printHeader(options, environment);
            report = new BenchSuite(options, scratch.path()).run(environment, table::printRun);
        }
        table.printComparisons(report.comparisons());
        if (options.json() != null) {
            JsonReport.write(report, options.json());
            out.println();
            out.println("wrote " + options.json());
            out.flush();
        }
        return 0;
    }

    private BenchOptions options() {
        try {
            return new BenchOptions(threads, duration, warmup, synchronous, dir, json);
        } catch (IllegalArgumentException e) {
            // reported like any other bad flag: the message and the usage, exit code 2
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
