package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 while corked loses exactly the corked writes: every write acknowledged before {@code
 * cork()} survives, none acknowledged after it does, and the file is intact. The writer runs in
 * a child JVM ({@link CorkCrashChild}).
 */
@Tag("slow") // process: a child JVM killed -9
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CorkCrashTest {
    static final int PRE = 200;
    static final int CORKED = 2000; // ~4 MB: more than SQLite's page cache holds, so it spills

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void aKillNineWhileCorkedLosesExactlyTheCorkedWritesAndNoEarlierOne() throws Exception {
        Path db = runtime.path("cork-crash.db");
        Path stderr = runtime.path("child.err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CorkCrashChild.class.getName(), db.toString(), String.valueOf(PRE),
                String.valueOf(CORKED))
                .redirectError(stderr.toFile())
                .start();
        Set<Long> pre = new HashSet<>();
        Set<Long> corked = new HashSet<>();
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            while (true) {
                String line = lines.readLine();
                if (line == null) {
                    child.waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError("the child ended before 'ready' (" + pre.size()
                            + " pre, " + corked.size() + " corked acks); its stderr:\n"
                            + Files.readString(stderr));
                }
                if (line.equals("ready")) {
                    break;
                }
                String[] parts = line.trim().split(" ");
                (parts[0].equals("pre") ? pre : corked).add(Long.parseLong(parts[1]));
            }
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no close, no uncork
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child died").isTrue();
        }
        assertThat(child.exitValue()).as("killed, not exited").isNotZero();
        assertThat(pre).hasSize(PRE);
        assertThat(corked).hasSize(CORKED);

        Database reopened = runtime.lanes().open(db);
        Set<Long> present = new HashSet<>();
        for (Row r : reopened.query("SELECT id FROM t")) {
            present.add(r.getLong("id"));
        }
        assertThat(present).as("every write acknowledged before cork() survived")
                .containsAll(pre);
        assertThat(present).as("no corked write survived").doesNotContainAnyElementsOf(corked);
        assertThat(present).hasSize(PRE);
        List<Row> check = reopened.query("PRAGMA integrity_check");
        assertThat(check).hasSize(1);
        assertThat(check.get(0).get(0)).isEqualTo("ok");
        // The database works normally after the crash.
        reopened.execute("INSERT INTO t(v) VALUES ('after-crash')");
        assertThat(TestLanes.countOf(reopened, "after-crash")).isEqualTo(1);
    }
}
