package dev.lanes.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import java.nio.file.Path;
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
 * Litestream's own checkpoints take SQLite's write lock: a {@code RESTART} checkpoint blocks new
 * writers while it copies the WAL back and waits for readers to leave it, and after the WAL
 * starts over Litestream holds the write lock again while it opens its next shadow WAL. Lanes'
 * writer must ride through that with the default {@code busyTimeout}: no {@code BusyException},
 * no failed or poisoned writer, every acknowledged write in the database.
 *
 * <p>Litestream is configured to force a {@code RESTART} checkpoint whenever the WAL holds
 * {@value #MAX_CHECKPOINT_PAGES} pages and to look every {@code 100 ms}, so that a 12 s run goes
 * through many of them. Every write's latency is recorded; the test prints p50, p99 and max, and
 * the worst latency of the writes in flight at the moment Litestream logged the end of a
 * checkpoint (those are the writes the checkpoint held up).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LitestreamCheckpointContentionIT {
    static final Duration WRITE_FOR = Duration.ofSeconds(12);
    static final int WRITERS = 8;
    static final int READERS = 2;
    static final int RATE = 4000;
    static final int MIN_CHECKPOINT_PAGES = 100;
    static final int MAX_CHECKPOINT_PAGES = 400;

    @TempDir Path dir;

    @Test
    void writersRideThroughLitestreamCheckpointsWithTheDefaultBusyTimeout() throws Exception {
        Litestream litestream = Litestream.installed();
        Path source = dir.resolve("contention.db");
        Path config = new Litestream.Config(source, dir.resolve("replica"),
                Duration.ofMillis(100), Duration.ofSeconds(1), MIN_CHECKPOINT_PAGES,
                MAX_CHECKPOINT_PAGES, Duration.ofMillis(500), "debug")
                .write(dir.resolve("litestream.yml"));
        DatabaseOptions options =
                DatabaseOptions.builder().checkpointMode(CheckpointMode.EXTERNAL).build();

        Workload workload;
        DatabaseDiagnostics diagnostics;
        List<Litestream.Checkpoint> checkpoints;
        Map<Long, Set<Integer>> parts;
        try (Lanes lanes = Lanes.builder().name("contention").maxThreads(8).build()) {
            Database db = lanes.open(source, options);
            db.execute(Requests.SCHEMA);
            try (Litestream.Replicator replicator =
                    litestream.replicate(config, dir.resolve("contention-litestream.log"))) {
                replicator.awaitLog("snapshot written", Duration.ofSeconds(30));
                workload = new Workload(db, WRITERS, READERS, RATE);
                long started = System.nanoTime();
                workload.start();
                try {
                    while (System.nanoTime() - started < WRITE_FOR.toNanos()) {
                        assertThat(replicator.alive()).as("litestream is running").isTrue();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                    }
                } finally {
                    workload.stop();
                }
                diagnostics = db.diagnostics();
                parts = db.read(Requests::parts);
                checkpoints = replicator.checkpoints();
                assertThat(replicator.errors()).as("errors in Litestream's log").isEmpty();
                db.close(); // while Litestream still holds its connection
            }
        }

        Workload.Latencies.Summary latency = workload.latencies();
        List<Litestream.Checkpoint> restarts = checkpoints.stream()
                .filter(c -> c.mode().equals("RESTART") && !c.busy()).toList();
        Duration worstAtCheckpoint = Duration.ZERO;
        Duration worstAtRestart = Duration.ZERO;
        for (Litestream.Checkpoint c : checkpoints) {
            Duration d = latency.worstInFlightAt(c.endedAt());
            worstAtCheckpoint = d.compareTo(worstAtCheckpoint) > 0 ? d : worstAtCheckpoint;
            if (restarts.contains(c)) {
                worstAtRestart = d.compareTo(worstAtRestart) > 0 ? d : worstAtRestart;
            }
        }
        System.out.printf("contention: %d writes acked, %d failed; Litestream checkpoints %s; "
                + "write latency p50 %s, p99 %s, p99.9 %s, max %s; worst write in flight at the "
                + "end of a Litestream checkpoint %s (RESTART %s); writer busy refusals %d, "
                + "absorbed %d; WAL peaked at %d bytes%n",
                workload.acked().size(), workload.writeFailures().size(),
                LitestreamReplicationIT.modes(checkpoints),
                Workload.millis(latency.percentile(50)), Workload.millis(latency.percentile(99)),
                Workload.millis(latency.percentile(99.9)), Workload.millis(latency.max()),
                Workload.millis(worstAtCheckpoint), Workload.millis(worstAtRestart),
                diagnostics.writer().counters().busyRefusals(), diagnostics.writer().counters().busyAbsorbed(),
                workload.maxWalBytes());

        assertThat(restarts).as("RESTART checkpoints Litestream completed during the run")
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(workload.writeFailures()).as("failed writes (a BusyException among them?)")
                .isEmpty();
        assertThat(workload.readFailures()).as("failed or inconsistent reads").isEmpty();
        assertThat(diagnostics.writer().poisoned()).as("writer poisoned").isFalse();
        assertThat(diagnostics.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(diagnostics.writer().counters().failed()).as("failed writes").isZero();
        assertThat(diagnostics.writer().counters().unknownOutcomes()).as("unknown outcomes").isZero();
        assertThat(diagnostics.checkpoints().completed()).as("Lanes checkpoints").isZero();
        assertThat(workload.acked()).hasSizeGreaterThan(1000);
        Requests.assertNoneHalfApplied(parts, "source");
        Requests.assertAllPresent(parts, workload.acked(), "source");
    }
}
