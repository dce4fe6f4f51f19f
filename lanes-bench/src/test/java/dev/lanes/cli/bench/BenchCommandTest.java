package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.cli.LanesCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {
    @TempDir
    Path scratchParent;
    /**
     * Whether the write scenario compares with SQLite's C loop on this machine (gcc and
     * libsqlite3-dev installed): it adds a comparison per level.
     */
    private static final boolean C_LOOP = cLoopBuilds();

    private static boolean cLoopBuilds() {
        try {
            Path probe = Files.createTempDirectory("lanes-c-loop-probe");
            try {
                return SqliteCLoop.build(probe).unavailable() == null;
            } finally {
                try (var files = Files.walk(probe)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code runs}, then {@code cLoop} where the C loop runs. */
    private static List<String> withCLoop(List<String> runs, String... cLoop) {
        List<String> all = new ArrayList<>(runs);
        if (C_LOOP) {
            all.addAll(List.of(cLoop));
        }
        return all;
    }

    @TempDir
    Path output;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    // a guard against a hung writer, not a speed assertion: the runs take about 1.6 s in all
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theDefaultIsTheWriteScenarioAgainstEveryBaseline() throws Exception {
        Path json = output.resolve("bench.json");

        int exit = run("bench", "--threads", "4", "--duration", "300ms", "--warmup", "100ms",
                "--synchronous", "normal", "--dir", scratchParent.toString(), "--json", json.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> systems = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            systems.add(run.get("system").asText() + "/" + run.get("threads").asInt());
            assertThat(run.get("scenario").asText()).isEqualTo("write");
            assertThat(run.get("synchronous").asText()).isEqualTo("NORMAL");
            assertThat(run.get("latency").get("p99Micros").asDouble())
                    .isGreaterThanOrEqualTo(run.get("latency").get("p50Micros").asDouble());
            assertWroteAndAllAreThere(run);
            assertCpuPerWrite(run);
        }
        boolean cLoop = C_LOOP;
        if (cLoop) {
            assertThat(systems).containsExactly("lanes/4", "hikari/4", "lanes/1", "raw/1",
                    "lanes/4", SqliteCLoop.SYSTEM + "/1");
        } else {
            assertThat(systems).containsExactly("lanes/4", "hikari/4", "lanes/1", "raw/1");
        }
        assertThat(report.get("settings").get("repeat").asInt()).isEqualTo(1);
        assertThat(report.get("comparisons")).hasSize(cLoop ? 3 : 2);
        assertThat(report.get("comparisons").get(0).get("baseline").asText()).isEqualTo("hikari");
        JsonNode lanes = report.get("runs").get(0);
        JsonNode hikari = report.get("runs").get(1);
        JsonNode ratio = report.get("comparisons").get(0).path("throughputRatio");
        if (hikari.get("operations").asLong() > 0) {
            assertThat(ratio.asDouble()).isCloseTo(lanes.get("operationsPerSecond").asDouble()
                    / hikari.get("operationsPerSecond").asDouble(), within(1e-9));
        } else {
            // a baseline stalled for the whole window has no ratio, not an infinite one
            assertThat(ratio.isNumber()).as("%s", ratio).isFalse();
        }
        JsonNode cpuRatio = report.get("comparisons").get(0).path("cpuRatio");
        if (hikari.has("cpuMicrosPerOperation") && lanes.has("cpuMicrosPerOperation")) {
            // above 1 when Lanes spent less CPU on each write than HikariCP did
            assertThat(cpuRatio.asDouble()).isCloseTo(hikari.get("cpuMicrosPerOperation")
                    .asDouble() / lanes.get("cpuMicrosPerOperation").asDouble(), within(1e-9));
        } else {
            assertThat(cpuRatio.isNumber()).as("%s", cpuRatio).isFalse();
        }
        // the write table comes first, and then its ratios
        String text = out.toString();
        assertThat(text).contains("write: 4 writers vs HikariCP", "writes/s", "ratios", "raw",
                "CPU us/op", "CPU/op baseline/lanes");
        assertThat(text.indexOf("writes/s")).isLessThan(text.indexOf("ratios"));
        assertThat(text).doesNotContain("reads/s", "tx/s");
        // not a terminal: progress goes to the error stream as plain lines
        int runs = cLoop ? 6 : 4;
        assertThat(err.toString()).contains("[1/" + runs + "] write: lanes, 4 threads, NORMAL (400ms)",
                "[4/" + runs + "] write: raw, 1 thread, NORMAL").doesNotContain("\r", "\033");
        if (cLoop) {
            assertThat(text).contains("vs SQLite's C loop (SQLite 3.", SqliteCLoop.SYSTEM);
            assertThat(err.toString()).contains("[6/6] write: SQLite's C loop, 1 connection");
        }
        assertScratchIsGone();
    }

    @Test
    // a guard against a hang, not a speed assertion: 15 runs of 150 ms and 12 small databases
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void everyScenarioRunsAndGoesIntoTheJsonAndTheReport() throws Exception {
        Path json = output.resolve("all.json");
        Path html = output.resolve("report/all.html");

        int exit = run("bench", "--scenario", "write,read,rtw,tenants", "--threads", "2",
                "--duration", "150ms", "--warmup", "50ms", "--databases", "12",
                "--dir", scratchParent.toString(), "--json", json.toString(),
                "--report", html.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> runs = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            runs.add(run.get("scenario").asText() + ":" + run.get("system").asText() + "/"
                    + run.get("threads").asInt() + (run.get("variant").asText().isEmpty()
                            ? "" : "/" + run.get("variant").asText()));
            if (run.has("consistency")) {
                assertThat(run.get("consistency").get("holds").asBoolean()).as("%s", run).isTrue();
            }
        }
        List<String> write = new ArrayList<>();
        for (int level = 0; level < 2; level++) { // write defaults to NORMAL and FULL
            write.addAll(withCLoop(List.of("write:lanes/2", "write:hikari/2", "write:lanes/1",
                    "write:raw/1"), "write:lanes/2", "write:" + SqliteCLoop.SYSTEM + "/1"));
        }
        assertThat(runs.subList(0, write.size())).containsExactlyElementsOf(write);
        assertThat(runs.subList(write.size(), runs.size())).containsExactly(
                "read:lanes/1/alone", "read:raw/1/alone",
                "read:lanes/1/with writer", "read:raw/1/with writer",
                "read:lanes/2/alone", "read:raw/2/alone",
                "read:lanes/2/with writer", "read:raw/2/with writer",
                "rtw:lanes/2", "rtw:hikari/2",
                "tenants:lanes/2/12 databases", "tenants:raw/2/12 databases");
        for (JsonNode run : report.get("runs")) {
            String scenario = run.get("scenario").asText();
            if (scenario.equals("read")) {
                // a read that found no row would be an error
                assertThat(run.get("errors").size()).as("%s", run).isZero();
                assertThat(run.get("operations").asLong()).isPositive();
                assertThat(run.has("backgroundPerSecond"))
                        .isEqualTo(run.get("variant").asText().equals("with writer"));
            }
            if (scenario.equals("rtw") && run.get("system").asText().equals("lanes")) {
                // an interactive transaction holds the write lock from its first statement
                assertThat(run.get("errors").size()).as("%s", run).isZero();
                assertThat(run.get("operations").asLong()).isPositive();
            }
            if (scenario.equals("tenants") && run.get("system").asText().equals("raw")) {
                assertThat(run.get("operations").asLong()).isPositive();
                assertThat(run.has("footprint")).isFalse();
            }
            if (scenario.equals("tenants") && run.get("system").asText().equals("lanes")) {
                JsonNode footprint = run.get("footprint");
                assertThat(footprint.get("databases").asInt()).isEqualTo(12);
                assertThat(footprint.get("liveThreads").asInt())
                        .isBetween(1, footprint.get("maxThreads").asInt());
                assertThat(footprint.get("openConnections").asInt()).isGreaterThanOrEqualTo(12);
                assertThat(run.get("latencyByKind").has("read")).isTrue();
                assertThat(run.get("latencyByKind").has("write")).isTrue();
            }
        }
        int writeComparisons = C_LOOP ? 6 : 4;
        assertThat(report.get("comparisons")).hasSize(writeComparisons + 4 + 1 + 1);
        assertThat(report.get("scenarios")).hasSize(4);

        SvgStructure svg = SvgStructure.parse(Files.readString(html));
        // a throughput chart per scenario, a latency chart per configuration
        assertThat(svg.chartsOfClass("bar-chart")).hasSize(4);
        // one per configuration: the C loop's comparison shares the writers' chart
        assertThat(svg.chartsOfClass("percentile-chart")).hasSize(4 + 4 + 1 + 1);
        assertThat(out.toString()).contains("reads/s", "tx/s", "ops/s", "12 databases:",
                "wrote " + json, "wrote " + html);
        int total = C_LOOP ? 24 : 20;
        assertThat(err.toString()).contains("[" + (total - 1) + "/" + total
                        + "] tenants: lanes, 12 databases, 2 clients",
                "[" + total + "/" + total
                        + "] tenants: raw, a connection per request, 12 databases, 2 clients",
                "tenants: creating 12 databases");
        assertScratchIsGone();
    }

    @Test
    // a guard against a hung writer, not a speed assertion: 8 runs of 300 ms
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void repeatedRunsAlternateTheSystemsAndReportMediansWithTheirRange() throws Exception {
        Path json = output.resolve("repeat.json");
        Path html = output.resolve("repeat.html");

        int exit = run("bench", "--threads", "2", "--duration", "200ms", "--warmup", "100ms",
                "--repeat", "2", "--synchronous", "normal", "--dir", scratchParent.toString(),
                "--json", json.toString(), "--report", html.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> runs = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            runs.add(run.get("system").asText() + "/" + run.get("threads").asInt() + " #"
                    + run.get("repetition").asInt());
            // the check runs after every repetition, on writes of its own
            assertWroteAndAllAreThere(run);
        }
        assertThat(runs).containsExactlyElementsOf(withCLoop(List.of(
                "lanes/2 #1", "hikari/2 #1", "lanes/2 #2", "hikari/2 #2",
                "lanes/1 #1", "raw/1 #1", "lanes/1 #2", "raw/1 #2"),
                "lanes/2 #1", SqliteCLoop.SYSTEM + "/1 #1", "lanes/2 #2",
                SqliteCLoop.SYSTEM + "/1 #2"));
        assertThat(report.get("settings").get("repeat").asInt()).isEqualTo(2);
        assertThat(report.get("comparisons")).hasSize(C_LOOP ? 3 : 2);
        for (JsonNode c : report.get("comparisons")) {
            JsonNode throughput = c.get("throughput");
            assertThat(c.get("repetitions").asInt()).isEqualTo(2);
            assertThat(throughput.get("perRepetition")).hasSize(2);
            assertThat(throughput.get("min").asDouble())
                    .isLessThanOrEqualTo(throughput.get("median").asDouble())
                    .isLessThanOrEqualTo(throughput.get("max").asDouble());
            assertThat(c.get("throughputRatio").asDouble())
                    .isEqualTo(throughput.get("median").asDouble());
        }
        String text = out.toString();
        assertThat(text).contains("--repeat 2, lanes and baseline interleaved",
                "each row: the median of 2 runs", "median (min-max) of 2 repetition pairs");
        // one row per system and configuration
        assertThat(text.lines().filter(l -> l.startsWith("NORMAL   lanes")))
                .hasSize(C_LOOP ? 3 : 2);
        // a ratio: its median, then its range
        assertThat(text).containsPattern(
                "NORMAL +2 hikari +\\d+\\.\\d\\dx \\(\\d+\\.\\d\\d-\\d+\\.\\d\\d\\)");
        String of = "/" + (C_LOOP ? 12 : 8) + "] ";
        assertThat(err.toString()).contains(
                "[1" + of + "write: lanes, 2 threads, NORMAL, repeat 1/2 (300ms)",
                "[2" + of + "write: hikari, 2 threads, NORMAL, repeat 1/2 (300ms)",
                "[3" + of + "write: lanes, 2 threads, NORMAL, repeat 2/2 (300ms)",
                "[8" + of + "write: raw, 1 thread, NORMAL, repeat 2/2 (300ms)");
        assertThat(Files.readString(html)).contains("<th>repeat</th>", "--repeat 2");
        assertScratchIsGone();
    }

    @Test
    void lanesDatabasesCheckpointAsCheckpointSaysAndTheReportSaysHow() throws Exception {
        BenchOptions unset = parse("bench");
        assertThat(unset.checkpoint()).as("Lanes' own default, not a mode of the bench's")
                .isNull();
        assertThat(unset.lanesDatabase().synchronous(dev.lanes.Synchronous.FULL).build()
                .checkpointMode()).isEqualTo(dev.lanes.CheckpointMode.AUTO);
        assertThat(unset.lanesDatabase().build().checkpointMode())
                .isEqualTo(dev.lanes.CheckpointMode.DEDICATED);
        BenchOptions auto = parse("bench", "--checkpoint", "auto");
        assertThat(auto.lanesDatabase().build().checkpointMode())
                .isEqualTo(dev.lanes.CheckpointMode.AUTO);

        Path json = output.resolve("auto.json");
        int exit = run("bench", "--threads", "2", "--duration", "200ms", "--warmup", "100ms",
                "--synchronous", "normal", "--checkpoint", "AUTO", "--dir",
                scratchParent.toString(), "--json", json.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        assertThat(out.toString()).contains("Lanes checkpoints AUTO");
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertThat(report.get("settings").get("checkpoint").asText()).isEqualTo("AUTO");
        for (JsonNode run : report.get("runs")) {
            assertWroteAndAllAreThere(run);
        }
        assertScratchIsGone();
    }

    @Test
    void aCheckpointModeThatIsNoneIsRefused() {
        assertThat(run("bench", "--checkpoint", "sometimes", "--dir", scratchParent.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--checkpoint", "sometimes");
        assertThat(scratchParent).isEmptyDirectory();
    }

    @Test
    void repeatIsOneUnlessGiven() {
        assertThat(parse("bench").repeat()).isEqualTo(1);
        assertThat(parse("bench", "--repeat", "3").repeat()).isEqualTo(3);
    }

    @Test
    void aRepeatBelowOneIsRefusedBeforeAnythingRuns() {
        int exit = run("bench", "--repeat", "0", "--dir", scratchParent.toString());
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--repeat must be at least 1, was 0", "Usage:");

        err.getBuffer().setLength(0);
        assertThat(run("bench", "--repeat=-3", "--dir", scratchParent.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--repeat must be at least 1, was -3");
        assertThat(scratchParent).isEmptyDirectory();
    }

    @Test
    void aRepeatThatIsNotANumberIsRefused() {
        int exit = run("bench", "--repeat", "three", "--dir", scratchParent.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--repeat", "'three' is not an int");
    }

    @Test
    void databasesAloneMeansTheTenantsScenario() {
        assertThat(parse("bench").scenarios()).containsExactly(Scenario.WRITE);
        BenchOptions tenants = parse("bench", "--databases", "5");
        assertThat(tenants.scenarios()).containsExactly(Scenario.TENANTS);
        assertThat(tenants.databases()).isEqualTo(5);
        assertThat(parse("bench", "--scenario", "read", "--databases", "5").scenarios())
                .containsExactly(Scenario.READ);
        assertThat(parse("bench", "--scenario", "rtw,write,rtw").scenarios())
                .containsExactly(Scenario.RTW, Scenario.WRITE);
    }

    @Test
    void eachScenarioHasItsOwnDefaultsUnlessTheFlagsSayOtherwise() {
        BenchOptions defaults = parse("bench");
        assertThat(defaults.threadsFor(Scenario.WRITE)).isEqualTo(64);
        assertThat(defaults.threadsFor(Scenario.READ)).isEqualTo(8);
        assertThat(defaults.threadsFor(Scenario.RTW)).isEqualTo(16);
        assertThat(defaults.synchronousFor(Scenario.WRITE))
                .containsExactly(dev.lanes.Synchronous.NORMAL, dev.lanes.Synchronous.FULL);
        assertThat(defaults.synchronousFor(Scenario.READ))
                .containsExactly(dev.lanes.Synchronous.NORMAL);
        assertThat(defaults.databases()).isEqualTo(BenchOptions.DEFAULT_DATABASES);

        BenchOptions chosen = parse("bench", "--threads", "3", "--synchronous", "full");
        assertThat(chosen.threadsFor(Scenario.RTW)).isEqualTo(3);
        assertThat(chosen.synchronousFor(Scenario.READ)).containsExactly(dev.lanes.Synchronous.FULL);
    }

    @Test
    void writersListTheWriteScenariosWriterCounts(@TempDir Path dir) {
        BenchOptions usual = parse("bench");
        assertThat(usual.writers()).isNull();
        WriteScenario write = new WriteScenario(usual, dir);
        assertThat(write.pooledWriters()).containsExactly(64);
        assertThat(write.loneWriter()).isTrue();
        assertThat(write.cLoopWriters()).isEqualTo(64);

        BenchOptions tail = parse("bench", "--writers", "1,16,64,1024,16", "--synchronous",
                "normal,full");
        assertThat(tail.writers()).containsExactly(1, 16, 64, 1024);
        write = new WriteScenario(tail, dir);
        assertThat(write.pooledWriters()).containsExactly(16, 64, 1024);
        assertThat(write.loneWriter()).isTrue();
        assertThat(write.cLoopWriters()).isEqualTo(64);
        assertThat(write.plannedComparisons()).isEqualTo(2 * (3 + 1 + (C_LOOP ? 1 : 0)));
        assertThat(write.description()).startsWith("16, 64, 1024 writers vs HikariCP (8"
                + " connections), 1 writer vs raw JDBC; synchronous NORMAL, FULL");

        write = new WriteScenario(parse("bench", "--writers", "1024,16"), dir);
        assertThat(write.pooledWriters()).containsExactly(16, 1024);
        assertThat(write.loneWriter()).isFalse();
        assertThat(write.cLoopWriters()).isEqualTo(1024);
    }

    @Test
    void writersBelowOneAreRefused() {
        assertThat(run("bench", "--writers", "16,0", "--dir", scratchParent.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--writers must all be at least 1, was [16, 0]");
    }

    @Test
    // a guard against a hung writer, not a speed assertion: up to 6 runs of 200 ms
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theWriteScenarioRunsAtEveryWriterCountAndTheMarkdownShowsTheirTails() throws Exception {
        Path json = output.resolve("writers.json");
        Path markdown = output.resolve("writers.md");

        int exit = run("bench", "--writers", "3,1", "--duration", "150ms", "--warmup", "50ms",
                "--synchronous", "normal", "--dir", scratchParent.toString(), "--json",
                json.toString(), "--markdown", markdown.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        List<String> systems = new ArrayList<>();
        for (JsonNode run : new ObjectMapper().readTree(json.toFile()).get("runs")) {
            systems.add(run.get("system").asText() + "/" + run.get("threads").asInt());
            assertWroteAndAllAreThere(run);
        }
        assertThat(systems).containsExactlyElementsOf(withCLoop(
                List.of("lanes/3", "hikari/3", "lanes/1", "raw/1"),
                "lanes/3", SqliteCLoop.SYSTEM + "/1"));
        assertThat(Files.readString(markdown)).contains("| p99.9 |", "| NORMAL | 1 | lanes | ",
                "| NORMAL | 1 | raw | ", "| NORMAL | 3 | lanes | ", "| NORMAL | 3 | hikari | ");
    }

    @Test
    void zeroDatabasesAreRefused() {
        int exit = run("bench", "--databases", "0", "--dir", scratchParent.toString());
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--databases must be at least 1, was 0");
    }

    @Test
    void aBadFlagIsRefusedBeforeAnythingRuns() {
        int exit = run("bench", "--threads", "0", "--dir", scratchParent.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--threads must be at least 1, was 0");
    }

    @Test
    void anUnknownScenarioIsRefused() {
        int exit = run("bench", "--scenario", "write,bogus", "--dir", scratchParent.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("bogus");
    }

    @Test
    // a guard against a hung runtime, not a speed assertion: 3 s of load on 50 databases
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aShortSoakSamplesEverythingChecksTheDataAndExitsByItsVerdict() throws Exception {
        Path json = output.resolve("soak.json");
        Path html = output.resolve("soak.html");

        int exit = run("bench", "--scenario", "soak", "--databases", "50", "--duration", "3s",
                "--sample-interval", "1s", "--dir", scratchParent.toString(),
                "--json", json.toString(), "--report", html.toString());

        JsonNode soak = new ObjectMapper().readTree(json.toFile()).get("soaks").get(0);
        JsonNode verdict = soak.get("verdict");
        // three seconds are too short for the slopes to mean much; the exit code must follow
        // the verdict whatever it is
        assertThat(exit).as(out.toString() + err)
                .isEqualTo(verdict.get("passed").asBoolean() ? 0 : BenchCommand.SOAK_FAILED);
        JsonNode setup = soak.get("setup");
        assertThat(setup.get("databases").asInt()).isEqualTo(50);
        assertThat(setup.get("connectionBudget").asInt()).isEqualTo(SoakScenario.MIN_BUDGET);
        assertThat(setup.get("externalDatabases").asInt()).isEqualTo(1);
        assertThat(setup.get("dedicatedDatabases").asInt()).isEqualTo(13);
        JsonNode samples = soak.get("samples");
        assertThat(samples).hasSize(4);
        for (int i = 0; i < samples.size(); i++) {
            JsonNode s = samples.get(i);
            // sample i is due i intervals after the start (later when a sample ran long)
            assertThat(s.get("elapsedSeconds").asDouble()).isGreaterThanOrEqualTo(i - 0.01);
            if (i > 0) {
                assertThat(s.get("elapsedSeconds").asDouble())
                        .isGreaterThan(samples.get(i - 1).get("elapsedSeconds").asDouble());
            }
            assertThat(s.get("heapAfterGcBytes").asLong()).isPositive();
            assertThat(s.get("openFiles").asLong()).isPositive();
            assertThat(s.get("threads").asInt()).isGreaterThan(8);
            assertThat(s.get("mostConnections").asInt())
                    .isGreaterThanOrEqualTo(s.get("openConnections").asInt())
                    .isLessThanOrEqualTo(setup.get("connectionLimit").asInt());
            if (i > 0) {
                assertThat(s.get("requests").asLong()).as("window %d", i).isPositive();
                // nothing but the deliberate failures may fail
                assertThat(s.get("errors").size()).as("errors in window %d: %s", i, s).isZero();
            }
        }
        assertThat(soak.get("deliberateFailures").asLong()).isPositive();
        assertThat(soak.get("external").get("completed").asLong()).isPositive();
        assertThat(soak.get("external").get("failures").asLong()).isZero();
        // the checks that do not depend on the run's length hold
        for (JsonNode check : verdict.get("checks")) {
            assertThat(check.get("passed").asBoolean()).as("%s", check).isTrue();
        }
        assertThat(verdict.get("growth")).hasSize(SoakSeries.values().length);

        String text = out.toString();
        assertThat(text).contains("lanes bench: soak; soak 3s, a sample every 1s",
                "soak: 50 databases in one runtime, 8 clients, for 3s",
                "fails when a slope over the second half of the samples is above: heap after GC",
                "  time  requests/s  heap MiB", "counters, all databases", "wrote " + json,
                "wrote " + html);
        assertThat(text).containsPattern("growth from 0:0\\d to 0:0\\d \\(least-squares slope, 2"
                + " samples\\):").containsPattern("soak NORMAL: (passed|FAILED)");
        assertThat(err.toString()).contains("[1/1] soak: lanes, 50 databases, 8 clients, NORMAL"
                + " (3s)", "soak: creating 50 databases", "soak: checking the data");
        assertThat(SvgStructure.parse(Files.readString(html)).chartsOfClass("soak-chart"))
                .hasSize(SoakSeries.values().length);
        assertScratchIsGone();
    }

    @Test
    void repeatDoesNotApplyToASoakAndIsRefused() {
        int exit = run("bench", "--scenario", "soak", "--repeat", "3",
                "--dir", scratchParent.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--repeat does not apply to the soak scenario: a soak"
                + " runs once and judges its own samples over time; drop --repeat 3", "Usage:");
        assertThat(scratchParent).isEmptyDirectory();
    }

    @Test
    void aSoakTooShortForItsFitIsRefused() {
        int exit = run("bench", "--scenario", "soak", "--duration", "20s",
                "--dir", scratchParent.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--duration of a soak must cover at least 3 sample"
                + " intervals of 10s (30s), was 20s");
    }

    @Test
    void aSoakRunsTenMinutesUnlessToldAndTheOthersStillFiveSeconds() {
        BenchOptions soak = parse("bench", "--scenario", "write,soak");
        assertThat(soak.durationFor(Scenario.SOAK)).isEqualTo(Duration.ofMinutes(10));
        assertThat(soak.durationFor(Scenario.WRITE)).isEqualTo(Duration.ofSeconds(5));
        assertThat(soak.warmupFor(Scenario.SOAK)).isZero();
        assertThat(soak.warmupFor(Scenario.WRITE)).isEqualTo(Duration.ofSeconds(5));
        assertThat(soak.sampleInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(soak.threadsFor(Scenario.SOAK)).isEqualTo(8);
        assertThat(soak.databases()).isEqualTo(1000);

        BenchOptions given = parse("bench", "--scenario", "write,soak", "--duration", "2m");
        assertThat(given.durationFor(Scenario.SOAK)).isEqualTo(Duration.ofMinutes(2));
        assertThat(given.durationFor(Scenario.WRITE)).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void theSoakIsNotInTheDefaultSet() {
        assertThat(parse("bench").scenarios()).containsExactly(Scenario.WRITE);
        assertThat(parse("bench", "--databases", "10").scenarios())
                .containsExactly(Scenario.TENANTS);
        assertThat(parse("bench", "--scenario", "soak", "--databases", "10").databases())
                .isEqualTo(10);
    }

    @Test
    void theHelpDescribesTheSoakButNotTheTestsSampleInterval() {
        run("bench", "--help");

        assertThat(out.toString()).contains("soak     --databases databases in one runtime",
                "exits 1 when one grows without bound", "--repeat and --warmup do not apply")
                .doesNotContain("--sample-interval");
    }

    @Test
    void everyScenarioBuildsItsRunsFromTheDefaultDurations(@TempDir Path dir) {
        // without --duration each scenario measures for its own default; jdbc and dqlite once
        // read the flag itself, null, and every run of theirs failed at its start barrier
        for (Scenario scenario : Scenario.values()) {
            BenchOptions options = parse("bench", "--scenario", scenario.name().toLowerCase());
            int planned = new BenchSuite(options, dir).plannedRuns();
            if (scenario == Scenario.VT && VirtualThreads.factory() == null) {
                // skipped, with a message, where the JVM has no virtual threads
                assertThat(planned).as("%s", scenario).isZero();
            } else {
                assertThat(planned).as("%s", scenario).isPositive();
            }
        }
    }

    @Test
    void benchJoinsTheLanesCommandBesideInspect() {
        assertThat(LanesCommand.commandLine().getSubcommands().keySet())
                .contains("bench", "inspect");
    }

    @Test
    void aWrongFlagValuePrintsTheErrorAndOneLineOfUsageNotTheHelp() {
        assertThat(run("bench", "--threads", "many", "--dir", scratchParent.toString()))
                .isEqualTo(2);

        String[] lines = err.toString().strip().split("\\R");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("lanes bench: ").contains("--threads", "many");
        assertThat(lines[1]).isEqualTo(
                "Usage: lanes bench [OPTIONS] (lanes bench --help lists everything)");
        assertThat(scratchParent).isEmptyDirectory();
    }

    @Test
    void theDurationHelpSaysThatEachRunAlsoWarmsUp() {
        run("bench", "--help");

        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("Each run also warms up for --warmup first");
    }

    @Test
    void markdownNamesTheFileTheResultsGoTo() {
        assertThat(parse("bench", "--markdown", "docs/benchmarks.md").markdown())
                .isEqualTo(Path.of("docs/benchmarks.md"));
        assertThat(parse("bench").markdown()).isNull();
    }

    private static BenchOptions parse(String... args) {
        CommandLine line = LanesCommand.commandLine();
        line.parseArgs(args);
        BenchCommand bench = line.getSubcommands().get("bench").getCommand();
        return bench.options();
    }

    private void assertScratchIsGone() throws Exception {
        // the scratch directory and its database files are gone
        try (Stream<Path> left = Files.list(scratchParent)) {
            assertThat(left).isEmpty();
        }
    }

    /**
     * A write run acknowledged writes, and every acknowledged insert is in the table and nothing
     * else is. Counted from the warm-up on, not in the measured window: a checkpoint's fsync on a
     * slow disk can stall a lone raw writer for all of a short window, and its comparison then
     * has no ratio for that pair rather than a wrong one.
     */
    private static void assertWroteAndAllAreThere(JsonNode run) {
        JsonNode consistency = run.get("consistency");
        assertThat(consistency.get("holds").asBoolean()).as("%s", run).isTrue();
        long acknowledged = consistency.get("acknowledged").asLong();
        assertThat(acknowledged).as("writes of %s", run).isPositive();
        assertThat(run.get("operations").asLong()).as("writes of %s", run)
                .isBetween(0L, acknowledged);
    }

    /**
     * A run that acknowledged writes in its window has its process CPU time per write: positive
     * and finite, and with the utilisation it came from, a share of the machine; a run without
     * writes in the window has none, rather than 0 or infinity. Where the JVM cannot tell its CPU
     * time, no run has either figure.
     */
    private static void assertCpuPerWrite(JsonNode run) {
        if (ProcessCpu.nanos() == ProcessCpu.UNAVAILABLE) {
            assertThat(run.has("cpuMicrosPerOperation") || run.has("cpuUtilisation"))
                    .as("%s", run).isFalse();
            return;
        }
        double utilisation = run.get("cpuUtilisation").asDouble();
        // sampled a request's length off the window's ends: a little above 1 is possible
        assertThat(utilisation).as("%s", run).isPositive().isLessThan(1.5);
        if (run.get("operations").asLong() > 0) {
            double cpu = run.get("cpuMicrosPerOperation").asDouble();
            assertThat(cpu).as("%s", run).isPositive().isFinite();
            // no more CPU than all processors over the window, shared by its writes
            double window = run.get("seconds").asDouble();
            assertThat(cpu).as("%s", run).isLessThan(1.5 * window * 1e6
                    * Runtime.getRuntime().availableProcessors() / run.get("operations").asLong());
        } else {
            assertThat(run.has("cpuMicrosPerOperation")).as("%s", run).isFalse();
        }
    }

    private int run(String... args) {
        CommandLine line = LanesCommand.commandLine();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }
}
