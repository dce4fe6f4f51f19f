package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonReportTest {
    @TempDir
    Path dir;

    @Test
    void everyRepetitionsRawFiguresAreThereNumberedInTheOrderTheyRan() throws Exception {
        JsonNode json = write(RepeatedFixtures.report());

        assertThat(json.get("settings").get("repeat").asInt()).isEqualTo(3);
        // write: 2 configurations, tenants: 1; 2 systems each; 3 repetitions
        assertThat(json.get("runs")).hasSize(18);
        List<String> firstSix = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            JsonNode run = json.get("runs").get(i);
            firstSix.add(run.get("system").asText() + " #" + run.get("repetition").asInt());
        }
        assertThat(firstSix).containsExactly(
                "lanes #1", "hikari #1", "lanes #2", "hikari #2", "lanes #3", "hikari #3");
        JsonNode secondHikari = json.get("runs").get(3);
        assertThat(secondHikari.get("operationsPerSecond").asDouble()).isEqualTo(40_000);
        assertThat(secondHikari.get("latency").get("p50Micros").asDouble()).isEqualTo(30);
        assertThat(secondHikari.get("consistency").get("holds").asBoolean()).isFalse();
    }

    @Test
    void eachRatioCarriesItsMedianMinMaxAndEveryPairsValue() throws Exception {
        JsonNode json = write(RepeatedFixtures.report());

        JsonNode hikari = json.get("comparisons").get(0);
        assertThat(hikari.get("baseline").asText()).isEqualTo("hikari");
        assertThat(hikari.get("repetitions").asInt()).isEqualTo(3);
        JsonNode throughput = hikari.get("throughput");
        assertThat(throughput.get("median").asDouble()).isEqualTo(2.0);
        assertThat(throughput.get("min").asDouble()).isEqualTo(2.0);
        assertThat(throughput.get("max").asDouble()).isEqualTo(3.25);
        assertThat(numbers(throughput.get("perRepetition"))).containsExactly(2.0, 3.25, 2.0);
        assertThat(hikari.get("p50").get("min").asDouble()).isEqualTo(0.5);
        assertThat(hikari.get("p99").get("max").asDouble()).isEqualTo(10.0);
        // the fields a single run always had are the medians
        assertThat(hikari.get("throughputRatio").asDouble()).isEqualTo(2.0);
        assertThat(hikari.get("p50Ratio").asDouble()).isEqualTo(1.0);
        assertThat(hikari.get("p99Ratio").asDouble())
                .isEqualTo(hikari.get("p99").get("median").asDouble());

        // a repetition without a ratio keeps its place, as null
        JsonNode raw = json.get("comparisons").get(1);
        JsonNode perRepetition = raw.get("throughput").get("perRepetition");
        assertThat(perRepetition).hasSize(3);
        assertThat(perRepetition.get(1).isNull()).isTrue();
        assertThat(raw.get("throughputRatio").asDouble()).isEqualTo(0.875);
    }

    @Test
    void theFieldsOfASingleRunAreStillThereUnderTheirNames() throws Exception {
        JsonNode json = write(ReportFixtures.sample());

        for (JsonNode run : json.get("runs")) {
            assertThat(run.has("scenario") && run.has("variant") && run.has("synchronous")
                    && run.has("system") && run.has("threads") && run.has("seconds")
                    && run.has("operations") && run.has("operationsPerSecond")
                    && run.get("latency").has("p99Micros") && run.has("errors"))
                    .as("%s", run).isTrue();
            assertThat(run.get("repetition").asInt()).isEqualTo(1);
        }
        JsonNode write = json.get("comparisons").get(0);
        assertThat(write.get("throughputRatio").asDouble()).isEqualTo(2.0);
        assertThat(write.get("p50Ratio").asDouble()).isEqualTo(0.5);
        assertThat(write.get("p99Ratio").isNumber()).isTrue();
        assertThat(write.get("repetitions").asInt()).isEqualTo(1);
        // as before, a ratio without a divisor is left out: rtw's baseline completed nothing
        JsonNode rtw = json.get("comparisons").get(6);
        assertThat(rtw.get("scenario").asText()).isEqualTo("rtw");
        assertThat(rtw.has("throughputRatio")).isFalse();
        assertThat(rtw.get("throughput").has("median")).isFalse();
        assertThat(json.get("settings").get("repeat").asInt()).isEqualTo(1);
    }

    @Test
    void everyRunCarriesItsCpuPerRequestAndEachComparisonTheirRatio() throws Exception {
        JsonNode json = write(ReportFixtures.sample());

        for (JsonNode run : json.get("runs")) {
            if (run.get("operations").asLong() > 0) {
                double cpu = run.get("cpuMicrosPerOperation").asDouble();
                assertThat(cpu).as("%s", run).isPositive().isFinite()
                        .isEqualTo(1e6 / run.get("operationsPerSecond").asDouble());
            } else {
                // nothing acknowledged: no figure, never a 0
                assertThat(run.has("cpuMicrosPerOperation")).as("%s", run).isFalse();
            }
            assertThat(run.get("cpuUtilisation").asDouble()).isBetween(0.0, 1.0);
        }
        JsonNode runs = json.get("runs");
        JsonNode write = json.get("comparisons").get(0);
        assertThat(write.get("cpuRatio").asDouble()).isEqualTo(
                runs.get(1).get("cpuMicrosPerOperation").asDouble()
                        / runs.get(0).get("cpuMicrosPerOperation").asDouble());
        assertThat(write.get("cpu").get("perRepetition")).hasSize(1);
        assertThat(json.get("comparisons").get(6).has("cpuRatio")).as("rtw").isFalse();
    }

    @Test
    void aSoakWritesItsSetupEverySampleAndItsVerdict() throws Exception {
        JsonNode soak = write(ReportFixtures.sample()).get("soaks").get(0);

        assertThat(soak.get("setup").get("connectionBudget").asInt()).isEqualTo(300);
        assertThat(soak.get("setup").get("synchronous").asText()).isEqualTo("NORMAL");
        assertThat(soak.get("samples")).hasSize(61);
        JsonNode second = soak.get("samples").get(1);
        assertThat(second.get("elapsedSeconds").asDouble()).isEqualTo(10);
        assertThat(second.get("requestsPerSecond").asDouble()).isEqualTo(2_500);
        assertThat(second.get("heapAfterGcBytes").asLong()).isPositive();
        assertThat(second.has("rssBytes") && second.has("openFiles") && second.has("threads")
                && second.has("openConnections") && second.has("mostConnections")
                && second.has("walBytes")).isTrue();
        JsonNode verdict = soak.get("verdict");
        assertThat(verdict.get("passed").asBoolean()).isTrue();
        assertThat(verdict.get("fitFromSeconds").asDouble()).isEqualTo(300);
        List<String> series = new ArrayList<>();
        for (JsonNode g : verdict.get("growth")) {
            series.add(g.get("series").asText());
            assertThat(g.get("thresholdPerMinute").asDouble()).isPositive();
            assertThat(g.get("slopePerMinute").isNumber()).isTrue();
        }
        assertThat(series).containsExactly("heapAfterGc", "rss", "openFiles", "threads",
                "walBytes");
        assertThat(verdict.get("checks").get(0).get("name").asText()).isEqualTo("connections");
        assertThat(soak.get("requests").asLong()).isEqualTo(1_500_000);
        assertThat(soak.get("external").get("completed").asLong()).isEqualTo(480);
    }

    @Test
    void aBenchWithoutASoakWritesNoSoaks() throws Exception {
        assertThat(write(RepeatedFixtures.report()).has("soaks")).isFalse();
    }

    private JsonNode write(BenchReport report) throws Exception {
        Path file = dir.resolve("nested/bench.json");
        JsonReport.write(report, file);
        return new ObjectMapper().readTree(file.toFile());
    }

    private static List<Double> numbers(JsonNode array) {
        List<Double> values = new ArrayList<>();
        array.forEach(n -> values.add(n.asDouble()));
        return values;
    }
}
