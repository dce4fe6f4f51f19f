package dev.lanes.cli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes a {@link BenchReport} as one self-contained HTML page: what it ran on at the top
 * (machine, JDK, SQLite), then per scenario a throughput chart ({@link BarChart}) and one
 * latency-percentile chart per configuration ({@link PercentileChart}), Lanes against its
 * baseline, followed by the ratios and every run's figures as tables. The charts are inline SVG
 * and the styles inline CSS: the page loads nothing, runs no script, and opens offline.
 *
 * <p>Under {@code --repeat N} the charts draw the median of each system's N runs, the ratios show
 * their median and the min and max over the repetition pairs, and the runs table lists every
 * repetition with its number.
 *
 * <p>A soak's section shows its verdict, one chart per series ({@link SoakChart}) with the line
 * fitted over the second half, and every sample.
 */
final class HtmlReport {
    private static final Map<String, String> COLORS = Map.of(
            "lanes", "#2563eb",
            "hikari", "#ea580c",
            "raw", "#64748b",
            "all", "#2563eb",
            "read", "#16a34a",
            "write", "#9333ea");
    private static final String OTHER_COLOR = "#0f766e";

    private static final String STYLE = String.join("\n",
            "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#0f172a;"
                    + "margin:24px auto;max-width:1100px;padding:0 16px}",
            "h1{font-size:24px;margin:0 0 12px}h2{font-size:19px;margin:32px 0 4px;"
                    + "border-bottom:1px solid #cbd5e1;padding-bottom:4px}h3{font-size:15px;"
                    + "margin:18px 0 6px}",
            "table{border-collapse:collapse;margin:6px 0}th,td{padding:3px 10px;text-align:left;"
                    + "border-bottom:1px solid #e2e8f0}td.n{text-align:right;"
                    + "font-variant-numeric:tabular-nums}",
            "table.env th{color:#475569;font-weight:600}",
            ".note{color:#475569}.bad{color:#b91c1c;font-weight:600}",
            ".charts{display:flex;flex-wrap:wrap;gap:12px}",
            "figure{margin:0}svg.chart{background:#fff;border:1px solid #e2e8f0;border-radius:4px}",
            "svg .chart-title{font-weight:600;font-size:13px}",
            "svg text{font-size:11px;fill:#334155}svg .legend{font-size:12px}",
            "svg .grid{stroke:#e2e8f0;stroke-width:1}svg .axis{stroke:#94a3b8;stroke-width:1}",
            "svg .series{stroke-width:2}svg .fit{stroke-width:2;stroke-dasharray:6 4}"
                    + "svg text.bad{fill:#b91c1c;font-weight:600}"
                    + "svg .empty{fill:#94a3b8}");

    private HtmlReport() {}

    static void write(BenchReport report, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(report), StandardCharsets.UTF_8);
    }

    static String render(BenchReport report) {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>Lanes bench report</title>\n<style>\n").append(STYLE)
                .append("\n</style>\n</head>\n<body>\n<h1>Lanes bench</h1>\n");
        environment(h, report);
        if (report.settings().scenarios().stream().anyMatch(Scenario::compares)) {
            h.append("<p class=\"note\">Each run uses fresh database files, its own unmeasured"
                    + " warm-up, then a measured window. Throughput counts requests that succeeded"
                    + " in the window; latencies are theirs. Ratios above 1 mean Lanes is better"
                    + " (throughput lanes/baseline, latency and CPU per request baseline/lanes)."
                    + " CPU us/op is the process CPU time of the window over its successful"
                    + " requests; CPU, that time's share of all processors over the window.");
            int repeat = report.settings().repeat();
            if (repeat > 1) {
                h.append(" Every configuration ran ").append(repeat).append(" times, Lanes and"
                        + " its baseline interleaved: the charts show the median of each system's"
                        + " runs, each ratio its median and (min-max) over the repetition pairs,"
                        + " and the runs tables every repetition.");
            }
            h.append("</p>\n");
        }
        for (BenchReport.ScenarioSummary summary : report.scenarios()) {
            scenario(h, report, summary);
        }
        return h.append("</body>\n</html>\n").toString();
    }

    private static void environment(StringBuilder h, BenchReport report) {
        BenchReport.Environment e = report.environment();
        BenchReport.Settings s = report.settings();
        String machine = e.cpus() + " CPUs" + (e.cpuModel().isEmpty() ? "" : " (" + e.cpuModel() + ")")
                + ", " + (e.memoryBytes() < 0 ? "memory unknown"
                        : ReportTable.bytes(e.memoryBytes()) + " memory")
                + "; " + e.os();
        h.append("<table class=\"env\">\n");
        row(h, "Machine", machine);
        row(h, "JDK", e.java());
        row(h, "SQLite", e.sqlite() + " (sqlite-jdbc " + e.sqliteJdbc() + ")");
        row(h, "Database files", e.directory() + " (" + e.fileSystem() + ")");
        StringBuilder run = new StringBuilder("started " + e.startedAt());
        if (s.scenarios().stream().anyMatch(Scenario::compares)) {
            run.append("; ").append(seconds(s.warmupSeconds())).append(" warm-up + ")
                    .append(seconds(s.durationSeconds())).append(" measured per run; --repeat ")
                    .append(s.repeat());
        }
        for (SoakResult soak : report.soaks()) {
            run.append("; soak at ").append(soak.setup().synchronous()).append(' ')
                    .append(seconds(soak.setup().durationSeconds())).append(", a sample every ")
                    .append(seconds(soak.setup().sampleIntervalSeconds()));
        }
        run.append("; scenarios ")
                .append(s.scenarios().stream().map(Scenario::id).collect(Collectors.joining(", ")));
        row(h, "Run", run.toString());
        h.append("</table>\n");
    }

    private static void row(StringBuilder h, String name, String value) {
        h.append("<tr><th>").append(Svg.escape(name)).append("</th><td>")
                .append(Svg.escape(value)).append("</td></tr>\n");
    }

    private static void scenario(StringBuilder h, BenchReport report,
            BenchReport.ScenarioSummary summary) {
        Scenario scenario = summary.scenario();
        List<RunResult> runs = report.runs().stream()
                .filter(r -> r.scenario() == scenario)
                .collect(Collectors.toList());
        h.append("<section class=\"scenario\" id=\"scenario-").append(scenario.id()).append("\">\n")
                .append("<h2>").append(Svg.escape(scenario.id() + ": " + summary.title()))
                .append("</h2>\n<p>").append(Svg.escape(summary.description())).append("</p>\n");
        if (!scenario.compares()) {
            soaks(h, report.soaks());
            h.append("</section>\n");
            return;
        }
        if (runs.isEmpty()) {
            h.append("<p class=\"note\">No runs.</p>\n</section>\n");
            return;
        }
        Map<String, List<RunResult>> configurations = new LinkedHashMap<>();
        for (RunResult run : runs) {
            configurations.computeIfAbsent(configuration(run), k -> new ArrayList<>()).add(run);
        }

        // one bar and one line per system: the median of its repetitions
        Map<String, List<RunResult>> medians = new LinkedHashMap<>();
        configurations.forEach((label, ofConfig) -> medians.put(label,
                Repetitions.medians(ofConfig)));
        List<BarChart.Group> groups = new ArrayList<>();
        medians.forEach((label, ofConfig) -> groups.add(new BarChart.Group(label, bars(ofConfig))));
        int repeat = report.settings().repeat();
        String ofRuns = repeat == 1 ? "" : "; medians of " + repeat + " runs";
        h.append("<h3>Throughput (").append(Svg.escape(summary.unit()))
                .append(", longer is better").append(ofRuns)
                .append(")</h3>\n<figure class=\"throughput\">")
                .append(BarChart.render(scenario.id() + ": throughput", summary.unit(), groups))
                .append("</figure>\n");

        h.append("<h3>Latency percentiles (log scale, lower is better").append(ofRuns)
                .append(")</h3>\n")
                .append("<div class=\"charts\">\n");
        medians.forEach((label, ofConfig) -> h.append("<figure class=\"latency\">")
                .append(PercentileChart.render(label, series(ofConfig)))
                .append("</figure>\n"));
        h.append("</div>\n");

        ratios(h, report, scenario, summary.unit(), repeat);
        if (scenario == Scenario.WRITE) {
            tailLatency(h, report, ofRuns);
        }
        runTable(h, runs, summary.unit(), repeat);
        footprints(h, runs, repeat);
        h.append("</section>\n");
    }

    /** The label of a run's configuration: level, threads, and what else sets it apart. */
    private static String configuration(RunResult run) {
        return run.synchronous() + ", " + run.threads() + " thread" + (run.threads() == 1 ? "" : "s")
                + (run.variant().isEmpty() ? "" : ", " + run.variant());
    }

    private static List<BarChart.Bar> bars(List<RunResult> runs) {
        List<BarChart.Bar> bars = new ArrayList<>();
        for (RunResult run : runs) {
            if (run.latencyByKind().isEmpty()) {
                bars.add(new BarChart.Bar(run.system(), run.operationsPerSecond(), color(run.system())));
            } else {
                bars.add(new BarChart.Bar(run.system() + " all", run.operationsPerSecond(),
                        color("all")));
                run.latencyByKind().forEach((kind, latency) -> bars.add(new BarChart.Bar(
                        run.system() + " " + kind, latency.count() / run.seconds(), color(kind))));
            }
        }
        return bars;
    }

    private static List<PercentileChart.Series> series(List<RunResult> runs) {
        List<PercentileChart.Series> series = new ArrayList<>();
        for (RunResult run : runs) {
            if (run.latencyByKind().isEmpty()) {
                series.add(new PercentileChart.Series(run.system(), color(run.system()),
                        run.latency().percentiles()));
            } else {
                series.add(new PercentileChart.Series(run.system() + " all", color("all"),
                        run.latency().percentiles()));
                run.latencyByKind().forEach((kind, latency) -> series.add(new PercentileChart.Series(
                        run.system() + " " + kind, color(kind), latency.percentiles())));
            }
        }
        return series;
    }

    private static void ratios(StringBuilder h, BenchReport report, Scenario scenario, String unit,
            int repeat) {
        List<Comparison> comparisons = report.comparisons().stream()
                .filter(c -> c.scenario() == scenario)
                .collect(Collectors.toList());
        if (comparisons.isEmpty()) {
            return;
        }
        h.append("<h3>Ratios (above 1 means Lanes is better")
                .append(repeat == 1 ? "" : "; median (min-max) of " + repeat + " repetition pairs")
                .append(")</h3>\n<table class=\"ratios\">\n")
                .append("<tr><th>sync</th><th>threads</th><th>with</th><th>baseline</th><th>")
                .append(Svg.escape(unit)).append(" lanes/baseline</th>")
                .append("<th>p50 baseline/lanes</th><th>p99 baseline/lanes</th>")
                .append("<th>CPU/op baseline/lanes</th></tr>\n");
        for (Comparison c : comparisons) {
            h.append("<tr><td>").append(c.synchronous()).append("</td><td class=\"n\">")
                    .append(c.threads()).append("</td><td>").append(Svg.escape(c.variant()))
                    .append("</td><td>").append(Svg.escape(c.baseline())).append("</td>")
                    .append(ratioCell(c.throughput())).append(ratioCell(c.p50()))
                    .append(ratioCell(c.p99())).append(ratioCell(c.cpu())).append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static String ratioCell(Spread ratio) {
        return "<td class=\"n\">" + Svg.escape(ReportTable.ratio(ratio)) + "</td>";
    }

    /** The header of the column that numbers repetitions, when there are several. */
    private static String repeatHeader(int repeat) {
        return repeat == 1 ? "" : "<th>repeat</th>";
    }

    private static String repeatCell(RunResult run, int repeat) {
        return repeat == 1 ? "" : "<td class=\"n\">" + run.repetition() + "/" + repeat + "</td>";
    }

    /** The write scenario's p50, p99 and p99.9 by level, writers, system ({@link TailLatency}). */
    private static void tailLatency(StringBuilder h, BenchReport report, String ofRuns) {
        h.append("<h3>Write latency by writers (microseconds").append(ofRuns).append(")</h3>\n")
                .append("<table class=\"tail-latency\">\n<tr><th>sync</th><th>writers</th>")
                .append("<th>system</th><th>writes/s</th><th>p50 us</th><th>p99 us</th>")
                .append("<th>p99.9 us</th></tr>\n");
        for (TailLatency.Row r : TailLatency.of(report, Scenario.WRITE)) {
            Latency l = r.latency();
            h.append("<tr><td>").append(r.synchronous()).append("</td><td class=\"n\">")
                    .append(r.threads()).append("</td><td>").append(Svg.escape(r.system()))
                    .append("</td>").append(numberCell("%,.0f", r.operationsPerSecond()))
                    .append(numberCell("%,.1f", l.p50Micros()))
                    .append(numberCell("%,.1f", l.p99Micros()))
                    .append(numberCell("%,.1f", l.p999Micros())).append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static void runTable(StringBuilder h, List<RunResult> runs, String unit, int repeat) {
        boolean pinned = runs.stream().anyMatch(r -> r.virtualThreadPinned() != null);
        h.append("<h3>Runs</h3>\n<table class=\"runs\">\n<tr><th>sync</th><th>system</th>")
                .append("<th>threads</th><th>with</th>").append(repeatHeader(repeat))
                .append("<th>").append(Svg.escape(unit))
                .append("</th><th>p50 us</th><th>p90 us</th><th>p99 us</th><th>p99.9 us</th>")
                .append("<th>max us</th><th>CPU us/op</th><th>CPU</th><th>errors</th>")
                .append(pinned ? "<th>pinned</th><th>served</th>" : "")
                .append("<th>check</th></tr>\n");
        for (RunResult run : runs) {
            Latency l = run.latency();
            h.append("<tr><td>").append(run.synchronous()).append("</td><td>")
                    .append(Svg.escape(run.system())).append("</td><td class=\"n\">")
                    .append(run.threads()).append("</td><td>").append(Svg.escape(run.variant()))
                    .append("</td>").append(repeatCell(run, repeat))
                    .append(numberCell("%,.0f", run.operationsPerSecond()))
                    .append(numberCell("%,.1f", l.p50Micros()))
                    .append(numberCell("%,.1f", l.p90Micros()))
                    .append(numberCell("%,.1f", l.p99Micros()))
                    .append(numberCell("%,.1f", l.p999Micros()))
                    .append(numberCell("%,.1f", l.maxMicros()))
                    .append("<td class=\"n\">").append(ReportTable.cpuPerOperation(run))
                    .append("</td><td class=\"n\">").append(ReportTable.utilisation(run))
                    .append("</td><td>").append(Svg.escape(run.errors().isEmpty() ? "-"
                            : run.errors().entrySet().stream()
                                    .map(e -> e.getKey() + "=" + e.getValue())
                                    .collect(Collectors.joining(", "))))
                    .append("</td>").append(pinned ? "<td class=\"n\">" + ReportTable.pinned(run)
                            + "</td><td class=\"n\">" + ReportTable.served(run) + "</td>" : "")
                    .append(checkCell(run.consistency())).append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static String checkCell(Consistency c) {
        if (c == null) {
            return "<td>-</td>";
        }
        String text = String.format(Locale.ROOT, "%s: %,d acknowledged, %,d found", c.subject(),
                c.acknowledged(), c.found());
        return c.holds()
                ? "<td>" + Svg.escape(text) + "</td>"
                : "<td class=\"bad\">" + Svg.escape("MISMATCH " + text) + "</td>";
    }

    private static void footprints(StringBuilder h, List<RunResult> runs, int repeat) {
        List<RunResult> withFootprint = runs.stream()
                .filter(r -> r.footprint() != null)
                .collect(Collectors.toList());
        if (withFootprint.isEmpty()) {
            return;
        }
        h.append("<h3>Footprint</h3>\n<table class=\"footprint\">\n<tr><th>sync</th>")
                .append(repeatHeader(repeat))
                .append("<th>databases</th><th>hot set</th><th>pool threads live / cap</th>")
                .append("<th>open connections / budget</th><th>file descriptors, most / limit</th>")
                .append("<th>heap per database</th>")
                .append("<th>RSS per database</th><th>setup</th></tr>\n");
        for (RunResult run : withFootprint) {
            TenantFootprint f = run.footprint();
            h.append("<tr><td>").append(run.synchronous()).append("</td>")
                    .append(repeatCell(run, repeat))
                    .append(numberCell("%,.0f", f.databases()))
                    .append("<td>").append(String.format(Locale.ROOT, "%,d (%.0f %% of requests)",
                            f.hotDatabases(), f.hotShare() * 100)).append("</td>")
                    .append("<td class=\"n\">").append(f.liveThreads()).append(" / ")
                    .append(f.maxThreads()).append("</td>")
                    .append("<td class=\"n\">").append(ReportTable.count(f.openConnections()))
                    .append(" / ").append(f.connectionBudgetText()).append("</td>")
                    .append("<td class=\"n\">").append(ReportTable.count(f.openFilesMost()))
                    .append(" / ").append(ReportTable.count(f.openFilesLimit())).append("</td>")
                    .append("<td class=\"n\">").append(ReportTable.bytes(f.heapBytesPerDatabase()))
                    .append("</td><td class=\"n\">").append(f.rssBytesPerDatabase() < 0 ? "unknown"
                            : ReportTable.bytes(f.rssBytesPerDatabase()))
                    .append("</td><td class=\"n\">").append(seconds(f.setupSeconds()))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n<p class=\"note\">Per database: growth since just before the tenant"
                + " databases opened, divided by their number. Heap: in use after a full GC. RSS:"
                + " resident set growth beyond the committed heap's growth, i.e. native memory"
                + " (SQLite caches and connections, thread stacks).</p>\n");
    }

    /**
     * Each soak: what ran, the verdict (every check against its limit), a chart per series with
     * the fitted line, and every sample.
     */
    private static void soaks(StringBuilder h, List<SoakResult> soaks) {
        if (soaks.isEmpty()) {
            h.append("<p class=\"note\">No soak ran.</p>\n");
            return;
        }
        for (SoakResult soak : soaks) {
            SoakVerdict v = soak.verdict();
            h.append("<h3>").append(soak.setup().synchronous()).append(": ")
                    .append(v.passed() ? "passed, nothing grew without bound"
                            : "<span class=\"bad\">FAILED</span>")
                    .append("</h3>\n<p>").append(Svg.escape(ReportTable.describe(soak.setup())))
                    .append(".</p>\n<p>").append(Svg.escape("Mix: " + ReportTable.mix()
                            + "; trims keep " + soak.setup().keptRows() + " rows. "
                            + String.format(Locale.ROOT, "%,d requests, %,d failed on purpose;"
                                    + " external checkpoints: %,d completed, %,d busy, %,d failed.",
                                    soak.requests(), soak.deliberateFailures(),
                                    soak.external().completed(), soak.external().busy(),
                                    soak.external().failures())))
                    .append("</p>\n");
            h.append("<table class=\"soak-verdict\">\n<tr><th>check (slopes from ")
                    .append(SoakVerdict.clock(v.fitFromSeconds())).append(" to ")
                    .append(SoakVerdict.clock(v.fitToSeconds()))
                    .append(")</th><th>observed</th><th>limit</th><th>verdict</th></tr>\n");
            for (SoakVerdict.Growth g : v.growth()) {
                verdictRow(h, g.series().label(), g.rate(), "at most " + g.series().threshold(),
                        g.passed());
            }
            for (SoakVerdict.Check c : v.checks()) {
                verdictRow(h, c.name(), c.observed(), c.limit(), c.passed());
            }
            h.append("</table>\n<div class=\"charts\">\n");
            for (SoakVerdict.Growth g : v.growth()) {
                h.append("<figure class=\"soak\">")
                        .append(SoakChart.render(g.series(), soak.samples(), g))
                        .append("</figure>\n");
            }
            h.append("</div>\n<h3>Samples</h3>\n<table class=\"soak-samples\">\n<tr>");
            for (String header : ReportTable.soakHeaders()) {
                h.append("<th>").append(Svg.escape(header)).append("</th>");
            }
            h.append("</tr>\n");
            for (SoakSample sample : soak.samples()) {
                h.append("<tr>");
                for (String cell : ReportTable.soakCells(sample)) {
                    h.append("<td class=\"n\">").append(Svg.escape(cell)).append("</td>");
                }
                h.append("<td>").append(Svg.escape(sample.windowSeconds() == 0 ? ""
                        : ReportTable.errors(sample.errors()))).append("</td></tr>\n");
            }
            h.append("</table>\n<p class=\"note\">Heap: in use after a full GC. RSS: the"
                    + " resident set. Files: open descriptors. Most: the most connections open"
                    + " at any moment of the window, sampled every "
                    + SoakScenario.CONNECTION_PEAK_MILLIS + " ms. WAL: the -wal files of all"
                    + " databases.</p>\n");
        }
    }

    private static void verdictRow(StringBuilder h, String check, String observed, String limit,
            boolean passed) {
        h.append("<tr><td>").append(Svg.escape(check)).append("</td><td class=\"n\">")
                .append(Svg.escape(observed)).append("</td><td>").append(Svg.escape(limit))
                .append("</td>").append(passed ? "<td>ok</td>" : "<td class=\"bad\">FAILED</td>")
                .append("</tr>\n");
    }

    private static String numberCell(String format, double value) {
        return "<td class=\"n\">" + String.format(Locale.ROOT, format, value) + "</td>";
    }

    private static String seconds(double seconds) {
        return String.format(Locale.ROOT, "%.1fs", seconds);
    }

    private static String color(String name) {
        return COLORS.getOrDefault(name, OTHER_COLOR);
    }
}
