package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Under sustained writes, with a reader taking snapshot after snapshot, the WAL stays bounded
 * when Lanes owns checkpoints ({@link CheckpointMode#DEDICATED}) and only grows when another tool
 * does ({@link CheckpointMode#EXTERNAL}). Both databases run side by side in one runtime, under
 * the same load, until the load wrote enough to tell bounded from unbounded ({@link
 * #enoughWritten}), however fast the machine is; {@link #MAX_RUN} only bounds a run that cannot
 * get there.
 */
@Tag("slow")
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckpointWalGrowthTest {
    private static final Logger log = LoggerFactory.getLogger(CheckpointWalGrowthTest.class);

    /** The longest the load runs; on this machine it writes enough in about 10 s. */
    static final Duration MAX_RUN = Duration.ofSeconds(150);
    /** Samples of the WAL's size taken, at the least, before the load may stop. */
    static final int MIN_SAMPLES = 30;
    /** Each write: this many rows of 512 bytes (8 KiB of row data, more in the WAL). */
    static final int ROWS_PER_WRITE = 16;
    /** The writers pause this long between writes: the WAL grows by MiB/s, not at disk speed. */
    static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * The bound on the DEDICATED WAL: the 4 MiB threshold, plus what the paced writer adds while
     * a tick passes and a checkpoint runs and waits for its locks (10–24 MiB seen here, more on
     * a quiet machine, where the writer is faster), with room to spare. EXTERNAL, under the same
     * load, passes it several times over, so the bound still tells bounded from unbounded.
     */
    static final long DEDICATED_BOUND = 32L * 1024 * 1024;
    /** Each unpaced write: one row this long, so that the WAL grows by a page or more a write. */
    static final int UNPACED_ROW_BYTES = 4096;
    /**
     * What the unpaced load writes, at the least: four times what its WAL reached here (24–62 MB
     * under 16 writers at disk speed: the threshold, plus what they add while a tick passes and
     * a checkpoint runs and finishes on the lane). The WAL may hold at most half of what was
     * written; before the tail on the lane it held all of it, about twice its size in WAL bytes
     * (a 4 KiB row takes two pages).
     */
    static final long UNPACED_WRITTEN = 256L * 1024 * 1024;

    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().name("wal").build();

    /**
     * Whether the load has written what the assertions need, with a margin of a quarter: rows
     * past the bound in DEDICATED mode, an EXTERNAL WAL past three times the bound, a background
     * checkpoint, and enough samples for the growth to show in thirds.
     */
    private static boolean enoughWritten(long dedicatedRows, long externalWal, long checkpoints,
            int samples) {
        return dedicatedRows * 512 > DEDICATED_BOUND * 5 / 4
                && externalWal > DEDICATED_BOUND * 15 / 4 && checkpoints > 0
                && samples >= MIN_SAMPLES;
    }

    @Test
    void underSustainedWritesTheWalStaysBoundedInDedicatedModeAndGrowsInExternalMode()
            throws Exception {
        Database dedicated = runtime.openWithTable("dedicated.db",
                DatabaseOptions.builder().checkpointMode(CheckpointMode.DEDICATED).build());
        Database external = runtime.openWithTable("external.db",
                DatabaseOptions.builder().checkpointMode(CheckpointMode.EXTERNAL).build());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(4);
        List<Thread> threads = new ArrayList<>();
        AtomicLong snapshots = new AtomicLong();
        AtomicLong dedicatedRows = new AtomicLong();
        for (Database db : List.of(dedicated, external)) {
            threads.add(new Thread(() -> {
                started.countDown();
                String payload = "w".repeat(512);
                while (!stop.get()) {
                    db.write(c -> {
                        try (var s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                            for (int i = 0; i < ROWS_PER_WRITE; i++) {
                                s.setString(1, payload);
                                s.executeUpdate();
                            }
                        }
                        return null;
                    });
                    if (db == dedicated) {
                        dedicatedRows.addAndGet(ROWS_PER_WRITE);
                    }
                    LockSupport.parkNanos(PAUSE_NANOS);
                }
            }, "writer-" + db.path().getFileName()));
            threads.add(new Thread(() -> {
                started.countDown();
                while (!stop.get()) {
                    // One snapshot: two statements that must agree.
                    db.read(c -> {
                        try (var s = c.createStatement()) {
                            var a = s.executeQuery("SELECT count(*) FROM t");
                            a.next();
                            long n = a.getLong(1);
                            a.close();
                            var b = s.executeQuery("SELECT max(id) FROM t");
                            b.next();
                            assertThat(b.getLong(1)).isGreaterThanOrEqualTo(n);
                            b.close();
                        }
                        return null;
                    });
                    snapshots.incrementAndGet();
                }
            }, "reader-" + db.path().getFileName()));
        }
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
            t.start();
        }
        TestLanes.await(started, "the load to start");

        long end = System.nanoTime() + MAX_RUN.toNanos();
        long dedicatedMax = 0;
        List<Long> externalSamples = new ArrayList<>();
        long externalNow = 0;
        while (System.nanoTime() - end < 0 && failure.get() == null
                && !enoughWritten(dedicatedRows.get(), externalNow,
                        dedicated.diagnostics().checkpoints().completed(),
                        externalSamples.size())) {
            // Sampling, not ordering: the WAL's size as the load goes on.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            dedicatedMax = Math.max(dedicatedMax,
                    dedicated.diagnostics().checkpoints().walBytes());
            externalNow = external.diagnostics().checkpoints().walBytes();
            externalSamples.add(externalNow);
        }
        stop.set(true);
        for (Thread t : threads) {
            t.join(TestLanes.WAIT.toMillis());
        }
        assertThat(failure.get()).as("the load ran without failure").isNull();

        long writtenDedicated = TestLanes.scalar(dedicated, "SELECT count(*) FROM t") * 512;
        long externalWal = external.diagnostics().checkpoints().walBytes();
        DatabaseDiagnostics.Checkpoints c = dedicated.diagnostics().checkpoints();
        log.info("dedicated: {} bytes of rows, WAL max {} bytes, {} checkpoints, last {}; "
                        + "external: WAL {} bytes; {} snapshots", writtenDedicated,
                dedicatedMax, c.completed(), c.last(), externalWal, snapshots.get());

        assertThat(snapshots.get()).as("the readers kept taking snapshots").isPositive();
        assertThat(writtenDedicated).as("the load wrote past the bound")
                .isGreaterThan(DEDICATED_BOUND);
        assertThat(c.completed()).as("background checkpoints ran").isPositive();
        assertThat(dedicatedMax).as("DEDICATED: the WAL stays bounded")
                .isLessThanOrEqualTo(DEDICATED_BOUND);

        int n = externalSamples.size();
        assertThat(externalSamples.get(n / 3)).as("EXTERNAL: the WAL grows")
                .isLessThan(externalSamples.get(2 * n / 3));
        assertThat(externalSamples.get(2 * n / 3)).isLessThan(externalWal);
        assertThat(externalWal).as("EXTERNAL: nothing checkpointed it")
                .isGreaterThan(3 * DEDICATED_BOUND);
        assertThat(external.diagnostics().checkpoints().completed()).isZero();
    }

    /**
     * Writers that never pause keep the writer lane busy from one group to the next, so the
     * write lock is free only for microseconds at a time: a checkpoint that must take it through
     * the busy handler's sleeps never gets it, and a passive one never catches up with the frames
     * added while it copies. The checkpointer finishes each checkpoint on the lane itself, so the
     * WAL starts over and stays bounded (before, it grew as fast as it was written: 270 MB in 8 s
     * of 64 writers on this machine).
     */
    @Test
    void underWritesThatNeverPauseTheDedicatedWalStaysBounded() throws Exception {
        Database db = runtime.openWithTable("unpaced.db",
                DatabaseOptions.builder().checkpointMode(CheckpointMode.DEDICATED).build());
        int writers = 16;
        String payload = "u".repeat(UNPACED_ROW_BYTES);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong rows = new AtomicLong();
        CountDownLatch started = new CountDownLatch(writers + 1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            threads.add(new Thread(() -> {
                started.countDown();
                while (!stop.get()) {
                    db.execute("INSERT INTO t(v) VALUES (?)", payload);
                    rows.incrementAndGet();
                }
            }, "unpaced-writer-" + i));
        }
        threads.add(new Thread(() -> {
            started.countDown();
            while (!stop.get()) {
                db.query("SELECT max(id) FROM t");
            }
        }, "unpaced-reader"));
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
            t.start();
        }
        TestLanes.await(started, "the load to start");

        long end = System.nanoTime() + MAX_RUN.toNanos();
        long walMax = 0;
        while (System.nanoTime() - end < 0 && failure.get() == null
                && rows.get() * UNPACED_ROW_BYTES < UNPACED_WRITTEN) {
            // Sampling, not ordering: the WAL's size as the load goes on.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            walMax = Math.max(walMax, db.diagnostics().checkpoints().walBytes());
        }
        stop.set(true);
        for (Thread t : threads) {
            t.join(TestLanes.WAIT.toMillis());
        }
        assertThat(failure.get()).as("the load ran without failure").isNull();
        long written = TestLanes.scalar(db, "SELECT count(*) FROM t") * UNPACED_ROW_BYTES;
        DatabaseDiagnostics.Checkpoints c = db.diagnostics().checkpoints();
        log.info("unpaced: {} bytes of rows, WAL max {} bytes, {} checkpoints, last {}", written,
                walMax, c.completed(), c.last());
        assertThat(written).as("the load wrote what it must").isGreaterThanOrEqualTo(
                UNPACED_WRITTEN);
        assertThat(c.completed()).as("background checkpoints ran").isPositive();
        assertThat(walMax).as("the WAL started over: it holds at most half of what was written")
                .isLessThanOrEqualTo(written / 2);
    }
}
