package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.cli.LanesCommand;
import dev.lanes.dqlite.testing.LocalCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code lanes bench --scenario dqlite} on a real 3-node cluster: both systems run, every
 * acknowledged insert is on the cluster and nothing else, Lanes' lane has no error, and the
 * client baseline's BUSY refusals are counted by kind. Skipped without libdqlite.
 */
@Tag("slow")
class DqliteScenarioTest {
    @TempDir
    Path scratchParent;

    @TempDir
    Path output;

    @Test
    // a guard against a hang, not a speed assertion: a cluster start and two runs of 400 ms
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void lanesAndTheClientBaselineWriteTheClusterAndTheTableHoldsWhatWasAcknowledged()
            throws Exception {
        try {
            LocalCluster.nodeProgram(scratchParent.resolve("probe"));
        } catch (LocalCluster.Unavailable e) {
            abort("dqlite scenario test skipped: " + e.getMessage());
        }
        Path json = output.resolve("dqlite.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = LanesCommand.commandLine();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));

        int exit = line.execute("bench", "--scenario", "dqlite", "--threads", "16", "--duration",
                "400ms", "--warmup", "100ms", "--dir", scratchParent.toString(), "--json",
                json.toString());

        assertThat(exit).as(out.toString() + err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> systems = new ArrayList<>();
        for (JsonNode run : report.get("runs")) {
            systems.add(run.get("system").asText());
            assertThat(run.get("scenario").asText()).isEqualTo("dqlite");
            assertThat(run.get("operations").asLong()).as("writes of %s", run).isPositive();
            assertThat(run.get("consistency").get("holds").asBoolean()).as("%s", run).isTrue();
            if (run.get("system").asText().equals("lanes")) {
                assertThat(run.get("errors").size()).as("%s", run).isZero();
            } else {
                // 16 writers on 8 sessions: the leader refuses the ones that collide
                run.get("errors").fieldNames().forEachRemaining(kind ->
                        assertThat(kind).isEqualTo("DqliteBusyException"));
            }
        }
        assertThat(systems).containsExactly("lanes", "client");
        assertThat(report.get("comparisons")).hasSize(1);
        assertThat(out.toString()).contains("dqlite: 16 writers on a 3-node dqlite cluster");
    }
}
