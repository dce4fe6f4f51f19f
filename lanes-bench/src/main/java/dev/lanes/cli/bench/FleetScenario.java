package dev.lanes.cli.bench;

import dev.lanes.fleet.Durability;
import dev.lanes.fleet.testing.ChaosReport;
import dev.lanes.fleet.testing.FleetBench;
import dev.lanes.fleet.testing.Tools;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code --scenario fleet}: the chaos run of lanes-fleet ({@link FleetBench}) at LOCAL and
 * REPLICATED durability, printed as its own table. It compares nothing: its figures are failover
 * and move times, not a ratio. {@code --databases} sets the tenants (default 1,000), {@code
 * --threads} the writers (default 32), {@code --duration} each phase between events.
 */
final class FleetScenario implements ScenarioBench {
    private final BenchOptions options;
    private final Path directory;

    FleetScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
    }

    @Override
    public Scenario scenario() {
        return Scenario.FLEET;
    }

    @Override
    public String description() {
        return options.databases() + " tenants, " + options.threadsFor(Scenario.FLEET)
                + " writers, 3 node processes on etcd, s3proxy and Litestream: kill -9, SIGSTOP,"
                + " etcd leader killed, node added, rolling restart";
    }

    @Override
    public int plannedComparisons() {
        return 0;
    }

    /** One run per durability level, counted like a soak's: a run that compares nothing. */
    @Override
    public int plannedSoaks() {
        return Durability.values().length;
    }

    @Override
    public void run(Sink sink) throws Exception {
        Duration phase = options.durationFor(Scenario.FLEET);
        FleetBench.Options o = new FleetBench.Options(options.databases(),
                options.threadsFor(Scenario.FLEET), phase, 2, 100, 16);
        for (Durability d : Durability.values()) {
            sink.runStarting("fleet " + d);
            try {
                ChaosReport report = FleetBench.run(directory.resolve("fleet"), o, d,
                        line -> sink.status("fleet: " + line));
                System.out.println(report.summary());
            } catch (Tools.Unavailable e) {
                sink.status("fleet: skipped: " + e.getMessage());
                return;
            }
        }
    }
}
