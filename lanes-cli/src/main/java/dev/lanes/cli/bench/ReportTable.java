package dev.lanes.cli.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Prints a bench as plain-text tables: a preamble saying what ran where, then per scenario a line
 * saying what it compares, one row per run as soon as it finished (a bench takes a minute; nobody
 * should stare at a blank screen), and the ratios of its comparisons. ASCII only ({@code us},
 * {@code x}), so the tables survive any terminal encoding and paste cleanly into an issue.
 *
 * <p>Not thread-safe: the bench calls it from the thread that runs it.
 */
final class ReportTable implements BenchListener {
    /** One column of a table: its header, width, and which side its cells align to. */
    private static final class Column {
        final String header;
        final int width;
        final boolean left;

        Column(String header, int width, boolean left) {
            this.header = header;
            this.width = width;
            this.left = left;
        }

        String cell(String text) {
            return String.format(Locale.ROOT, "%" + (left ? "-" : "") + width + "s", text);
        }
    }

    private final PrintWriter out;

    ReportTable(PrintWriter out) {
        this.out = out;
    }

    /** The preamble: what runs, for how long, and on what. */
    void printHeader(BenchOptions options, BenchReport.Environment environment) {
        out.printf(Locale.ROOT, "lanes bench: %s; %s warm-up + %s measured per run%n",
                options.scenarios().stream().map(Scenario::id).collect(Collectors.joining(", ")),
                human(options.warmup()),
                human(options.duration()));
        out.printf(Locale.ROOT, "%s (%s); Java %s; %d CPUs, %s; SQLite %s (sqlite-jdbc %s)%n",
                environment.directory(),
                environment.fileSystem(),
                environment.java(),
                environment.cpus(),
                environment.memoryBytes() < 0 ? "memory unknown" : bytes(environment.memoryBytes()),
                environment.sqlite(),
                environment.sqliteJdbc());
        out.flush();
    }

    @Override
    public void scenarioStarting(Scenario scenario, String description) {
        out.printf(Locale.ROOT, "%n%s: %s%n", scenario.id(), description);
        printRow(runColumns(scenario), headers(runColumns(scenario)), "errors");
        out.flush();
    }

    @Override
    public void runFinished(RunResult run) {
        List<Column> columns = runColumns(run.scenario());
        if (run.latencyByKind().isEmpty()) {
            printRow(columns, runCells(run, run.variant(), run.operationsPerSecond(), run.latency()),
                    errors(run.errors()));
        } else {
            // a mixed run: its total, then each kind of request on its own row
            printRow(columns, runCells(run, "all", run.operationsPerSecond(), run.latency()),
                    errors(run.errors()));
            run.latencyByKind().forEach((kind, latency) -> printRow(columns,
                    runCells(run, kind, latency.count() / run.seconds(), latency), ""));
        }
        if (run.consistency() != null && !run.consistency().holds()) {
            // a lost acknowledged write is the one result a bench must never hide
            out.printf(Locale.ROOT, "  ! %s: %,d acknowledged but %,d found (%s)%n",
                    run.system(), run.consistency().acknowledged(), run.consistency().found(),
                    run.consistency().subject());
        }
        if (run.footprint() != null) {
            printFootprint(run.footprint());
        }
        out.flush();
    }

    @Override
    public void scenarioFinished(Scenario scenario, List<Comparison> comparisons) {
        if (comparisons.isEmpty()) {
            return;
        }
        List<Column> columns = ratioColumns(scenario);
        out.printf(Locale.ROOT, "ratios (above 1 means lanes is better)%n");
        printRow(columns, headers(columns), null);
        for (Comparison c : comparisons) {
            List<String> cells = new ArrayList<>();
            cells.add(c.synchronous().name());
            cells.add(String.valueOf(c.threads()));
            if (hasVariants(scenario)) {
                cells.add(c.variant());
            }
            cells.add(c.baseline());
            cells.add(ratio(c.throughputRatio()));
            cells.add(ratio(c.p50Ratio()));
            cells.add(ratio(c.p99Ratio()));
            printRow(columns, cells, null);
        }
        out.flush();
    }

    private void printFootprint(TenantFootprint f) {
        out.printf(Locale.ROOT, "  %,d databases: %d of %d pool threads live, %,d connections open"
                        + " (budget %s); per database: heap %s, RSS %s beyond the heap (RSS now %s)%n",
                f.databases(), f.liveThreads(), f.maxThreads(), f.openConnections(),
                f.connectionBudgetText(),
                bytes(f.heapBytesPerDatabase()),
                f.rssBytesPerDatabase() < 0 ? "unknown" : bytes(f.rssBytesPerDatabase()),
                f.rssBytesAfter() < 0 ? "unknown" : bytes(f.rssBytesAfter()));
        out.printf(Locale.ROOT, "  file descriptors: at most %s open, limit %s; setup %.1f s%n",
                count(f.openFilesMost()), count(f.openFilesLimit()), f.setupSeconds());
    }

    static String count(long n) {
        return n < 0 ? "unknown" : String.format(Locale.ROOT, "%,d", n);
    }

    private static boolean hasVariants(Scenario scenario) {
        return scenario == Scenario.READ;
    }

    private static List<Column> runColumns(Scenario scenario) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("sync", 8, true));
        columns.add(new Column("system", 7, true));
        columns.add(new Column("threads", 7, false));
        if (scenario == Scenario.READ) {
            columns.add(new Column("  with", 13, true));
        } else if (scenario == Scenario.TENANTS) {
            columns.add(new Column("  kind", 7, true));
        }
        columns.add(new Column(scenario.unit(), 11, false));
        columns.add(new Column("p50 us", 10, false));
        columns.add(new Column("p99 us", 10, false));
        columns.add(new Column("max us", 11, false));
        if (scenario == Scenario.READ) {
            columns.add(new Column("writes/s", 10, false));
        }
        return columns;
    }

    private static List<Column> ratioColumns(Scenario scenario) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("sync", 8, true));
        columns.add(new Column("threads", 7, false));
        if (hasVariants(scenario)) {
            columns.add(new Column("  with", 13, true));
        }
        columns.add(new Column("  baseline", 10, true));
        columns.add(new Column(scenario.unit() + " lanes/baseline", 24, false));
        columns.add(new Column("p50 baseline/lanes", 20, false));
        columns.add(new Column("p99 baseline/lanes", 20, false));
        return columns;
    }

    private static List<String> runCells(RunResult run, String variant, double rate,
            Latency latency) {
        List<String> cells = new ArrayList<>();
        cells.add(run.synchronous().name());
        cells.add(run.system());
        cells.add(String.valueOf(run.threads()));
        if (run.scenario() == Scenario.READ || run.scenario() == Scenario.TENANTS) {
            cells.add("  " + variant);
        }
        cells.add(String.format(Locale.ROOT, "%,.0f", rate));
        cells.add(micros(latency.p50Micros()));
        cells.add(micros(latency.p99Micros()));
        cells.add(micros(latency.maxMicros()));
        if (run.scenario() == Scenario.READ) {
            cells.add(run.backgroundPerSecond() == null
                    ? "-" : String.format(Locale.ROOT, "%,.0f", run.backgroundPerSecond()));
        }
        return cells;
    }

    private static List<String> headers(List<Column> columns) {
        return columns.stream().map(c -> c.header).collect(Collectors.toList());
    }

    private void printRow(List<Column> columns, List<String> cells, String last) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            line.append(columns.get(i).cell(cells.get(i)));
        }
        if (last != null) {
            line.append("  ").append(last);
        }
        out.println(line.toString().stripTrailing());
    }

    private static String micros(double micros) {
        return String.format(Locale.ROOT, "%,.1f", micros);
    }

    private static String ratio(Double ratio) {
        return ratio == null ? "n/a" : String.format(Locale.ROOT, "%.2fx", ratio);
    }

    private static String errors(Map<String, Long> errors) {
        if (errors.isEmpty()) {
            return "-";
        }
        return errors.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /** 1.5 KiB, 23.4 GiB: binary units, one decimal. */
    static String bytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0
                ? bytes + " B"
                : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** 500ms, 1s, 1.5s: how people write durations, not ISO-8601's PT1.5S. */
    static String human(Duration d) {
        long millis = d.toMillis();
        if (millis < 1000) {
            return millis + "ms";
        }
        return millis % 1000 == 0
                ? millis / 1000 + "s"
                : String.format(Locale.ROOT, "%.3f", millis / 1000.0).replaceAll("0+$", "") + "s";
    }
}
