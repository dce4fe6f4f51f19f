package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import dev.lanes.dqlite.DqliteCluster;
import dev.lanes.dqlite.testing.LocalCluster;
import java.nio.file.Path;

/**
 * The dqlite scenario: a 3-node dqlite cluster on 127.0.0.1, started for the scenario ({@link
 * LocalCluster}, under the scratch directory), and {@code threads} writers inserting single rows
 * of about 100 bytes as fast as they are acknowledged, through Lanes' writer lane ({@code
 * Lanes.openCluster}) and through the client with one commit per write on pooled sessions. Each
 * run writes a fresh database of the cluster and checks its rows against the acknowledged
 * inserts. When libdqlite is missing and cannot be installed, the scenario says so and makes no
 * run.
 */
final class DqliteScenario implements ScenarioBench {
    private final BenchOptions options;
    private final Path directory;
    private final WorkloadRunner runner;
    /** Why there is no cluster; null once the node program was built. Bench thread only. */
    private String unavailable;
    private boolean checked;

    DqliteScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory.resolve("dqlite");
        this.runner = new WorkloadRunner(options.warmup(), options.durationFor(Scenario.DQLITE));
    }

    @Override
    public Scenario scenario() {
        return Scenario.DQLITE;
    }

    @Override
    public String description() {
        int writers = options.threadsFor(Scenario.DQLITE);
        return writers + " writer" + (writers == 1 ? "" : "s") + " on a 3-node dqlite cluster: "
                + "Lanes' lane vs one commit per write through the client ("
                + DqliteClientSystem.POOL_SIZE + " pooled sessions)";
    }

    /** Builds the node program now (installing libdqlite when it may), to know if runs happen. */
    @Override
    public int plannedComparisons() {
        return available() ? 1 : 0;
    }

    private boolean available() {
        if (!checked) {
            checked = true;
            try {
                LocalCluster.nodeProgram(directory);
            } catch (LocalCluster.Unavailable e) {
                unavailable = e.getMessage();
            }
        }
        return unavailable == null;
    }

    @Override
    public void run(Sink sink) throws Exception {
        if (!available()) {
            sink.status("dqlite: skipped: " + unavailable);
            return;
        }
        int writers = options.threadsFor(Scenario.DQLITE);
        sink.status("dqlite: starting a 3-node cluster on 127.0.0.1");
        try (LocalCluster cluster = LocalCluster.start(3, directory)) {
            DqliteCluster engine = cluster.client();
            sink.compare(
                    rep -> measure(sink, "lanes", writers, rep,
                            name -> LanesSystem.openCluster(engine, name, writers)),
                    rep -> measure(sink, "client", writers, rep,
                            name -> DqliteClientSystem.open(engine, name)));
        }
    }

    /** Opens a system on a fresh database of the cluster. */
    @FunctionalInterface
    private interface Opener {
        BenchSystem open(String database) throws Exception;
    }

    private RunResult measure(Sink sink, String system, int threads, int repetition,
            Opener opener) throws Exception {
        sink.runStarting("dqlite: " + system + ", " + threads + " thread"
                + (threads == 1 ? "" : "s"));
        try (BenchSystem opened = opener.open("bench-" + system + "-r" + repetition)) {
            Measurement m = runner.run("dqlite-" + system, thread -> {
                String payload = Payloads.of(thread);
                return () -> {
                    opened.insert(payload);
                    return "insert";
                };
            }, threads);
            Consistency rows = new Consistency("rows in bench", m.acknowledged(),
                    opened.countRows());
            return RunResult.of(Scenario.DQLITE, "", Synchronous.NORMAL, system, threads, m, rows);
        }
    }
}
