package dev.lanes.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.LeaseStatus;
import dev.lanes.cli.LanesCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code lanes inspect --watch} against a live database owned by a runtime of this JVM. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class InspectWatchTest {
    private static final Pattern FRAMES =
            Pattern.compile("checkpoints (?:caught up: )?([\\d,]+) of ([\\d,]+) frames");

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void watchesTheWalAndCheckpointsOfALiveDatabaseWithoutDisturbingItsOwner() throws Exception {
        Path file = dir.resolve("live.db");
        long pid = ProcessHandle.current().pid();
        try (Lanes lanes = Lanes.builder().name("owner").maxThreads(2).build()) {
            Database db = lanes.open(file);
            db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            for (int i = 0; i < 20; i++) {
                db.execute("INSERT INTO t(v) VALUES (?)", "row" + i);
            }
            Path shm = Path.of(file + "-shm");
            List<String> shmLocks = posixLocksOf(shm);

            assertThat(run("inspect", "--watch", "--interval", "10ms", "--count", "3",
                    file.toString())).as(err.toString()).isZero();

            String[] lines = out.toString().split("\\R");
            assertThat(lines).hasSize(3).allSatisfy(line -> {
                assertThat(line).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  WAL .*")
                        .contains("lease held");
                if (Files.isReadable(Path.of("/proc/locks"))) {
                    assertThat(line).contains("lease held by process " + pid);
                }
            });
            long[] before = frames(lines[2]);
            assertThat(before[1]).as("frames in the WAL").isPositive();
            assertThat(lines[2]).contains(String.format(Locale.ROOT, "WAL %,d bytes",
                    Files.size(Path.of(file + "-wal"))));

            // a checkpoint copies every frame: the next sample says so
            db.checkpoint();
            out.getBuffer().setLength(0);
            assertThat(run("inspect", "--watch", "--count", "1", file.toString())).isZero();
            long[] after = frames(out.toString());
            assertThat(after[0]).isEqualTo(after[1]).isEqualTo(before[1]);
            assertThat(out.toString()).contains("checkpoints caught up");

            // the watcher dropped none of SQLite's locks on -shm, and the owner goes on
            assertThat(posixLocksOf(shm)).isEqualTo(shmLocks);
            db.execute("INSERT INTO t(v) VALUES ('after')");
            assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(21);
        }
    }

    @Test
    void jsonPrintsOneObjectPerSample() throws Exception {
        Path file = dir.resolve("json.db");
        try (Lanes lanes = Lanes.builder().name("owner").maxThreads(2).build()) {
            Database db = lanes.open(file);
            db.execute("CREATE TABLE t(v TEXT)");

            assertThat(run("inspect", "--watch", "--json", "--interval", "5ms", "--count", "2",
                    file.toString())).isZero();

            String[] lines = out.toString().split("\\R");
            assertThat(lines).hasSize(2);
            for (String line : lines) {
                JsonNode sample = new ObjectMapper().readTree(line);
                assertThat(Instant.parse(sample.get("at").asText())).isNotNull();
                assertThat(sample.get("walBytes").asLong()).isPositive();
                assertThat(sample.get("walIndex").get("walFrames").asLong()).isPositive();
                assertThat(sample.get("walIndex").get("pageSize").asInt()).isEqualTo(4096);
                assertThat(sample.get("lease").get("held").asBoolean()).isTrue();
            }
        }
    }

    @Test
    void aHeaderReadWhileTheOwnerWritesItIsRefused() throws Exception {
        Path file = dir.resolve("torn.db");
        try (Lanes lanes = Lanes.builder().name("owner").maxThreads(2).build()) {
            lanes.open(file).execute("CREATE TABLE t(v TEXT)");
            ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(Path.of(file + "-shm")), 0, 100)
                    .slice().order(ByteOrder.nativeOrder());
            assertThat(WalIndex.parse(header)).isPresent();

            ByteBuffer secondCopyDiffers = copy(header);
            secondCopyDiffers.put(48 + 16, (byte) (secondCopyDiffers.get(48 + 16) + 1));
            assertThat(WalIndex.parse(secondCopyDiffers)).isEmpty();

            ByteBuffer badChecksum = copy(header);
            for (int at : new int[] {16, 48 + 16}) {
                badChecksum.put(at, (byte) (badChecksum.get(at) + 1));
            }
            assertThat(WalIndex.parse(badChecksum)).isEmpty();
        }
    }

    @Test
    void onATerminalTheViewIsRewrittenInPlace() {
        Path file = dir.resolve("screen.db");
        PrintWriter screenOut = new PrintWriter(out);
        Watch.Screen screen = Watch.inPlace(file, screenOut, Duration.ofSeconds(1));
        LeaseStatus lease = new LeaseStatus("/x/.lanes-lock/ab", 7, true, true, 42L, "proc-locks");
        Instant at = Instant.parse("2026-01-02T03:04:05Z");
        screen.show(new WatchSample(at, 4096, 8192, at, new WalIndex(4096, 10, 4), lease));
        String first = out.toString();
        out.getBuffer().setLength(0);
        screen.show(new WatchSample(at, 4096, 0, null, null, lease));
        String second = out.toString();

        assertThat(first).startsWith("lanes inspect --watch, every 1000 ms; Ctrl-C stops")
                .contains("\u001b[2KWAL            8,192 bytes, changed 0.0 s ago")
                .contains("4 of 10 frames in the database file, 6 behind (24,576 bytes)")
                .contains("lease          held by process 42");
        assertThat(second).startsWith("\u001b[5A\u001b[2Ktime").contains("WAL            none")
                .contains("checkpoints    unknown");
        assertThat(second.split("\\R")).hasSize(5);
    }

    @Test
    void aMissingFileAndABadIntervalAreReported() {
        assertThat(run("inspect", "--watch", "--count", "1", dir.resolve("none.db").toString()))
                .isEqualTo(InspectCommand.UNREADABLE);
        assertThat(err.toString()).contains("no such database file");
        assertThat(Files.exists(dir.resolve("none.db"))).isFalse();

        assertThat(run("inspect", "--watch", "--interval", "0ms", "x.db")).isNotZero();
        assertThat(err.toString()).contains("--interval must be above zero");
    }

    // ------------------------------------------------------------------ helpers

    private int run(String... args) {
        CommandLine line = LanesCommand.commandLine();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    /** checkpointed and total frames of the last "checkpoints" in {@code text}. */
    private static long[] frames(String text) {
        Matcher m = FRAMES.matcher(text);
        long[] found = null;
        while (m.find()) {
            found = new long[] {Long.parseLong(m.group(1).replace(",", "")),
                    Long.parseLong(m.group(2).replace(",", ""))};
        }
        assertThat(found).as(text).isNotNull();
        return found;
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer c = ByteBuffer.allocate(b.limit()).order(ByteOrder.nativeOrder());
        for (int i = 0; i < b.limit(); i++) {
            c.put(i, b.get(i));
        }
        return c;
    }

    /** This process's POSIX locks on {@code file} in /proc/locks (empty where there is none). */
    private static List<String> posixLocksOf(Path file) throws Exception {
        List<String> locks = new ArrayList<>();
        Path procLocks = Path.of("/proc/locks");
        if (!Files.isReadable(procLocks)) {
            return locks;
        }
        long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        String pid = " " + ProcessHandle.current().pid() + " ";
        for (String line : Files.readAllLines(procLocks)) {
            String[] f = line.trim().split("\\s+");
            if (line.contains("POSIX") && line.contains(pid) && f.length > 6
                    && f[5].endsWith(":" + inode)) {
                locks.add(line.substring(line.indexOf("POSIX")));
            }
        }
        return locks;
    }
}
