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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * kill -9 in the middle of group commits: every acknowledged write survives whole, no write is
 * half-applied, and the file is intact. The writer runs in a child JVM ({@link CrashChild}).
 */
@Tag("slow") // process: a child JVM killed -9
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CrashSafetyTest {
    static final int ACKS = 2000;

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @ParameterizedTest
    @EnumSource(value = Synchronous.class, names = {"NORMAL", "FULL"})
    void acknowledgedWritesSurviveAKillNineWholeAndNothingIsHalfApplied(Synchronous level)
            throws Exception {
        Path db = runtime.path("crash-" + level + ".db");
        Path stderr = runtime.path("child-" + level + ".err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashChild.class.getName(), db.toString(), level.name())
                .redirectError(stderr.toFile())
                .start();
        Set<Long> acked = new HashSet<>();
        try (BufferedReader acks = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            while (acked.size() < ACKS) {
                String line = acks.readLine();
                if (line == null) {
                    child.waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError("the child ended before " + ACKS + " acks ("
                            + acked.size() + " seen); its stderr:\n" + Files.readString(stderr));
                }
                if (line.startsWith(CrashChild.ACK)) {
                    acked.add(Long.parseLong(line.substring(CrashChild.ACK.length()).trim()));
                }
            }
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no close
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child died").isTrue();
        }
        assertThat(child.exitValue()).as("killed, not exited").isNotZero();

        Database reopened = runtime.lanes().open(db);
        Map<Long, Set<Long>> parts = new HashMap<>();
        for (Row r : reopened.query("SELECT id, part FROM req")) {
            parts.computeIfAbsent(r.getLong("id"), k -> new HashSet<>()).add(r.getLong("part"));
        }
        for (long id : acked) {
            assertThat(parts.get(id)).as("parts of acknowledged request %d", id)
                    .containsExactlyInAnyOrder(1L, 2L);
        }
        assertThat(parts.entrySet()).as("requests with only one of their two rows")
                .allSatisfy(e -> assertThat(e.getValue()).containsExactlyInAnyOrder(1L, 2L));
        List<Row> check = reopened.query("PRAGMA integrity_check");
        assertThat(check).hasSize(1);
        assertThat(check.get(0).get(0)).isEqualTo("ok");
    }
}
