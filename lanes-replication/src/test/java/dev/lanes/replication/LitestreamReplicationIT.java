package dev.lanes.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a Lanes database in {@link CheckpointMode#EXTERNAL} mode, replicated by {@code
 * litestream replicate} to a file replica while it takes ~20 s of sustained writes and concurrent
 * reads, then restored elsewhere with {@code litestream restore}.
 *
 * <p>"The last replica sync" is defined by the source: once the writers have stopped (every
 * write acknowledged or failed, none in flight), the test reads the source's state (row count and
 * id sum) through Lanes, then restores from the replica until a restore shows that same state
 * (bounded: Litestream copies the WAL every second). That restore must hold every acknowledged
 * request whole, pass {@code integrity_check}, and open with Lanes. Lanes must have run no
 * checkpoint; Litestream's debug log must show its own, and the source WAL must have started
 * over at least once (a shadow-WAL index above 0).
 */
@Timeout(value = 150, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LitestreamReplicationIT {
    static final Duration WRITE_FOR = Duration.ofSeconds(20);
    static final int WRITERS = 8;
    static final int READERS = 2;
    /** Requests per second, all writers together: sustained, at a rate Litestream keeps up with. */
    static final int RATE = 2000;

    @TempDir Path dir;

    @Test
    void restoreHoldsEveryAcknowledgedWriteAndOnlyLitestreamCheckpointed() throws Exception {
        Litestream litestream = Litestream.installed();
        Path source = dir.resolve("app.db");
        Path config = Litestream.Config.defaults(source, dir.resolve("replica"))
                .write(dir.resolve("litestream.yml"));

        Workload workload;
        Requests.State expected;
        Path restored;
        DatabaseDiagnostics diagnostics;
        List<Litestream.Checkpoint> checkpoints;
        long shadowWalIndex;
        try (Lanes lanes = Lanes.builder().name("replication").maxThreads(8).build()) {
            Database db = lanes.open(source,
                    DatabaseOptions.builder().checkpointMode(CheckpointMode.EXTERNAL).build());
            db.execute(Requests.SCHEMA);
            try (Litestream.Replicator replicator =
                    litestream.replicate(config, dir.resolve("e2e-litestream.log"))) {
                // the replica holds its generation's first snapshot: replication is under way
                replicator.awaitLog("snapshot written", Duration.ofSeconds(30));

                workload = new Workload(db, WRITERS, READERS, RATE);
                long started = System.nanoTime();
                workload.start();
                try {
                    // the run's length, not an ordering: meanwhile watch that Litestream lives
                    while (System.nanoTime() - started < WRITE_FOR.toNanos()) {
                        assertThat(replicator.alive()).as("litestream is running").isTrue();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                    }
                } finally {
                    workload.stop();
                }
                double seconds = (System.nanoTime() - started) / 1e9;

                expected = db.read(Requests.State::of);
                restored = litestream.restoreUntil(config, source, dir, Duration.ofSeconds(60),
                        "the source's state after the writes stopped " + expected,
                        p -> expected.equals(Requests.stateOf(p)), replicator);

                diagnostics = db.diagnostics();
                checkpoints = replicator.checkpoints();
                shadowWalIndex = replicator.highestShadowWalIndex();
                assertThat(replicator.errors()).as("errors in Litestream's log").isEmpty();
                Workload.Latencies.Summary latency = workload.latencies();
                System.out.printf("replication: %d writes acked in %.1f s (%.0f/s), %d failed, "
                        + "%d reads; write latency p50 %s, p99 %s, max %s; WAL peaked at %d "
                        + "bytes; Litestream checkpoints %d (%s), highest shadow-WAL index %d; "
                        + "Lanes checkpoints %d%n",
                        workload.acked().size(), seconds, workload.acked().size() / seconds,
                        workload.writeFailures().size(), workload.reads(),
                        Workload.millis(latency.percentile(50)),
                        Workload.millis(latency.percentile(99)), Workload.millis(latency.max()),
                        workload.maxWalBytes(), checkpoints.size(), modes(checkpoints),
                        shadowWalIndex, diagnostics.checkpoints().completed());
                // closed while Litestream still holds its connection: see docs/replication.md on why the
                // last connection to close must not be the application's
                db.close();
            }
        }

        assertThat(workload.writeFailures()).as("failed writes").isEmpty();
        assertThat(workload.readFailures()).as("failed or inconsistent reads").isEmpty();
        assertThat(workload.acked()).as("acknowledged writes").hasSizeGreaterThan(1000);
        assertThat(workload.reads()).as("reads run alongside the writes").isPositive();

        // Lanes never checkpointed; Litestream did, and the WAL started over
        assertThat(diagnostics.checkpoints().mode()).isEqualTo(CheckpointMode.EXTERNAL);
        assertThat(diagnostics.checkpoints().completed()).as("Lanes checkpoints").isZero();
        assertThat(diagnostics.checkpoints().failures()).as("Lanes checkpoint failures").isZero();
        assertThat(diagnostics.checkpoints().last()).as("Lanes' last checkpoint").isEmpty();
        assertThat(checkpoints).as("checkpoints in Litestream's log")
                .anySatisfy(c -> assertThat(c.checkpointedFrames()).isPositive());
        assertThat(shadowWalIndex).as("Litestream saw the source WAL start over").isPositive();

        // the restore: every acknowledged request, whole; intact; opens with Lanes
        try (Connection c = Requests.openReadOnly(restored)) {
            assertThat(Requests.integrityCheck(c)).containsExactly("ok");
            Map<Long, Set<Integer>> parts = Requests.parts(c);
            Requests.assertNoneHalfApplied(parts, "restore");
            Requests.assertAllPresent(parts, workload.acked(), "restore");
            assertThat(parts).as("requests in the restore").hasSize(workload.acked().size());
        }
        try (Lanes lanes = Lanes.builder().name("restored").build()) {
            Database db = lanes.open(restored);
            List<Row> check = db.query("PRAGMA integrity_check");
            assertThat(check).hasSize(1);
            assertThat(check.get(0).get(0)).isEqualTo("ok");
            assertThat(db.query("SELECT count(*) AS n FROM req").get(0).getLong("n"))
                    .isEqualTo(expected.rows());
            db.write(c -> Requests.write(c, -1)); // and it takes writes
            assertThat(db.query("SELECT count(*) AS n FROM req WHERE id = -1").get(0)
                    .getLong("n")).isEqualTo(2L);
        }
    }

    static String modes(List<Litestream.Checkpoint> checkpoints) {
        Map<String, Long> byMode = new java.util.TreeMap<>();
        for (Litestream.Checkpoint c : checkpoints) {
            byMode.merge(c.mode() + (c.busy() ? " busy" : ""), 1L, Long::sum);
        }
        return byMode.toString();
    }
}
