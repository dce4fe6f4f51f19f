package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.cli.LanesCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @TempDir
    Path output;

    @Test
    // a guard against a hung writer, not a speed assertion: the runs take about 1.6 s in all
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void benchMeasuresLanesAndEveryBaselineAndWritesThemAsJson() throws Exception {
        Path json = output.resolve("bench.json");
        StringWriter text = new StringWriter();

        int exit = run(text, "bench", "--threads", "4", "--duration", "300ms", "--warmup", "100ms",
                "--synchronous", "normal", "--dir", scratchParent.toString(), "--json", json.toString());

        assertThat(exit).as(text.toString()).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> systems = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            systems.add(run.get("system").asText() + "/" + run.get("threads").asInt());
            assertThat(run.get("synchronous").asText()).isEqualTo("NORMAL");
            assertThat(run.get("writes").asLong()).as("writes of %s", run).isPositive();
            assertThat(run.get("writesPerSecond").asDouble()).isPositive();
            assertThat(run.get("p99Micros").asDouble())
                    .isGreaterThanOrEqualTo(run.get("p50Micros").asDouble());
            // every acknowledged insert is in the table, and nothing else is
            assertThat(run.get("rows").asLong()).isEqualTo(run.get("acknowledged").asLong());
        }
        assertThat(systems).containsExactly("lanes/4", "hikari/4", "lanes/1", "raw/1");
        assertThat(report.get("comparisons")).hasSize(2);
        assertThat(report.get("comparisons").get(0).get("baseline").asText()).isEqualTo("hikari");
        assertThat(report.get("comparisons").get(0).get("throughputRatio").asDouble()).isPositive();
        assertThat(text.toString()).contains("ratios", "hikari", "raw");
        // the scratch directory and its database files are gone
        try (Stream<Path> left = Files.list(scratchParent)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aBadFlagIsRefusedBeforeAnythingRuns() {
        StringWriter text = new StringWriter();

        int exit = run(text, "bench", "--threads", "0", "--dir", scratchParent.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(text.toString()).contains("--threads must be at least 1, was 0");
    }

    private static int run(StringWriter text, String... args) {
        PrintWriter writer = new PrintWriter(text, true);
        CommandLine line = LanesCommand.commandLine();
        line.setOut(writer);
        line.setErr(writer);
        return line.execute(args);
    }
}
