package dev.lanes.cli.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Prints a bench as a plain-text table: a preamble saying what ran where, one row per run as soon
 * as it finished (a bench takes a minute; nobody should stare at a blank screen), then the ratios
 * of each comparison. ASCII only ({@code us}, {@code x}), so the table survives any terminal
 * encoding and pastes cleanly into an issue.
 */
final class ReportTable {
    private static final String RUN_FORMAT = "%-8s %-7s %7s %11s %10s %10s %11s  %s%n";
    private static final String RATIO_FORMAT = "%-8s %7s  %-8s %26s %20s%n";

    private final PrintWriter out;

    ReportTable(PrintWriter out) {
        this.out = out;
    }

    void printHeader(BenchOptions options, BenchReport.Environment environment) {
        out.printf(Locale.ROOT,
                "lanes bench: %d writer%s vs HikariCP, 1 writer vs raw JDBC; synchronous %s;"
                        + " %s warm-up + %s measured per run%n",
                options.threads(),
                options.threads() == 1 ? "" : "s",
                options.synchronous().stream().map(Enum::name).collect(Collectors.joining(", ")),
                human(options.warmup()),
                human(options.duration()));
        out.printf(Locale.ROOT, "%s (%s); Java %s; %d CPUs; sqlite-jdbc %s%n%n",
                environment.directory(),
                environment.fileSystem(),
                environment.java(),
                environment.cpus(),
                environment.sqliteJdbc());
        out.printf(Locale.ROOT, RUN_FORMAT,
                "sync", "system", "threads", "writes/s", "p50 us", "p99 us", "max us", "errors");
        out.flush();
    }

    void printRun(RunResult run) {
        out.printf(Locale.ROOT, RUN_FORMAT,
                run.synchronous(),
                run.system(),
                run.threads(),
                String.format(Locale.ROOT, "%,.0f", run.writesPerSecond()),
                micros(run.p50Micros()),
                micros(run.p99Micros()),
                micros(run.maxMicros()),
                errors(run.errors()));
        if (run.rows() != run.acknowledged()) {
            // a lost acknowledged write is the one result a bench must never hide
            out.printf(Locale.ROOT, "  ! %s: %d inserts acknowledged but %d rows in the table%n",
                    run.system(), run.acknowledged(), run.rows());
        }
        out.flush();
    }

    void printComparisons(List<Comparison> comparisons) {
        out.printf(Locale.ROOT, "%nratios (above 1 means lanes is better)%n");
        out.printf(Locale.ROOT, RATIO_FORMAT,
                "sync", "threads", "baseline", "writes/s lanes/baseline", "p99 baseline/lanes");
        for (Comparison c : comparisons) {
            out.printf(Locale.ROOT, RATIO_FORMAT,
                    c.synchronous(),
                    c.threads(),
                    c.baseline(),
                    ratio(c.throughputRatio()),
                    ratio(c.p99Ratio()));
        }
        out.flush();
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
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
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
