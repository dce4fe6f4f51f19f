package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap an idle database costs (open in the runtime, no SQLite connection
 * held) stays under {@link #MAX_BYTES_PER_IDLE_DATABASE}, before its first request and after
 * the connection budget evicted its connections. Measured in a child JVM of its own ({@link
 * IdleFootprintChild}: class histograms of the live heap after a full GC, before and after
 * opening the databases), so that nothing else of the test run is on the heap, and with {@code
 * -Xmx512m}, so that object sizes are those of compressed references on any machine.
 *
 * <p>The bound is the goal, 2 KiB: measured here, an idle database costs about 1,720 B opened
 * and 1,970-1,980 B used and evicted (JDK 17 and 25 alike; the path, kept in bytes, adds with
 * its length). The largest parts are the registry's and the lease's map nodes (about 160 B),
 * the path and name (about 130 B) and the reader set (104 B, with its lock and counters beside
 * it). Anything that brings back a per-database adder, lock, future, counter array, stateless
 * helper or cached path text by the hundred bytes crosses it.
 */
@Tag("slow")
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdleFootprintTest {
    /** Total growth of the live heap per idle database, every class counted. */
    static final long MAX_BYTES_PER_IDLE_DATABASE = 2048;

    private static final Pattern TOTAL = Pattern.compile("^TOTAL ([0-9.]+) bytes per database");

    @TempDir Path temp;
    /** A folder of this test's in {@code /dev/shm}, deleted after it; null when none. */
    private Path inMemory;

    @AfterEach
    void deleteInMemoryFolder() throws IOException {
        if (inMemory == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(inMemory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void aDatabaseOpenedButNeverUsedHoldsLittleHeap() throws Exception {
        assertThat(bytesPerDatabase(2000, "opened")).isLessThanOrEqualTo(
                MAX_BYTES_PER_IDLE_DATABASE);
    }

    @Test
    void aDatabaseWhoseConnectionsTheBudgetEvictedHoldsLittleHeap() throws Exception {
        assertThat(bytesPerDatabase(1500, "used")).isLessThanOrEqualTo(
                MAX_BYTES_PER_IDLE_DATABASE);
    }

    /** Runs the child; its total growth per database, the child's report as the description. */
    private double bytesPerDatabase(int databases, String kind) throws Exception {
        Path dir = databaseDirectory().resolve(kind);
        Path out = temp.resolve(kind + ".out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), IdleFootprintChild.class.getName(),
                dir.toString(), Integer.toString(databases), kind, "15")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean ended = child.waitFor(240, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(ended).as("the child ends; it printed:%n%s", output).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        assumeThat(output).as("a JVM with HotSpot's GC.class_histogram")
                .doesNotContain("UNSUPPORTED");
        List<String> report = output.lines()
                .filter(l -> l.startsWith("TOTAL") || l.startsWith("LANES")
                        || l.startsWith("CLASS"))
                .collect(Collectors.toList());
        Matcher total = TOTAL.matcher(report.isEmpty() ? "" : report.get(0));
        assertThat(total.find()).as("a TOTAL line first; it printed:%n%s", output).isTrue();
        double bytes = Double.parseDouble(total.group(1));
        System.out.printf("idle footprint, %s:%n%s%n", kind, String.join("\n", report));
        assertThat(bytes).as("bytes per %s idle database; the child's report:%n%s", kind,
                String.join("\n", report)).isPositive();
        return bytes;
    }

    /**
     * Where the child creates its databases: in memory when {@code /dev/shm} is there (opening a
     * thousand databases on a disk takes a minute of fsyncs), else the test's temporary folder.
     * What they cost on the heap is the same.
     */
    private Path databaseDirectory() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            inMemory = Files.createTempDirectory(shm, "lanes-footprint-");
            return inMemory;
        }
        return temp;
    }
}
