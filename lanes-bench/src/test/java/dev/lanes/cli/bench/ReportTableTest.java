package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ReportTableTest {

    @Test
    void repeatedRowsAreMediansAndSaySo() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(firstLine(table)).isEqualTo("lanes bench: write, tenants; 1s warm-up + 5s"
                + " measured per run; --repeat 3, lanes and baseline interleaved");
        assertThat(lines(table, "each row: ")).containsExactly(
                "each row: the median of 3 runs (errors: their sum)",
                "each row: the median of 3 runs (errors: their sum)");
        // one row per system and configuration, not one per repetition; the errors of all
        assertThat(lines(table, "NORMAL   lanes        64", "NORMAL   hikari       64"))
                .containsExactly(
                        "NORMAL   lanes        64     120,000       25.0      900.0     9,000.0        8.3   50%  -",
                        "NORMAL   hikari       64      50,000       25.0    4,000.0    40,000.0"
                                + "       20.0   50%  SQLITE_BUSY=5");
        assertThat(lines(table, "NORMAL   lanes        16")).containsExactly(
                "NORMAL   lanes        16   all        60,000        6.0      800.0     8,000.0"
                        + "       16.7   50%  -",
                "NORMAL   lanes        16   read       48,000        5.0      500.0     5,000.0",
                "NORMAL   lanes        16   write      12,000       16.0    1,100.0     9,000.0");
    }

    @Test
    void aFailedCheckIsShownForTheRepetitionThatFailedItUnderItsSystemsRow() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(lines(table, "  !")).containsExactly(
                "  ! hikari, repeat 2/3: 10 acknowledged but 9 found (rows in bench)");
        assertThat(table.indexOf("  ! hikari")).isGreaterThan(table.indexOf("NORMAL   hikari"))
                .isLessThan(table.indexOf("NORMAL   lanes         1"));
    }

    @Test
    void eachRepetitionsFootprintIsShown() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(lines(table, "  repeat ")).hasSize(6);
        assertThat(table).contains("  repeat 1/3: 1,000 databases: 60 of 64 pool threads live",
                "  repeat 2/3: 1,000 databases: 61 of 64 pool threads live",
                "per database: heap 30.0 KiB", "  repeat 3/3: file descriptors: at most 9,500");
    }

    @Test
    void ratiosShowTheirMedianAndRangeOverTheRepetitionPairs() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(lines(table, "ratios")).containsOnly(
                "ratios (above 1 means lanes is better): median (min-max) of 3 repetition pairs");
        assertThat(lines(table, "NORMAL        64")).containsExactly("NORMAL        64 hikari     "
                + "       2.00x (2.00-3.25)        1.00x (0.50-1.50)       4.44x (2.00-10.00)"
                + "        2.00x (2.00-3.25)");
        // the baseline completed nothing in repetition 2: no ratio there, the others' median
        assertThat(lines(table, "NORMAL         1")).singleElement().asString()
                .contains("0.88x (0.75-1.00, 1 n/a)");
    }

    @Test
    void anEvenNumberOfRepetitionsTakesTheMeanOfTheMiddleTwo() throws Exception {
        String table = render(2);

        assertThat(lines(table, "NORMAL   lanes        64", "NORMAL   hikari       64"))
                .containsExactly(
                        "NORMAL   lanes        64     115,000       25.0      950.0     9,500.0        8.8   50%  -",
                        "NORMAL   hikari       64      45,000       22.5    3,000.0    30,000.0"
                                + "       22.5   50%  SQLITE_BUSY=3");
        // (2.00 + 3.25) / 2
        assertThat(lines(table, "NORMAL        64")).singleElement().asString()
                .contains("2.63x (2.00-3.25)");
        assertThat(lines(table, "  !")).containsExactly(
                "  ! hikari, repeat 2/2: 10 acknowledged but 9 found (rows in bench)");
    }

    @Test
    void aSingleRunPrintsAsItAlwaysDid() throws Exception {
        String table = render(1);

        assertThat(firstLine(table)).isEqualTo(
                "lanes bench: write, tenants; 1s warm-up + 5s measured per run; --repeat 1");
        assertThat(table).doesNotContain("each row", "median", "repeat 1/1", "  !");
        assertThat(lines(table, "NORMAL   lanes        64")).containsExactly(
                "NORMAL   lanes        64     100,000       30.0      900.0     9,000.0       10.0   50%  -");
        assertThat(lines(table, "ratios")).containsOnly("ratios (above 1 means lanes is better)");
        assertThat(lines(table, "NORMAL        64")).containsExactly("NORMAL        64 hikari   "
                + "                     2.00x                0.50x                4.44x                  2.00x");
        assertThat(lines(table, "  1,000 databases: 60 of 64 pool threads live")).hasSize(1);
    }

    @Test
    void aSoakPrintsWhatItRunsItsThresholdsAndARowPerSampleAsItIsTaken() {
        StringWriter out = new StringWriter();
        ReportTable table = new ReportTable(new PrintWriter(out, true), 1);
        SoakResult soak = SoakFixtures.healthy();

        table.soakStarting(soak.setup());
        table.soakSampled(soak.samples().get(0));
        table.soakSampled(soak.samples().get(1));
        String text = out.toString();

        assertThat(text).startsWith("NORMAL: connection budget 300 (at most 372 open at any"
                + " moment with the threads opening one); 2 readers and 3s idle release per"
                + " database; checkpoints 746 AUTO, 250 DEDICATED, 4 EXTERNAL (TRUNCATE every 5s"
                + " on a connection of the bench's own); hot window 100 databases, moving every"
                + " 30s; setup 5.4 s");
        assertThat(lines(text, "mix: ")).containsExactly("mix: 35 % point reads, 10 % scans,"
                + " 25 % inserts, 10 % 5-row db.write bodies, 10 % db.begin() read-then-write"
                + " transactions, 8 % trims, 2 % bodies and transactions that fail on purpose;"
                + " trims keep 200 rows");
        assertThat(lines(text, "fails when")).containsExactly("fails when a slope over the second"
                + " half of the samples is above: heap after GC 2 MiB/min, RSS 16 MiB/min, open"
                + " files 20/min, threads 1/min, WAL, all databases 4 MiB/min");
        List<String> rows = text.lines().skip(3).collect(Collectors.toList());
        assertThat(rows.get(0)).isEqualTo("  time  requests/s  heap MiB   RSS MiB  files threads"
                + "  pool  conns   most readers   WAL MiB   load  errors");
        // the first sample closes no window: no rate and no errors column yet
        assertThat(rows.get(1)).matches(
                " +0:00 +- +13\\.\\d +2\\d\\d\\.\\d +1,0\\d\\d +\\d\\d +2 +300 +304 +140 +\\d+\\.\\d +1\\.5");
        assertThat(rows.get(2)).startsWith("  0:10       2,500").endsWith("  -");
    }

    @Test
    void aPassedSoakEndsWithEveryCheckAndItsVerdict() {
        String text = finish(SoakFixtures.healthy());

        assertThat(lines(text, "growth from")).containsExactly(
                "growth from 5:00 to 10:00 (least-squares slope, 31 samples):");
        assertThat(lines(text, "  connections")).singleElement().asString()
                .matches("  connections +ok +at most 304 open  <= 372 \\(budget 300 \\+ 8 clients"
                        + " \\+ 64 pool threads opening\\)");
        assertThat(lines(text, "  heap after GC")).singleElement().asString()
                .matches("  heap after GC +ok +[+-]\\d+\\.\\d\\d MiB/min  at most 2 MiB/min");
        assertThat(lines(text, "  !")).isEmpty();
        assertThat(text).contains("1,500,000 requests, 30,000 failed on purpose (rolled back, as they"
                + " should); external checkpointer: 480 TRUNCATE checkpoints completed, 2 busy,"
                + " 0 failed");
        assertThat(lastLine(text)).isEqualTo("soak NORMAL: passed, nothing grew without bound");
    }

    @Test
    void aFailedSoakSaysWhichSeriesGrewOnAnExclamationLine() {
        String text = finish(SoakFixtures.leaking());

        assertThat(lines(text, "  heap after GC")).singleElement().asString()
                .matches("  heap after GC +FAILED +\\+146\\.48 MiB/min  at most 2 MiB/min");
        assertThat(lines(text, "  !")).containsExactly("  ! heap after GC grew +146.48 MiB/min"
                + " from 5:00 to 10:00 (threshold 2 MiB/min)");
        assertThat(lastLine(text)).isEqualTo("soak NORMAL: FAILED (exit code 1)");
    }

    @Test
    void unexpectedErrorsAreShownButAreNotTheVerdict() {
        SoakResult healthy = SoakFixtures.healthy();
        List<SoakSample> samples = new java.util.ArrayList<>(healthy.samples());
        SoakSample s = samples.get(5);
        samples.set(5, new SoakSample(s.elapsedSeconds(), s.windowSeconds(), s.requests(),
                s.deliberateFailures(), java.util.Map.of("SQLITE_BUSY", 3L), s.heapAfterGcBytes(),
                s.heapCommittedBytes(), s.rssBytes(), s.openFiles(), s.threads(),
                s.poolThreads(), s.openConnections(), s.mostConnections(),
                s.readerConnections(), s.walBytes(), s.loadAverage()));

        String text = finish(SoakFixtures.result(samples));

        assertThat(lines(text, "  !")).containsExactly("  ! 3 requests failed unexpectedly (not"
                + " part of the verdict, which is about growth): SQLITE_BUSY=3");
        assertThat(lastLine(text)).isEqualTo("soak NORMAL: passed, nothing grew without bound");
    }

    @Test
    void aSoakOnlyBenchSaysHowLongItRunsNotAWarmUp() {
        StringWriter out = new StringWriter();
        new ReportTable(new PrintWriter(out, true), 1).printHeader(new BenchOptions(
                List.of(Scenario.SOAK), null, null, java.time.Duration.ofSeconds(1), 1, null,
                1000, null, null, null, null, null,
                BenchOptions.DEFAULT_SAMPLE_INTERVAL),
                ReportFixtures.environment());

        assertThat(firstLine(out.toString()))
                .isEqualTo("lanes bench: soak; soak 10m, a sample every 10s");
    }

    private static String finish(SoakResult soak) {
        StringWriter out = new StringWriter();
        new ReportTable(new PrintWriter(out, true), 1).soakFinished(soak);
        return out.toString();
    }

    private static String lastLine(String text) {
        List<String> all = text.lines().collect(Collectors.toList());
        return all.get(all.size() - 1);
    }

    private static String render(int repeat) throws Exception {
        StringWriter out = new StringWriter();
        ReportTable table = new ReportTable(new PrintWriter(out, true), repeat);
        table.printHeader(RepeatedFixtures.options(repeat), ReportFixtures.environment());
        RepeatedFixtures.run(repeat, table, RepeatedFixtures.write(), RepeatedFixtures.tenants());
        return out.toString();
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElseThrow();
    }

    private static List<String> lines(String text, String... prefixes) {
        return text.lines()
                .filter(l -> Arrays.stream(prefixes).anyMatch(l::startsWith))
                .collect(Collectors.toList());
    }
}
