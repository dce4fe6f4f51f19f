package dev.lanes.cli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * {@code --markdown FILE}: one bench's results as a dated Markdown section, with the exact command
 * that made them and the machine they ran on, so that a page quotes one measurement that one
 * command regenerates. The section sits between {@value #BEGIN} and {@value #END}; writing into a
 * file that has them replaces what is between them and keeps the rest (the page's hand-written
 * methodology), a file without them gets the section appended, and a new file is the section
 * under a title.
 */
final class MarkdownReport {
    /** Where the generated section begins. */
    static final String BEGIN = "<!-- lanes bench --markdown: begin; generated, do not edit -->";
    /** Where the generated section ends. */
    static final String END = "<!-- lanes bench --markdown: end -->";

    private MarkdownReport() {}

    /**
     * Writes {@code report} into {@code file} as the section between the markers.
     *
     * @param command the command line that made the report, as a person would type it
     */
    static void write(BenchReport report, String command, Path file) throws IOException {
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage();
        String section = BEGIN + "\n" + section(report, command, load) + END + "\n";
        String page;
        if (Files.exists(file)) {
            String old = Files.readString(file, StandardCharsets.UTF_8);
            int begin = old.indexOf(BEGIN);
            int end = old.indexOf(END, Math.max(begin, 0));
            if (begin >= 0 && end > begin) {
                page = old.substring(0, begin) + section
                        + old.substring(old.indexOf('\n', end) < 0 ? old.length()
                                : old.indexOf('\n', end) + 1);
            } else {
                page = old + (old.endsWith("\n") ? "\n" : "\n\n") + section;
            }
        } else {
            page = "# Lanes benchmark results\n\n" + section;
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, page, StandardCharsets.UTF_8);
    }

    /**
     * The section: what ran where and when, then one table of every comparison.
     *
     * @param loadAverage the machine's one-minute load average as the bench ended, or negative
     *     when unknown: above the CPU count, other processes shared the cores and the figures
     *     are noisy
     */
    static String section(BenchReport report, String command, double loadAverage) {
        BenchReport.Environment e = report.environment();
        BenchReport.Settings s = report.settings();
        StringBuilder md = new StringBuilder();
        md.append("Made by `").append(command).append("` on ")
                .append(e.startedAt(), 0, Math.min(10, e.startedAt().length()))
                .append(" (").append(e.startedAt()).append(").\n\n");
        md.append("- Machine: ").append(e.cpus()).append(e.cpus() == 1 ? " CPU" : " CPUs")
                .append(e.cpuModel().isEmpty() ? "" : " (" + e.cpuModel() + ")")
                .append(e.memoryBytes() < 0 ? "" : ", " + ReportTable.bytes(e.memoryBytes()))
                .append("; ").append(e.os())
                .append(loadAverage < 0 ? "" : String.format(Locale.ROOT,
                        "; load average %.1f as the bench ended%s", loadAverage,
                        loadAverage > e.cpus() ? " (other processes shared the CPUs: the"
                                + " figures are noisy)" : ""))
                .append('\n');
        md.append("- Java ").append(e.java()).append("; SQLite ").append(e.sqlite())
                .append(" (sqlite-jdbc ").append(e.sqliteJdbc()).append(")\n");
        md.append("- Databases on ").append(e.fileSystem()).append("; ")
                .append(seconds(s.warmupSeconds())).append(" warm-up and ")
                .append(seconds(s.durationSeconds())).append(" measured per run; ")
                .append(s.repeat() == 1 ? "one run of each side"
                        : s.repeat() + " runs of each side, Lanes and its baseline interleaved;"
                                + " figures are medians, ratios the median (min-max) of the "
                                + s.repeat() + " pairs")
                .append('\n');
        if (!report.comparisons().isEmpty()) {
            md.append('\n').append(table(report));
        }
        md.append(latencyTable(report));
        md.append(pinnedTable(report));
        md.append(readerWaitTable(report));
        for (SoakResult soak : report.soaks()) {
            md.append("\nSoak at ").append(soak.setup().synchronous()).append(": ")
                    .append(soak.verdict().passed() ? "passed, nothing grew without bound"
                            : "FAILED, something grew without bound")
                    .append(".\n");
        }
        return md.toString();
    }

    private static String table(BenchReport report) {
        List<String> rows = new ArrayList<>();
        rows.add("| scenario | configuration | baseline | throughput lanes/baseline"
                + " | p99 baseline/lanes | CPU per request baseline/lanes | Lanes | baseline"
                + " | failures (Lanes; baseline) |");
        rows.add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Comparison c : report.comparisons()) {
            RunResult lanes = median(report, c, "lanes");
            RunResult base = median(report, c, c.baseline());
            String unit = c.scenario().unit();
            rows.add("| " + c.scenario().id()
                    + " | " + configuration(c)
                    + " | " + c.baseline()
                    + " | " + ReportTable.ratio(c.throughput())
                    + " | " + ReportTable.ratio(c.p99())
                    + " | " + ReportTable.ratio(c.cpu())
                    + " | " + rate(lanes, unit)
                    + " | " + rate(base, unit)
                    + " | " + failures(lanes) + "; " + failures(base) + " |");
        }
        return String.join("\n", rows) + "\n";
    }

    /**
     * The write scenario's latency percentiles by level, writers and system, p99.9 included (the
     * comparison table has only ratios); empty when it did not run.
     */
    static String latencyTable(BenchReport report) {
        List<TailLatency.Row> rows = TailLatency.of(report, Scenario.WRITE);
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\nWrite latency, in microseconds from call to"
                + " acknowledgement (medians of each system's runs):\n\n"
                + "| synchronous | writers | system | writes/s | p50 | p99 | p99.9 |\n"
                + "| --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
        for (TailLatency.Row r : rows) {
            Latency l = r.latency();
            md.append("| ").append(r.synchronous()).append(" | ").append(r.threads())
                    .append(" | ").append(r.system())
                    .append(String.format(Locale.ROOT, " | %,.0f | ", r.operationsPerSecond()))
                    .append(ReportTable.micros(l.p50Micros())).append(" | ")
                    .append(ReportTable.micros(l.p99Micros())).append(" | ")
                    .append(ReportTable.micros(l.p999Micros())).append(" |\n");
        }
        return md.toString();
    }

    /**
     * The vt scenario's {@value PinnedEvents#EVENT} counts and clients served in the window,
     * Lanes' and the baseline's, per comparison; empty when it did not run.
     */
    static String pinnedTable(BenchReport report) {
        StringBuilder md = new StringBuilder();
        for (Comparison c : report.comparisons()) {
            if (c.scenario() != Scenario.VT) {
                continue;
            }
            if (md.length() == 0) {
                md.append("\nVirtual-thread clients: pinned, the ").append(PinnedEvents.EVENT)
                        .append(" events (threshold 0 ms, outside class loading) of the measured window; served, the"
                                + " clients with a request answered in it (the others are in no"
                                + " percentile):\n\n")
                        .append("| configuration | pinned (Lanes; baseline) |"
                                + " served (Lanes; baseline) |\n| --- | --- | --- |\n");
            }
            RunResult lanes = median(report, c, "lanes");
            RunResult base = median(report, c, c.baseline());
            md.append("| ").append(configuration(c)).append(" | ")
                    .append(figure(lanes, ReportTable::pinned)).append("; ")
                    .append(figure(base, ReportTable::pinned)).append(" | ")
                    .append(figure(lanes, ReportTable::served)).append("; ")
                    .append(figure(base, ReportTable::served)).append(" |\n");
        }
        return md.toString();
    }

    /**
     * Lanes' waits for a reader connection, in microseconds, per comparison whose Lanes runs
     * measured them (the jdbc scenario's {@value JpaWorkload#MIX_VARIANT} part); empty when none.
     */
    static String readerWaitTable(BenchReport report) {
        StringBuilder md = new StringBuilder();
        for (Comparison c : report.comparisons()) {
            RunResult lanes = median(report, c, "lanes");
            if (lanes == null || lanes.readerWait() == null) {
                continue;
            }
            if (md.length() == 0) {
                md.append("\nLanes' read-only transactions' wait for a reader connection, in"
                        + " microseconds (medians of Lanes' runs):\n\n"
                        + "| scenario | configuration | waits | p50 | p99 | max |\n"
                        + "| --- | --- | ---: | ---: | ---: | ---: |\n");
            }
            Latency w = lanes.readerWait();
            md.append("| ").append(c.scenario().id()).append(" | ").append(configuration(c))
                    .append(String.format(Locale.ROOT, " | %,d | ", w.count()))
                    .append(ReportTable.micros(w.p50Micros())).append(" | ")
                    .append(ReportTable.micros(w.p99Micros())).append(" | ")
                    .append(ReportTable.micros(w.maxMicros())).append(" |\n");
        }
        return md.toString();
    }

    private static String figure(RunResult run, Function<RunResult, String> format) {
        return run == null ? "n/a" : format.apply(run);
    }

    private static String configuration(Comparison c) {
        return c.threads() + (c.threads() == 1 ? " thread" : " threads")
                + (c.scenario() == Scenario.DQLITE ? "" : ", " + c.synchronous())
                + (c.variant().isEmpty() ? "" : ", " + c.variant());
    }

    /** The median of one side's runs in the comparison's configuration; null when none ran. */
    /**
     * The median run of {@code system} in {@code c}'s configuration: at the comparison's threads,
     * else (a baseline that runs fewer, such as SQLite's C loop) at the one thread count its runs
     * there share; null when there is none.
     */
    private static RunResult median(BenchReport report, Comparison c, String system) {
        List<RunResult> all = report.runs().stream()
                .filter(r -> r.scenario() == c.scenario() && r.variant().equals(c.variant())
                        && r.synchronous() == c.synchronous() && r.system().equals(system))
                .toList();
        List<RunResult> runs = all.stream().filter(r -> r.threads() == c.threads()).toList();
        if (runs.isEmpty() && all.stream().map(RunResult::threads).distinct().count() == 1) {
            runs = all;
        }
        return runs.isEmpty() ? null : Repetitions.median(runs);
    }

    private static String rate(RunResult run, String unit) {
        return run == null ? "n/a"
                : String.format(Locale.ROOT, "%,.0f %s", run.operationsPerSecond(), unit);
    }

    private static String failures(RunResult run) {
        if (run == null) {
            return "n/a";
        }
        return run.errors().isEmpty() ? "0" : ReportTable.errors(run.errors());
    }

    private static String seconds(double seconds) {
        return seconds == Math.rint(seconds) ? String.format(Locale.ROOT, "%.0f s", seconds)
                : String.format(Locale.ROOT, "%.1f s", seconds);
    }
}
