package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code lanes bench --scenario vt}: on a JVM with virtual threads, a tiny run of every shape
 * against HikariCP, each run checked against the database and its pinned virtual threads counted;
 * on one without, a message saying to run it on JDK 21 or later, and nothing run.
 */
class VirtualThreadScenarioTest {
    @TempDir
    Path scratchParent;
    @TempDir
    Path output;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void withoutVirtualThreadsTheScenarioSaysToRunOnJdk21AndRunsNothing() throws Exception {
        assumeTrue(VirtualThreads.factory() == null, "this JVM has virtual threads");
        Path json = output.resolve("vt.json");

        int exit = run("bench", "--scenario", "vt", "--duration", "100ms", "--warmup", "0ms",
                "--dir", scratchParent.toString(), "--json", json.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        assertThat(out.toString()).contains("vt: skipped: this JVM (Java "
                + System.getProperty("java.version") + ") has no virtual threads; run on JDK 21 or"
                + " later, e.g. JAVA_HOME=/path/to/jdk-21 ./lanes bench --scenario vt");
        assertThat(new ObjectMapper().readTree(json.toFile()).get("runs")).isEmpty();
    }

    @Test
    // a guard against a hung client, not a speed assertion: 6 runs of 250 ms
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void everyShapeRunsOnVirtualThreadsAgainstHikariAndCountsPinnedThreads() throws Exception {
        assumeTrue(VirtualThreads.factory() != null, "no virtual threads before JDK 21");
        Path json = output.resolve("vt.json");
        Path markdown = output.resolve("vt.md");
        Path html = output.resolve("vt.html");

        int exit = run("bench", "--scenario", "vt", "--threads", "3", "--duration", "200ms",
                "--warmup", "50ms", "--dir", scratchParent.toString(), "--json", json.toString(),
                "--markdown", markdown.toString(), "--report", html.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> runs = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            String system = run.get("system").asText();
            runs.add(system + "/" + run.get("threads").asInt() + "/" + run.get("variant").asText());
            assertThat(run.get("consistency").get("holds").asBoolean()).as("%s", run).isTrue();
            assertThat(run.get("virtualThreadPinned").asLong()).as("%s", run)
                    .isGreaterThanOrEqualTo(0);
            assertThat(run.get("served").asInt()).as("%s", run).isBetween(0, 3);
            if (system.equals("lanes")) {
                // clients park on Lanes' queue and futures, never while pinned; 3 clients
                // never fill its queue
                assertThat(run.get("virtualThreadPinned").asLong()).as("%s", run).isZero();
                assertThat(run.get("errors").size()).as("%s", run).isZero();
                assertThat(run.get("consistency").get("acknowledged").asLong()).isPositive();
            }
        }
        assertThat(runs).containsExactly("lanes/3/jdbc", "hikari/3/jdbc", "lanes/3/execute",
                "hikari/3/execute", "lanes/3/rtw", "hikari/3/rtw");
        assertThat(report.get("comparisons")).hasSize(3);
        assertThat(out.toString()).contains("3 virtual-thread clients", "pinned", "served",
                "Lanes' default write queue (256 writes, waiting up to 5s for room)");
        assertThat(Files.readString(markdown)).contains("jdk.VirtualThreadPinned events"
                + " (threshold 0 ms, outside class loading)", "| 3 threads, NORMAL, jdbc | 0; ");
        assertThat(Files.readString(html)).contains("<th>pinned</th><th>served</th>");
        try (var left = Files.list(scratchParent)) {
            assertThat(left).as("the scratch directory, its databases and recordings").isEmpty();
        }
    }

    private int run(String... args) {
        CommandLine line = LanesCommand.commandLine();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }
}
