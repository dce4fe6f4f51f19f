package dev.lanes.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.Row;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a process writing through Lanes in {@code EXTERNAL} mode while Litestream
 * replicates it, then restores from the replica.
 *
 * <p>The writer is a child JVM ({@link ReplicationCrashChild}) that prints a {@code start} line
 * before each write and an {@code ack} line after it returned, in real-time order. Litestream
 * replicates a WAL in commit order, so any restore is the database as of one commit: if it holds
 * request X, it holds every request acknowledged before X started ({@link #assertPrefix}). Checked
 * on a restore taken right after the kill (the replica possibly still behind), on the source file
 * itself, and on the restore taken once the replica caught up with the source (same rows and id
 * sum as the dead writer's file), which must also hold every acknowledged request. No request is
 * ever half-applied, every restore passes {@code integrity_check}, and the last one opens and
 * takes writes with Lanes.
 */
@Timeout(value = 150, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LitestreamCrashIT {
    /** How long the child writes while Litestream replicates, before it is killed. */
    static final Duration RUN_FOR = Duration.ofSeconds(5);
    /**
     * Requests per second: a rate Litestream keeps up with (unpaced, the child would write
     * ~30,000/s, ~150 MB of WAL a second, and the replica would fall seconds behind). The work
     * each request does in its transaction keeps the writer lane busy much of the time, but not
     * all of it, even on a slow machine: a writer that never lets go of SQLite's write lock for
     * longer than Litestream's 1 s lock wait makes Litestream's checkpoint fail ("database is
     * locked", retried at its next sync), which docs/replication.md tells operators.
     */
    static final int RATE = 2500;

    @TempDir Path dir;

    /** The child's output: line numbers of each request's start and ack lines. */
    private final Map<Long, Integer> startLine = new HashMap<>();
    private final Map<Long, Integer> ackLine = new HashMap<>();

    @Test
    void restoreAfterKillNineHoldsAPrefixOfTheAcknowledgedWritesWholeAndOpens() throws Exception {
        Litestream litestream = Litestream.installed();
        Path source = dir.resolve("crash.db");
        // info, not debug: at debug Litestream logs every WAL frame it copies, which at this
        // write rate slows it down more than the copying itself
        Path config = Litestream.Config.defaults(source, dir.resolve("replica")).logLevel("info")
                .write(dir.resolve("litestream.yml"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path childErr = dir.resolve("child.err");

        List<String> lines = new ArrayList<>();
        Process child = new ProcessBuilder(java, "-Xss1m", "-cp",
                System.getProperty("java.class.path"), ReplicationCrashChild.class.getName(),
                source.toString(), String.valueOf(RATE))
                .redirectError(childErr.toFile())
                .start();
        Thread reader = new Thread(() -> readAll(child, lines), "crash-child-stdout");
        reader.start();
        Path early;
        Path restored;
        Requests.State sourceState;
        Map<Long, Set<Integer>> sourceParts;
        double caughtUpSeconds;
        long killed = 0;
        Instant killedAt = Instant.MAX;
        try (Litestream.Replicator replicator =
                litestream.replicate(config, dir.resolve("crash-litestream.log"))) {
            try {
                awaitLine(lines, ReplicationCrashChild.READY, child, childErr);
                replicator.awaitLog("snapshot written", Duration.ofSeconds(30));
                child.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
                child.getOutputStream().flush();
                long started = System.nanoTime();
                while (System.nanoTime() - started < RUN_FOR.toNanos()) {
                    assertThat(child.isAlive()).as("the child is writing").isTrue();
                    assertThat(replicator.alive()).as("litestream is running").isTrue();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                }
            } finally {
                child.destroyForcibly(); // SIGKILL mid-run: no shutdown hooks, no close
                killed = System.nanoTime();
                killedAt = Instant.now();
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child died").isTrue();
                reader.join(TimeUnit.SECONDS.toMillis(30)); // its stdout ends with the process
            }
            assertThat(child.exitValue()).as("killed, not exited").isNotZero();
            indexLines(lines);
            assertThat(ackLine).as("acknowledged writes before the kill").hasSizeGreaterThan(1000);

            // at once, the replica possibly still behind: a consistent prefix all the same
            early = dir.resolve("early.db");
            Litestream.Result r = litestream.restore(config, source, early);
            assertThat(r.exitCode()).as("early restore: %s", r.output()).isZero();

            // the dead writer's file is the truth the replica must reach
            try (Connection c = Requests.openReadOnly(source)) {
                sourceState = Requests.State.of(c);
                sourceParts = Requests.parts(c);
            }
            restored = litestream.restoreUntil(config, source, dir, Duration.ofSeconds(60),
                    "the killed writer's last committed state " + sourceState,
                    p -> sourceState.equals(Requests.stateOf(p)), replicator);
            caughtUpSeconds = (System.nanoTime() - killed) / 1e9;
            // after the kill, the first connection to the file (this test's reader, or
            // Litestream's) recovers the dead writer's WAL; a PASSIVE checkpoint that meets that
            // recovery is told "database is locked" and runs again at the next sync. That one
            // error, logged after the kill, is expected; any other fails the test.
            Instant recoveryFrom = killedAt;
            assertThat(replicator.errors()).as("errors in Litestream's log")
                    .filteredOn(l -> !(l.contains("checkpoint: mode=PASSIVE err=database is locked")
                            && !loggedAt(l).isBefore(recoveryFrom)))
                    .isEmpty();
        } finally {
            child.destroyForcibly();
        }

        Map<Long, Set<Integer>> earlyParts;
        try (Connection c = Requests.openReadOnly(early)) {
            assertThat(Requests.integrityCheck(c)).as("early restore").containsExactly("ok");
            earlyParts = Requests.parts(c);
        }
        Requests.assertNoneHalfApplied(earlyParts, "early restore");
        assertPrefix(earlyParts.keySet(), "early restore");
        assertThat(sourceParts.keySet()).as("the early restore is part of the final state")
                .containsAll(earlyParts.keySet());

        Requests.assertNoneHalfApplied(sourceParts, "source after the kill");
        Requests.assertAllPresent(sourceParts, ackLine.keySet(), "source after the kill");
        assertPrefix(sourceParts.keySet(), "source after the kill");

        Map<Long, Set<Integer>> restoredParts;
        try (Connection c = Requests.openReadOnly(restored)) {
            assertThat(Requests.integrityCheck(c)).as("restore").containsExactly("ok");
            restoredParts = Requests.parts(c);
        }
        Requests.assertNoneHalfApplied(restoredParts, "restore");
        assertThat(restoredParts).as("the caught-up restore is the source's state")
                .isEqualTo(sourceParts);
        Requests.assertAllPresent(restoredParts, ackLine.keySet(), "restore");
        assertPrefix(restoredParts.keySet(), "restore");

        System.out.printf("crash: %d writes started, %d acked before kill -9 (%d in flight); "
                + "the source holds %d requests (%d committed without an ack seen); the restore "
                + "right after the kill held %d, the caught-up restore %d (%s, %.1f s after the "
                + "kill)%n", startLine.size(), ackLine.size(), startLine.size() - ackLine.size(),
                sourceParts.size(), sourceParts.size() - ackLine.size(), earlyParts.size(),
                restoredParts.size(), restored.getFileName(), caughtUpSeconds);

        try (Lanes lanes = Lanes.builder().name("restored").build()) {
            Database db = lanes.open(restored);
            List<Row> check = db.query("PRAGMA integrity_check");
            assertThat(check).hasSize(1);
            assertThat(check.get(0).get(0)).isEqualTo("ok");
            db.write(c -> Requests.write(c, -1));
            assertThat(db.query("SELECT count(*) AS n FROM req").get(0).getLong("n"))
                    .isEqualTo(sourceState.rows() + 2);
        }
    }

    /**
     * {@code present} is the database as of one commit: whatever request X it holds, it holds
     * every request whose ack line came before X's start line (that one committed before X
     * began, so before X committed).
     */
    private void assertPrefix(Set<Long> present, String where) {
        int latestStart = -1;
        for (long id : present) {
            Integer line = startLine.get(id);
            assertThat(line).as("%s: request %d was started by the child", where, id).isNotNull();
            latestStart = Math.max(latestStart, line);
        }
        Set<Long> missing = new TreeSet<>();
        for (Map.Entry<Long, Integer> ack : ackLine.entrySet()) {
            if (ack.getValue() < latestStart && !present.contains(ack.getKey())) {
                missing.add(ack.getKey());
            }
        }
        assertThat(missing).as("%s: requests acknowledged before the start of a request it holds"
                + " (line %d), but missing", where, latestStart).isEmpty();
    }

    private void indexLines(List<String> lines) {
        synchronized (lines) {
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith(ReplicationCrashChild.START)) {
                    startLine.put(id(line, ReplicationCrashChild.START), i);
                } else if (line.startsWith(ReplicationCrashChild.ACK)) {
                    ackLine.put(id(line, ReplicationCrashChild.ACK), i);
                }
            }
        }
    }

    private static long id(String line, String prefix) {
        return Long.parseLong(line.substring(prefix.length()).trim());
    }

    private static void readAll(Process child, List<String> lines) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            // the pipe broke with the process: what was read is what was acknowledged
        }
    }

    private static void awaitLine(List<String> lines, String wanted, Process child, Path err)
            throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            synchronized (lines) {
                if (lines.contains(wanted)) {
                    return;
                }
            }
            if (!child.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the child did not print '" + wanted + "' (alive: "
                        + child.isAlive() + "); its stderr:\n" + Files.readString(err));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** When Litestream logged {@code line} ({@code time=…Z}); the epoch when it has no time. */
    private static Instant loggedAt(String line) {
        Matcher m = Pattern.compile("time=(\\S+Z)").matcher(line);
        return m.find() ? Instant.parse(m.group(1)) : Instant.EPOCH;
    }
}
