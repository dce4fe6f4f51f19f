package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Synchronous;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {
    private static final String COMMAND = "./lanes bench --repeat 3 --markdown docs/benchmarks.md";

    @TempDir
    Path dir;

    @Test
    void theSectionNamesTheCommandTheDateAndTheMachine() {
        String section = MarkdownReport.section(ReportFixtures.sample(), COMMAND, 0.5);

        assertThat(section).contains("Made by `" + COMMAND + "` on 2025-01-01",
                "2 CPUs (AMD EPYC), 24.0 GiB; Linux 6.1 amd64; load average 0.5 as the bench ended\n",
                "Java 17.0.15 (OpenJDK 64-Bit Server VM, Debian); SQLite 3.53.4"
                        + " (sqlite-jdbc 3.53.4.0)",
                "Databases on ext4; 1 s warm-up and 5 s measured per run; one run of each side");
    }

    @Test
    void aLoadAboveTheCpusIsSaidToMakeTheFiguresNoisy() {
        assertThat(MarkdownReport.section(ReportFixtures.sample(), COMMAND, 12.3))
                .contains("load average 12.3 as the bench ended (other processes shared the CPUs:"
                        + " the figures are noisy)");
        assertThat(MarkdownReport.section(ReportFixtures.sample(), COMMAND, -1))
                .doesNotContain("load average");
    }

    @Test
    void everyComparisonIsOneRowOfOneTableWithItsRatiosAndFailures() {
        String section = MarkdownReport.section(ReportFixtures.sample(), COMMAND, 0.5);

        String table = section.substring(section.indexOf("| scenario |"));
        table = table.substring(0, table.indexOf("\n\n"));
        assertThat(table.lines().filter(l -> l.startsWith("| ")).count())
                .as("a header, its rule and one row per comparison")
                .isEqualTo(2 + ReportFixtures.sample().comparisons().size());
        // 64 writers: 120,000 against 60,000 writes/s, p99 4,000 us against 900
        assertThat(section).contains("| write | 64 threads, NORMAL | hikari | 2.00x | 4.44x | 2.00x"
                + " | 120,000 writes/s | 60,000 writes/s | 0; SQLITE_BUSY=12 |");
        assertThat(section).contains("| read | 8 threads, NORMAL, with writer | raw |");
        // the baseline of rtw completed nothing: no ratio, rather than infinity
        assertThat(section).contains("| rtw | 16 threads, NORMAL | hikari | n/a | n/a |");
        assertThat(section).contains("Soak at NORMAL: passed, nothing grew without bound.");
    }

    @Test
    void aBaselineWithFewerThreadsThanLanesShowsItsOwnRate() {
        BenchReport sample = ReportFixtures.sample();
        RunResult lanes = ReportFixtures.run(Scenario.WRITE, "", "lanes", 64, 120_000, 30, 900,
                Map.of());
        RunResult loop = ReportFixtures.run(Scenario.WRITE, "", SqliteCLoop.SYSTEM, 1, 40_000, 20,
                60, Map.of());
        BenchReport report = new BenchReport(sample.environment(), sample.settings(),
                sample.scenarios(), List.of(lanes, loop), List.of(Comparison.of(lanes, loop)),
                List.of());

        String section = MarkdownReport.section(report, COMMAND, 0.5);

        assertThat(section).contains("| write | 64 threads, NORMAL | sqlite-c | 3.00x |",
                "| 120,000 writes/s | 40,000 writes/s | 0; 0 |");
    }

    @Test
    void aPageWithTheMarkersKeepsItsTextAndGetsOneResultInPlaceOfTheOld() throws Exception {
        Path page = dir.resolve("benchmarks.md");
        Files.writeString(page, "# Benchmarks\n\nHow we measure.\n\n" + MarkdownReport.BEGIN
                + "\nan old result\n" + MarkdownReport.END + "\n\n## Afterwards\n");

        MarkdownReport.write(ReportFixtures.sample(), COMMAND, page);
        MarkdownReport.write(ReportFixtures.sample(), COMMAND, page);

        String written = Files.readString(page);
        assertThat(written).startsWith("# Benchmarks\n\nHow we measure.\n\n" + MarkdownReport.BEGIN)
                .endsWith(MarkdownReport.END + "\n\n## Afterwards\n")
                .doesNotContain("an old result");
        assertThat(written.split(java.util.regex.Pattern.quote("Made by")).length - 1)
                .as("one result, never a history").isEqualTo(1);
    }

    @Test
    void aNewFileIsThePageAndAFileWithoutMarkersGetsTheSectionAppended() throws Exception {
        Path fresh = dir.resolve("sub/results.md");
        MarkdownReport.write(ReportFixtures.sample(), COMMAND, fresh);
        assertThat(Files.readString(fresh)).startsWith("# Lanes benchmark results\n\n"
                + MarkdownReport.BEGIN + "\nMade by");

        Path notes = dir.resolve("notes.md");
        Files.writeString(notes, "my notes");
        MarkdownReport.write(ReportFixtures.sample(), COMMAND, notes);
        assertThat(Files.readString(notes)).startsWith("my notes\n\n" + MarkdownReport.BEGIN)
                .endsWith(MarkdownReport.END + "\n");
    }

    @Test
    void writeLatencyIsPublishedWithP999ByLevelWritersAndSystem() {
        BenchReport sample = ReportFixtures.sample();
        List<RunResult> runs = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        for (Synchronous sync : List.of(Synchronous.NORMAL, Synchronous.FULL)) {
            for (int writers : new int[] {1, 16, 64, 1024}) {
                // p99 grows with the writers; the fixtures' p99.9 is three times the p99
                RunResult lanes = write(sync, "lanes", writers, 10.0 * writers);
                RunResult base = write(sync, writers == 1 ? "raw" : "hikari", writers,
                        40.0 * writers);
                runs.add(lanes);
                runs.add(base);
                comparisons.add(Comparison.of(lanes, base));
            }
        }
        BenchReport report = new BenchReport(sample.environment(), sample.settings(),
                sample.scenarios(), runs, comparisons, List.of());

        String section = MarkdownReport.section(report, COMMAND, 0.5);

        String latency = section.substring(section.indexOf("Write latency"));
        assertThat(latency).contains("| synchronous | writers | system | writes/s | p50 | p99"
                + " | p99.9 |");
        List<String> rows = latency.lines().filter(l -> l.startsWith("| NORMAL")
                || l.startsWith("| FULL")).toList();
        assertThat(rows).hasSize(16);
        assertThat(rows.get(0)).isEqualTo("| NORMAL | 1 | lanes | 50,000 | 5.0 | 10.0 | 30.0 |");
        assertThat(rows.get(1)).isEqualTo("| NORMAL | 1 | raw | 50,000 | 5.0 | 40.0 | 120.0 |");
        assertThat(rows.get(6)).isEqualTo(
                "| NORMAL | 1024 | lanes | 50,000 | 5.0 | 10,240.0 | 30,720.0 |");
        assertThat(rows.get(15)).isEqualTo(
                "| FULL | 1024 | hikari | 50,000 | 5.0 | 40,960.0 | 122,880.0 |");
    }

    @Test
    void withoutTheWriteScenarioThereIsNoLatencyTable() {
        BenchReport sample = ReportFixtures.sample();
        RunResult lanes = ReportFixtures.run(Scenario.RTW, "", "lanes", 16, 1_000, 5, 50, Map.of());
        RunResult base = ReportFixtures.run(Scenario.RTW, "", "hikari", 16, 900, 5, 60, Map.of());
        BenchReport report = new BenchReport(sample.environment(), sample.settings(),
                sample.scenarios(), List.of(lanes, base), List.of(Comparison.of(lanes, base)),
                List.of());

        assertThat(MarkdownReport.section(report, COMMAND, 0.5))
                .doesNotContain("Write latency", "Virtual-thread clients");
    }

    @Test
    void virtualThreadClientsShowTheirPinnedThreadsAndHowManyWereServed() {
        BenchReport sample = ReportFixtures.sample();
        RunResult lanes = vt("lanes", 0, 1000);
        RunResult base = vt("hikari", 3, 2);
        BenchReport report = new BenchReport(sample.environment(), sample.settings(),
                sample.scenarios(), List.of(lanes, base), List.of(Comparison.of(lanes, base)),
                List.of());

        assertThat(MarkdownReport.section(report, COMMAND, 0.5)).contains(
                "pinned, the jdk.VirtualThreadPinned events (threshold 0 ms, outside class"
                        + " loading)",
                "| 1000 threads, NORMAL, jdbc | 0; 3 | 1,000; 2 |");
    }

    private static RunResult vt(String system, long pinned, int served) {
        RunResult r = ReportFixtures.run(Scenario.VT, "jdbc", system, 1000, 40_000, 20, 900,
                Map.of());
        return new RunResult(r.scenario(), r.variant(), r.synchronous(), r.system(), r.threads(),
                r.repetition(), r.seconds(), r.operations(), r.operationsPerSecond(), r.latency(),
                r.latencyByKind(), r.errors(), r.backgroundPerSecond(),
                r.cpuMicrosPerOperation(), r.cpuUtilisation(), r.consistency(), r.footprint(),
                pinned, served);
    }

    private static RunResult write(Synchronous sync, String system, int writers, double p99) {
        return new RunResult(Scenario.WRITE, "", sync, system, writers, 1, 5, 250_000, 50_000,
                ReportFixtures.latency(5, p99), Map.of(), Map.of(), null, 20.0, 0.5, null, null);
    }
}
