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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code lanes bench --scenario jdbc}: the same JDBC code runs on db.dataSource() and on each
 * baseline, every run's table is checked, and Lanes' transactions never fail.
 */
class JdbcScenarioTest {
    @TempDir Path scratch;
    @TempDir Path output;

    @Test
    // a guard against a hang, not a speed assertion: 14 runs of 150 ms and a 100,000-row fill
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void runsEveryPartOnBothSidesAndChecksWhatWasAcknowledged() throws Exception {
        Path json = output.resolve("jdbc.json");
        Path markdown = output.resolve("jdbc.md");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = LanesCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("bench", "--scenario", "jdbc", "--threads", "2", "--duration",
                "150ms", "--warmup", "100ms", "--synchronous", "normal", "--dir",
                scratch.toString(), "--json", json.toString(), "--markdown",
                markdown.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> runs = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            String system = run.get("system").asText();
            String variant = run.get("variant").asText();
            runs.add(variant + ":" + system + "/" + run.get("threads").asInt());
            assertThat(run.get("scenario").asText()).isEqualTo("jdbc");
            if (run.has("consistency")) {
                // the jpa parts' baseline can report a unit failed that committed (sqlite-jdbc
                // under Hibernate at COMMIT): the bench reports that, it is not the bench's fault
                if (system.equals("lanes") || !variant.startsWith(JpaWorkload.VARIANT)) {
                    assertThat(run.get("consistency").get("holds").asBoolean()).as("%s", run)
                            .isTrue();
                }
                // counted from the warm-up on: a first Spring transaction loads its classes,
                // which on a busy machine can take the whole short window
                assertThat(run.get("consistency").get("acknowledged").asLong()).as("%s", run)
                        .isPositive();
            } else {
                assertThat(run.get("operations").asLong()).as("%s", run).isPositive();
            }
            if (system.equals("lanes") || variant.equals("read")) {
                assertThat(run.get("errors").size()).as("%s", run).isZero();
            }
            if (variant.equals(JpaWorkload.MIX_VARIANT)) {
                assertMix(run, system);
            } else {
                assertThat(run.has("readerWait")).as("%s", run).isFalse();
            }
        }
        assertThat(runs).containsExactly("insert:lanes/2", "insert:hikari/2", "tx:lanes/2",
                "tx:hikari/2", "tx:lanes/2", "tx:hikari-imm/2", "tx:lanes/1", "tx:raw/1",
                "jpa:lanes/2", "jpa:hikari-imm/2", "jpa-mix:lanes/2", "jpa-mix:hikari-imm/2",
                "read:lanes/2", "read:raw/2");
        assertThat(report.get("comparisons")).hasSize(7);
        assertThat(out.toString()).contains("jdbc: the same JDBC code on db.dataSource()",
                "insert", "ratios", "jpa-mix", "  reader wait p50 ");
        assertThat(Files.readString(markdown)).contains("wait for a reader connection",
                "| jdbc | 2 threads, NORMAL, jpa-mix | ");
    }

    /**
     * The mix ran both kinds of unit on both sides, and Lanes' read-only transactions went to its
     * readers: their waits for one are reported (a read-only transaction on the writer would
     * check out no reader).
     */
    private static void assertMix(JsonNode run, String system) {
        JsonNode byKind = run.get("latencyByKind");
        assertThat(byKind.get(JpaWorkload.READ_ONLY_KIND).get("count").asLong()).as("%s", run)
                .isPositive();
        assertThat(byKind.get(JpaWorkload.WRITE_KIND).get("count").asLong()).as("%s", run)
                .isPositive();
        if (system.equals("lanes")) {
            JsonNode wait = run.get("readerWait");
            assertThat(wait.get("count").asLong()).as("%s", run).isPositive();
            assertThat(wait.get("p99Micros").asDouble()).as("%s", run)
                    .isGreaterThanOrEqualTo(wait.get("p50Micros").asDouble());
            assertThat(wait.get("maxMicros").asDouble()).as("%s", run)
                    .isGreaterThanOrEqualTo(wait.get("p99Micros").asDouble());
        } else {
            assertThat(run.has("readerWait")).as("%s", run).isFalse();
        }
    }
}
