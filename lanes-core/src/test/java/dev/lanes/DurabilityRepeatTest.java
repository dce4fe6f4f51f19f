package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code kill -9} test of {@link CrashSafetyTest}, twenty times in a row: each round a child
 * JVM ({@link CrashChild}) writes two-row requests from 16 threads and is killed in the middle of
 * group commits; the parent then opens the database itself, which also proves the dead child left
 * no stale lease, and finds every acknowledged request whole and none half-applied.
 */
@Tag("slow") // process: twenty child JVMs killed -9
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DurabilityRepeatTest {
    static final int ROUNDS = 20;
    /** Acknowledgements to wait for before the kill: enough to be inside busy group commits. */
    static final int ACKS = 300;

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void twentyKillNinesLoseNoAcknowledgedWriteAndHalfApplyNone() throws Exception {
        long lost = 0;
        long halfApplied = 0;
        long acknowledged = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            Path db = runtime.path("round-" + round + ".db");
            Set<Long> acked = runAndKill(db, round);
            acknowledged += acked.size();

            try (Lanes lanes = runtime.another()) {
                Database reopened = lanes.open(db); // the killed child's lease is gone
                Map<Long, Set<Long>> parts = new HashMap<>();
                for (Row r : reopened.query("SELECT id, part FROM req")) {
                    parts.computeIfAbsent(r.getLong("id"), k -> new HashSet<>())
                            .add(r.getLong("part"));
                }
                for (long id : acked) {
                    if (!Set.of(1L, 2L).equals(parts.get(id))) {
                        lost++;
                    }
                }
                for (Set<Long> p : parts.values()) {
                    if (p.size() != 2) {
                        halfApplied++;
                    }
                }
                List<Row> check = reopened.query("PRAGMA integrity_check");
                assertThat(check).hasSize(1);
                assertThat(check.get(0).get(0)).as("round %d: integrity", round).isEqualTo("ok");
            }
        }
        assertThat(acknowledged).isGreaterThanOrEqualTo((long) ROUNDS * ACKS);
        assertThat(lost).as("acknowledged requests lost over %d kills", ROUNDS).isZero();
        assertThat(halfApplied).as("requests half applied over %d kills", ROUNDS).isZero();
    }

    /** Starts a child on {@code db}, reads {@link #ACKS} acknowledgements, kills it -9. */
    private Set<Long> runAndKill(Path db, int round) throws Exception {
        Path stderr = runtime.path("child-" + round + ".err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(),
                db.toString(), Synchronous.NORMAL.name())
                .redirectError(stderr.toFile())
                .start();
        Set<Long> acked = new HashSet<>();
        try (BufferedReader acks = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            while (acked.size() < ACKS) {
                String line = acks.readLine();
                if (line == null) {
                    child.waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError("round " + round + ": the child ended before "
                            + ACKS + " acks (" + acked.size() + " seen); its stderr:\n"
                            + Files.readString(stderr));
                }
                if (line.startsWith(CrashChild.ACK)) {
                    acked.add(Long.parseLong(line.substring(CrashChild.ACK.length()).trim()));
                }
            }
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no close, no lease release
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child died").isTrue();
        }
        assertThat(child.exitValue()).as("killed, not exited").isNotZero();
        return acked;
    }
}
