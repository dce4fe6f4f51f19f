package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.cli.LanesCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
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
    // a guard against a hang, not a speed assertion: 12 runs of 150 ms and a 100,000-row fill
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void runsEveryPartOnBothSidesAndChecksWhatWasAcknowledged() throws Exception {
        Path json = output.resolve("jdbc.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = LanesCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("bench", "--scenario", "jdbc", "--threads", "2", "--duration",
                "150ms", "--warmup", "100ms", "--synchronous", "normal", "--dir",
                scratch.toString(), "--json", json.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> runs = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            String system = run.get("system").asText();
            String variant = run.get("variant").asText();
            runs.add(variant + ":" + system + "/" + run.get("threads").asInt());
            assertThat(run.get("scenario").asText()).isEqualTo("jdbc");
            if (run.has("consistency")) {
                // the jpa part's baseline can report a unit failed that committed (sqlite-jdbc
                // under Hibernate at COMMIT): the bench reports that, it is not the bench's fault
                if (system.equals("lanes") || !variant.equals(JpaWorkload.VARIANT)) {
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
        }
        assertThat(runs).containsExactly("insert:lanes/2", "insert:hikari/2", "tx:lanes/2",
                "tx:hikari/2", "tx:lanes/2", "tx:hikari-imm/2", "tx:lanes/1", "tx:raw/1",
                "jpa:lanes/2", "jpa:hikari-imm/2", "read:lanes/2", "read:raw/2");
        assertThat(report.get("comparisons")).hasSize(6);
        assertThat(out.toString()).contains("jdbc: the same JDBC code on db.dataSource()",
                "insert", "ratios");
    }
}
