package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SoakSamplerTest {
    private static final long MIB = 1 << 20;
    /** Longer than any test: the peak sampler's own thread never samples in these tests. */
    private static final long NEVER_MILLIS = TimeUnit.HOURS.toMillis(1);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aSampleReadsTheRuntimeAndEveryDatabaseAsTheyAre() throws Exception {
        try (Lanes lanes = Lanes.builder().name("sampler").build();
                PeakSampler connections = new PeakSampler("sampler-connections",
                        () -> lanes.diagnostics().openConnections(), NEVER_MILLIS)) {
            // EXTERNAL: Lanes never checkpoints, so the WAL files keep their size meanwhile
            DatabaseOptions options = DatabaseOptions.builder()
                    .checkpointMode(CheckpointMode.EXTERNAL).build();
            List<Database> dbs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Database db = lanes.open(dir.resolve("s" + i + ".db"), options);
                db.execute("CREATE TABLE t(v TEXT)");
                for (int row = 0; row <= i * 10; row++) {
                    db.execute("INSERT INTO t(v) VALUES (?)", Payloads.of(row));
                }
                db.query("SELECT count(*) FROM t");
                dbs.add(db);
            }

            SoakSample s = new SoakSampler(lanes, dbs, connections).sample(12.5, 10,
                    new SoakLoad.Window(1_000, 20, Map.of("SQLITE_BUSY", 2L)));

            long wal = 0;
            int readers = 0;
            for (int i = 0; i < 3; i++) {
                wal += Files.size(dir.resolve("s" + i + ".db-wal"));
                readers += dbs.get(i).diagnostics().readers().openConnections();
            }
            assertThat(s.walBytes()).isPositive().isEqualTo(wal);
            assertThat(s.readerConnections()).isPositive().isEqualTo(readers);
            assertThat(s.openConnections()).isEqualTo(lanes.diagnostics().openConnections())
                    .isGreaterThanOrEqualTo(3 + readers);
            assertThat(s.mostConnections()).isGreaterThanOrEqualTo(s.openConnections());
            assertThat(s.poolThreads()).isEqualTo(lanes.diagnostics().liveThreads());
            // the window is the load's, as handed over
            assertThat(s.elapsedSeconds()).isEqualTo(12.5);
            assertThat(s.requestsPerSecond()).isEqualTo(100);
            assertThat(s.deliberateFailures()).isEqualTo(20);
            assertThat(s.errors()).containsExactly(Map.entry("SQLITE_BUSY", 2L));
            assertThat(s.heapAfterGcBytes()).isPositive()
                    .isLessThanOrEqualTo(s.heapCommittedBytes());
        }
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void retainedHeapShowsInTheNextSampleAndLeavesItOnceReleased() throws Exception {
        try (Lanes lanes = Lanes.builder().name("sampler-heap").build();
                PeakSampler connections = new PeakSampler("sampler-connections",
                        () -> 0, NEVER_MILLIS)) {
            SoakSampler sampler = new SoakSampler(lanes, List.of(), connections);
            SoakLoad.Window none = new SoakLoad.Window(0, 0, Map.of());

            long before = sampler.sample(0, 0, none).heapAfterGcBytes();
            List<byte[]> retained = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                retained.add(new byte[(int) MIB]);
            }
            long holding = sampler.sample(1, 1, none).heapAfterGcBytes();
            retained.clear();
            long after = sampler.sample(2, 1, none).heapAfterGcBytes();

            // after a full collection the heap is what is reachable: the 64 MiB, then not
            assertThat(holding - before).isBetween(60 * MIB, 72 * MIB);
            assertThat(holding - after).isGreaterThan(60 * MIB);
        }
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void descriptorsAndThreadsOpenedShowInTheNextSample() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "no /proc/self/fd here");
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<FileChannel> files = new ArrayList<>();
        try (Lanes lanes = Lanes.builder().name("sampler-process").build();
                PeakSampler connections = new PeakSampler("sampler-connections",
                        () -> 0, NEVER_MILLIS)) {
            SoakSampler sampler = new SoakSampler(lanes, List.of(), connections);
            SoakLoad.Window none = new SoakLoad.Window(0, 0, Map.of());
            SoakSample before = sampler.sample(0, 0, none);

            for (int i = 0; i < 40; i++) {
                files.add(FileChannel.open(dir.resolve("f" + i), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE));
                Thread t = new Thread(() -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "sampler-test-" + i);
                t.start();
                threads.add(t);
            }
            SoakSample after = sampler.sample(1, 1, none);

            // other threads and files of the JVM may come and go meanwhile, a few at most
            assertThat(after.openFiles() - before.openFiles()).isBetween(35L, 45L);
            assertThat(after.threads() - before.threads()).isBetween(35, 45);
            assertThat(after.rssBytes()).isPositive();
        } finally {
            release.countDown();
            for (Thread t : threads) {
                t.join();
            }
            for (FileChannel f : files) {
                f.close();
            }
        }
    }

    @Test
    @Tag("slow")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aJvmThatIgnoresSystemGcHasNoHeapAfterGcToFit() throws Exception {
        assertThat(heapInChild("-XX:+DisableExplicitGC")).isEqualTo(-1);
        assertThat(heapInChild("-XX:-DisableExplicitGC")).isPositive();
    }

    /** The heap after GC a child JVM started with {@code flag} samples. */
    private static long heapInChild(String flag) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, flag, "-cp",
                System.getProperty("java.class.path"), SoakSampleChild.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor()).as(out).isZero();
        Matcher m = Pattern.compile("heapAfterGcBytes=(-?\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void aPeakSamplerWindowHoldsTheMostSinceThePreviousOne() {
        AtomicLong figure = new AtomicLong(5);
        try (PeakSampler peak = new PeakSampler("peak-test", figure::get, NEVER_MILLIS)) {
            figure.set(9);
            assertThat(peak.most()).isEqualTo(9);
            figure.set(3);
            // the window began at open (5) and saw 9
            assertThat(peak.window()).isEqualTo(9);
            // the next began at 3, the value when the previous closed
            figure.set(2);
            assertThat(peak.window()).isEqualTo(3);
            assertThat(peak.window()).isEqualTo(2);
        }
    }
}
