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
 * saying what it compares, one row per system and configuration as soon as its runs are done (a
 * bench takes a minute; nobody should stare at a blank screen), and the ratios of its
 * comparisons. ASCII only ({@code us}, {@code x}), so the tables survive any terminal encoding
 * and paste cleanly into an issue.
 *
 * <p>Each run's row also shows the process CPU time of its measured window per successful
 * request ({@code CPU us/op}: every thread of the process counts, the runtime's, the JIT's and
 * the GC's too) and the share of the processors the process kept busy then ({@code CPU}, 100%
 * for all of them), and the ratios add the baseline's CPU per request over Lanes'; {@code n/a}
 * where the JVM cannot tell the process CPU time.
 *
 * <p>The vt scenario's rows also show its {@code jdk.VirtualThreadPinned} events ({@code pinned})
 * and how many of its clients had a request answered in the window ({@code served}): a client
 * that waited all the window long, or was never scheduled, is in no percentile, only there.
 *
 * <p>A run that measured Lanes' waits for a reader connection (the jdbc scenario's {@value
 * JpaWorkload#MIX_VARIANT} part) adds a line under its rows: {@code reader wait p50 ... p99 ...
 * max ...}.
 *
 * <p>Under {@code --repeat N} (N &gt; 1) the preamble says so, a row shows the median of each
 * figure over the N runs (its errors are their sum), each repetition's failed consistency check
 * and footprint still get their own lines, and a ratio shows its median with the min and max of
 * the N repetition pairs: {@code 3.70x (3.41-4.02)}. With N = 1 the same code prints what a
 * single run is, unchanged.
 *
 * <p>A soak prints what it runs and the growth it allows, then one row per sample as it is taken
 * (every 10 s), then its verdict: each series' slope over the second half against its threshold,
 * the other checks, a {@code !} line for everything that failed, and one last line saying
 * whether the soak passed.
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
    private final int repeat;

    /** A table of a bench that runs every configuration {@code repeat} times. */
    ReportTable(PrintWriter out, int repeat) {
        this.out = out;
        this.repeat = repeat;
    }

    /** The preamble: what runs, how often, for how long, and on what. */
    void printHeader(BenchOptions options, BenchReport.Environment environment) {
        List<String> parts = new ArrayList<>();
        if (options.scenarios().stream().anyMatch(Scenario::compares)) {
            // the default is not named, so that a default run's header reads as it always did
            parts.add(String.format(Locale.ROOT, "%s warm-up + %s measured per run; --repeat %d%s%s",
                    human(options.warmup()), human(options.durationFor(Scenario.WRITE)), repeat,
                    repeat == 1 ? "" : ", lanes and baseline interleaved",
                    options.checkpoint() == null ? ""
                            : "; Lanes checkpoints " + options.checkpoint()));
        }
        if (options.scenarios().contains(Scenario.SOAK)) {
            parts.add(String.format(Locale.ROOT, "soak %s, a sample every %s",
                    human(options.durationFor(Scenario.SOAK)), human(options.sampleInterval())));
        }
        out.printf(Locale.ROOT, "lanes bench: %s; %s%n",
                options.scenarios().stream().map(Scenario::id).collect(Collectors.joining(", ")),
                String.join("; ", parts));
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
        if (!scenario.compares()) {
            // a soak prints its own header once its databases are open
            out.flush();
            return;
        }
        if (repeat > 1) {
            out.printf(Locale.ROOT, "each row: the median of %d runs (errors: their sum)%n",
                    repeat);
        }
        printRow(runColumns(scenario), headers(runColumns(scenario)), "errors");
        out.flush();
    }

    @Override
    public void systemFinished(List<RunResult> repetitions) {
        RunResult run = Repetitions.median(repetitions);
        List<Column> columns = runColumns(run.scenario());
        if (run.latencyByKind().isEmpty()) {
            printRow(columns, runCells(run, run.variant(), run.operationsPerSecond(), run.latency(),
                    true), errors(run.errors()));
        } else {
            // a mixed run: its total, then each kind of request on its own row
            printRow(columns, runCells(run, "all", run.operationsPerSecond(), run.latency(), true),
                    errors(run.errors()));
            // the process's CPU time is not split by kind: only the total row has it
            run.latencyByKind().forEach((kind, latency) -> printRow(columns,
                    runCells(run, kind, latency.count() / run.seconds(), latency, false), ""));
        }
        if (run.readerWait() != null) {
            out.println("  " + readerWait(run.readerWait()));
        }
        for (RunResult one : repetitions) {
            // facts of each run, not figures to take a median of
            String which = repetitions.size() == 1
                    ? "" : Repetitions.label(one.repetition(), repetitions.size());
            Consistency check = one.consistency();
            if (check != null && !check.holds()) {
                // a lost acknowledged write is the one result a bench must never hide
                out.printf(Locale.ROOT, "  ! %s%s: %,d acknowledged but %,d found (%s)%n",
                        one.system(), which.isEmpty() ? "" : ", " + which, check.acknowledged(),
                        check.found(), check.subject());
            }
            if (one.footprint() != null) {
                printFootprint(one.footprint(), which.isEmpty() ? "" : which + ": ");
            }
        }
        out.flush();
    }

    @Override
    public void scenarioFinished(Scenario scenario, List<Comparison> comparisons) {
        if (comparisons.isEmpty()) {
            return;
        }
        List<Column> columns = ratioColumns(scenario);
        out.printf(Locale.ROOT, "ratios (above 1 means lanes is better)%s%n", repeat == 1
                ? "" : ": median (min-max) of " + repeat + " repetition pairs");
        printRow(columns, headers(columns), null);
        for (Comparison c : comparisons) {
            List<String> cells = new ArrayList<>();
            cells.add(c.synchronous().name());
            cells.add(String.valueOf(c.threads()));
            if (hasVariants(scenario)) {
                cells.add(c.variant());
            }
            cells.add(c.baseline());
            cells.add(ratio(c.throughput()));
            cells.add(ratio(c.p50()));
            cells.add(ratio(c.p99()));
            cells.add(ratio(c.cpu()));
            printRow(columns, cells, null);
        }
        out.flush();
    }

    @Override
    public void soakStarting(SoakResult.Setup setup) {
        out.println(describe(setup));
        out.printf(Locale.ROOT, "mix: %s; trims keep %d rows%n", mix(), setup.keptRows());
        out.printf(Locale.ROOT, "fails when a slope over the second half of the samples is above:"
                + " %s%n", thresholds());
        printRow(SOAK_COLUMNS, headers(SOAK_COLUMNS), "errors");
        out.flush();
    }

    /** What a soak runs, in one line. */
    static String describe(SoakResult.Setup s) {
        return String.format(Locale.ROOT, "%s: connection budget %,d (at most %,d open at any"
                        + " moment with the threads opening one); %d readers and %s idle release"
                        + " per database; checkpoints %,d AUTO, %,d DEDICATED, %,d EXTERNAL"
                        + " (TRUNCATE every %s on a connection of the bench's own); hot window"
                        + " %,d databases, moving every %s; setup %.1f s",
                s.synchronous(), s.connectionBudget(), s.connectionLimit(),
                s.readersPerDatabase(), seconds(s.idleReleaseSeconds()), s.autoDatabases(),
                s.dedicatedDatabases(), s.externalDatabases(),
                seconds(s.externalCheckpointSeconds()), s.hotDatabases(),
                seconds(s.hotRotationSeconds()), s.setupSeconds());
    }

    /** The headers of a soak's sample rows, the errors column last. */
    static List<String> soakHeaders() {
        List<String> headers = new ArrayList<>(headers(SOAK_COLUMNS));
        headers.add("errors");
        return headers;
    }

    @Override
    public void soakSampled(SoakSample sample) {
        printRow(SOAK_COLUMNS, soakCells(sample), sample.windowSeconds() == 0
                ? "" : errors(sample.errors()));
        out.flush();
    }

    @Override
    public void soakFinished(SoakResult result) {
        SoakVerdict v = result.verdict();
        SoakResult.ExternalCheckpoints e = result.external();
        out.printf(Locale.ROOT, "%,d requests, %,d failed on purpose (rolled back, as they"
                        + " should); external checkpointer: %,d TRUNCATE checkpoints completed,"
                        + " %,d busy, %,d failed%n",
                result.requests(), result.deliberateFailures(), e.completed(), e.busy(),
                e.failures());
        out.printf(Locale.ROOT, "growth from %s to %s (least-squares slope, %d samples):%n",
                SoakVerdict.clock(v.fitFromSeconds()), SoakVerdict.clock(v.fitToSeconds()),
                SoakVerdict.secondHalf(result.samples()).size());
        List<Column> columns = List.of(new Column("  check", 40, true),
                new Column("verdict", 7, true), new Column("observed", 20, false));
        printRow(columns, headers(columns), "limit");
        for (SoakVerdict.Growth g : v.growth()) {
            printRow(columns, List.of("  " + g.series().label(), verdict(g.passed()), g.rate()),
                    "at most " + g.series().threshold());
        }
        for (SoakVerdict.Check c : v.checks()) {
            printRow(columns, List.of("  " + c.name(), verdict(c.passed()), c.observed()),
                    c.limit());
        }
        for (String failure : v.failures()) {
            out.printf(Locale.ROOT, "  ! %s%n", failure);
        }
        Map<String, Long> errors = result.errors();
        if (!errors.isEmpty()) {
            out.printf(Locale.ROOT, "  ! %,d requests failed unexpectedly (not part of the"
                            + " verdict, which is about growth): %s%n",
                    errors.values().stream().mapToLong(Long::longValue).sum(), errors(errors));
        }
        if (e.failures() > 0) {
            out.printf(Locale.ROOT, "  ! %,d external checkpoints failed, the last: %s%n",
                    e.failures(), e.lastFailure());
        }
        out.printf(Locale.ROOT, "soak %s: %s%n", result.setup().synchronous(), v.passed()
                ? "passed, nothing grew without bound"
                : "FAILED (exit code " + BenchCommand.SOAK_FAILED + ")");
        out.flush();
    }

    /** The columns of a soak's samples. */
    private static final List<Column> SOAK_COLUMNS = List.of(
            new Column("time", 6, false),
            new Column("requests/s", 11, false),
            new Column("heap MiB", 9, false),
            new Column("RSS MiB", 9, false),
            new Column("files", 6, false),
            new Column("threads", 7, false),
            new Column("pool", 5, false),
            new Column("conns", 6, false),
            new Column("most", 6, false),
            new Column("readers", 7, false),
            new Column("WAL MiB", 9, false),
            new Column("load", 6, false));

    /** A soak sample's cells, without its errors. */
    static List<String> soakCells(SoakSample s) {
        return List.of(
                SoakVerdict.clock(s.elapsedSeconds()),
                s.windowSeconds() == 0 ? "-" : String.format(Locale.ROOT, "%,.0f",
                        s.requestsPerSecond()),
                mebibytes(s.heapAfterGcBytes()),
                mebibytes(s.rssBytes()),
                count(s.openFiles()),
                count(s.threads()),
                count(s.poolThreads()),
                count(s.openConnections()),
                count(s.mostConnections()),
                count(s.readerConnections()),
                mebibytes(s.walBytes()),
                s.loadAverage() < 0 ? "-" : String.format(Locale.ROOT, "%.1f", s.loadAverage()));
    }

    /** The request mix, for people: {@code 35 % point reads, 10 % scans, …}. */
    static String mix() {
        List<String> parts = new ArrayList<>();
        for (SoakLoad.Request r : SoakLoad.Request.values()) {
            parts.add(r.percent() + " % " + mixName(r));
        }
        return String.join(", ", parts);
    }

    private static String mixName(SoakLoad.Request r) {
        switch (r) {
            case POINT_READ:
                return "point reads";
            case SCAN:
                return "scans";
            case INSERT:
                return "inserts";
            case MULTI_ROW_WRITE:
                return SoakLoad.BATCH_ROWS + "-row db.write bodies";
            case TRANSACTION:
                return "db.begin() read-then-write transactions";
            case TRIM:
                return "trims";
            default:
                return "bodies and transactions that fail on purpose";
        }
    }

    /** Every series' threshold, for people: {@code heap after GC 4 MiB/min, …}. */
    static String thresholds() {
        List<String> parts = new ArrayList<>();
        for (SoakSeries series : SoakSeries.values()) {
            parts.add(series.label() + " " + series.threshold());
        }
        return String.join(", ", parts);
    }

    private static String verdict(boolean passed) {
        return passed ? "ok" : "FAILED";
    }

    /** 123.4: bytes in MiB with one decimal, or {@code unknown}. */
    private static String mebibytes(long bytes) {
        return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%,.1f", bytes / 1048576.0);
    }

    /** 3s, 0.5s: seconds the way {@link #human(Duration)} writes them. */
    private static String seconds(double seconds) {
        return human(Duration.ofNanos(Math.round(seconds * 1e9)));
    }

    private void printFootprint(TenantFootprint f, String prefix) {
        out.printf(Locale.ROOT, "  %s%,d databases: %d of %d pool threads live, %,d connections"
                        + " open (budget %s); per database: heap %s, RSS %s beyond the heap (RSS now"
                        + " %s)%n",
                prefix, f.databases(), f.liveThreads(), f.maxThreads(), f.openConnections(),
                f.connectionBudgetText(),
                bytes(f.heapBytesPerDatabase()),
                f.rssBytesPerDatabase() < 0 ? "unknown" : bytes(f.rssBytesPerDatabase()),
                f.rssBytesAfter() < 0 ? "unknown" : bytes(f.rssBytesAfter()));
        out.printf(Locale.ROOT, "  %sfile descriptors: at most %s open, limit %s; setup %.1f s%n",
                prefix, count(f.openFilesMost()), count(f.openFilesLimit()), f.setupSeconds());
    }

    static String count(long n) {
        return n < 0 ? "unknown" : String.format(Locale.ROOT, "%,d", n);
    }

    private static boolean hasVariants(Scenario scenario) {
        return scenario == Scenario.READ || scenario == Scenario.JDBC || scenario == Scenario.VT;
    }

    private static List<Column> runColumns(Scenario scenario) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("sync", 8, true));
        columns.add(new Column("system", 7, true));
        columns.add(new Column("threads", 7, false));
        if (hasVariants(scenario)) {
            columns.add(new Column("  with", 13, true));
        } else if (scenario == Scenario.TENANTS) {
            columns.add(new Column("  kind", 7, true));
        }
        columns.add(new Column(scenario.unit(), 11, false));
        columns.add(new Column("p50 us", 10, false));
        columns.add(new Column("p99 us", 10, false));
        columns.add(new Column("max us", 11, false));
        columns.add(new Column("CPU us/op", 10, false));
        columns.add(new Column("CPU", 5, false));
        if (scenario == Scenario.READ) {
            columns.add(new Column("writes/s", 10, false));
        }
        if (scenario == Scenario.VT) {
            columns.add(new Column("pinned", 7, false));
            columns.add(new Column("served", 7, false));
        }
        return columns;
    }

    private List<Column> ratioColumns(Scenario scenario) {
        // "15.46x (14.90-16.02)" needs more room than a single ratio
        int wide = repeat == 1 ? 0 : 24;
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("sync", 8, true));
        columns.add(new Column("threads", 7, false));
        if (hasVariants(scenario)) {
            columns.add(new Column("  with", 13, true));
        }
        columns.add(new Column("  baseline", 10, true));
        columns.add(new Column(scenario.unit() + " lanes/baseline", 24, false));
        columns.add(new Column("p50 baseline/lanes", Math.max(20, wide), false));
        columns.add(new Column("p99 baseline/lanes", Math.max(20, wide), false));
        columns.add(new Column("CPU/op baseline/lanes", Math.max(22, wide), false));
        return columns;
    }

    private static List<String> runCells(RunResult run, String variant, double rate,
            Latency latency, boolean total) {
        List<String> cells = new ArrayList<>();
        cells.add(run.synchronous().name());
        cells.add(run.system());
        cells.add(String.valueOf(run.threads()));
        if (hasVariants(run.scenario()) || run.scenario() == Scenario.TENANTS) {
            cells.add("  " + variant);
        }
        cells.add(String.format(Locale.ROOT, "%,.0f", rate));
        cells.add(micros(latency.p50Micros()));
        cells.add(micros(latency.p99Micros()));
        cells.add(micros(latency.maxMicros()));
        cells.add(total ? cpuPerOperation(run) : "");
        cells.add(total ? utilisation(run) : "");
        if (run.scenario() == Scenario.READ) {
            cells.add(run.backgroundPerSecond() == null
                    ? "-" : String.format(Locale.ROOT, "%,.0f", run.backgroundPerSecond()));
        }
        if (run.scenario() == Scenario.VT) {
            cells.add(total ? pinned(run) : "");
            cells.add(total ? served(run) : "");
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

    /**
     * {@code 12.3}: process CPU microseconds per request, or {@code n/a} when the JVM cannot tell
     * the CPU time or nothing succeeded (never 0 for unknown).
     */
    static String cpuPerOperation(RunResult run) {
        Double cpu = run.cpuMicrosPerOperation();
        return cpu == null ? "n/a" : String.format(Locale.ROOT, "%,.1f", cpu);
    }

    /** How many virtual threads were pinned in the run's window, or {@code -} when not counted. */
    static String pinned(RunResult run) {
        Long pinned = run.virtualThreadPinned();
        return pinned == null ? "-" : String.format(Locale.ROOT, "%,d", pinned);
    }

    /**
     * How many of the run's threads had a request answered in its window, or {@code -} when not
     * counted.
     */
    static String served(RunResult run) {
        Integer served = run.served();
        return served == null ? "-" : String.format(Locale.ROOT, "%,d", served);
    }

    /**
     * {@code reader wait p50 1.2 us, p99 3,400.0 us, max 9,100.0 us (12,345 waits)}: Lanes'
     * reads' waits for a reader connection in the window.
     */
    static String readerWait(Latency wait) {
        return String.format(Locale.ROOT, "reader wait p50 %s us, p99 %s us, max %s us (%,d waits)",
                micros(wait.p50Micros()), micros(wait.p99Micros()), micros(wait.maxMicros()),
                wait.count());
    }

    /** {@code 87%}: the share of the processors the process kept busy, or {@code n/a}. */
    static String utilisation(RunResult run) {
        Double share = run.cpuUtilisation();
        return share == null ? "n/a" : String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    /** {@code 1,234.5}: microseconds as the tables write them. */
    static String micros(double micros) {
        return String.format(Locale.ROOT, "%,.1f", micros);
    }

    /**
     * A ratio for people: {@code 3.70x} for one repetition; {@code 3.70x (3.41-4.02)}, the median
     * and the range, for several; {@code n/a} when no repetition has one, and a count of those
     * that have none when some have.
     */
    static String ratio(Spread spread) {
        if (spread.median() == null) {
            return "n/a";
        }
        String median = String.format(Locale.ROOT, "%.2fx", spread.median());
        if (spread.perRepetition().size() == 1) {
            return median;
        }
        int undefined = spread.undefined();
        return String.format(Locale.ROOT, "%s (%.2f-%.2f%s)", median, spread.min(), spread.max(),
                undefined == 0 ? "" : ", " + undefined + " n/a");
    }

    /** {@code SQLITE_BUSY=3, WRITE_FAILED=1}, or {@code -} for none. */
    static String errors(Map<String, Long> errors) {
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

    /** 500ms, 1s, 1.5s, 10m: how people write durations, not ISO-8601's PT1.5S. */
    static String human(Duration d) {
        long millis = d.toMillis();
        if (millis < 1000) {
            return millis + "ms";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0
                ? millis / 1000 + "s"
                : String.format(Locale.ROOT, "%.3f", millis / 1000.0).replaceAll("0+$", "") + "s";
    }
}
