package dev.lanes.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.internal.util.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Idle release, from inside: the idle queue (the runtime's timer) holds each database at
 * most once, a release runs as a turn of the lane, and a database closed while its release waits
 * never runs it.
 *
 * <p>A release is observed through {@link IdleRelease#observer}: the release's turn tells it,
 * right after {@code PRAGMA shrink_memory} and the readers' release, and nothing else does. On a
 * manual clock: an idle period passes when the test advances it, and the clock is the runtime's
 * timer, whose pending tasks are the idle checks (nothing else schedules in these tests).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdleReleaseQueueTest {
    private static final long WAIT_MS = 30_000;

    final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();

    private Lanes lanes;
    private final List<CountDownLatch> held = new ArrayList<>();

    private Lanes runtime(int maxThreads) {
        lanes = runtime.start(Lanes.builder().name("idleq").maxThreads(maxThreads)
                .threadStackSize(256 * 1024));
        return lanes;
    }

    @AfterEach
    void releaseHeld() {
        held.forEach(CountDownLatch::countDown);
    }

    /** SQLite's own checkpoints: a DEDICATED checkpointer's looks would be timer tasks too. */
    private static DatabaseOptions idle(Duration idleRelease) {
        return DatabaseOptions.builder().idleRelease(idleRelease)
                .checkpointMode(dev.lanes.CheckpointMode.AUTO)
                .transactionIdleTimeout(Duration.ofSeconds(60)).build();
    }

    private DatabaseImpl open(String name, DatabaseOptions options) {
        DatabaseImpl db = (DatabaseImpl) runtime.open(name, options);
        db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
        return db;
    }

    /** Counts the releases of {@code db}; see the class comment. */
    private static AtomicInteger countReleases(DatabaseImpl db) {
        AtomicInteger releases = new AtomicInteger();
        db.idleRelease().observer(closeConnections -> releases.incrementAndGet());
        return releases;
    }

    /** The idle checks pending in the runtime's timer (nothing else uses it in these tests). */
    private int pendingChecks() {
        return clock.pending();
    }

    /** Holds a pool thread with a write to {@code db} until the test ends or releases it. */
    private CountDownLatch hold(Database db) {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        held.add(release);
        db.writeAsync(c -> {
            started.countDown();
            return release.await(WAIT_MS, TimeUnit.MILLISECONDS);
        });
        await(started);
        return release;
    }

    @Test
    void thousandsOfTurnsArmOneIdleCheckPerDatabase() {
        runtime(4);
        DatabaseOptions options = idle(Duration.ofMinutes(10));
        List<DatabaseImpl> dbs = List.of(open("a.db", options), open("b.db", options),
                open("c.db", options));
        for (int i = 0; i < 500; i++) {
            for (DatabaseImpl db : dbs) {
                db.execute("INSERT INTO t(v) VALUES (?)", "sync " + i); // led by this thread
            }
            assertThat(pendingChecks()).isEqualTo(dbs.size());
        }
        for (int batch = 0; batch < 5; batch++) { // within the write queue's capacity of 256
            List<CompletableFuture<Integer>> async = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                for (DatabaseImpl db : dbs) {
                    async.add(db.writeAsync(c -> c.createStatement().executeUpdate(
                            "INSERT INTO t(v) VALUES ('async')"))); // turns on the pool
                }
            }
            async.forEach(f -> assertThat(f.join()).isEqualTo(1));
            assertThat(pendingChecks()).isEqualTo(dbs.size());
        }
        assertThat(pendingChecks()).as("idle checks pending for three databases after 3,000 "
                + "turns").isEqualTo(dbs.size());
    }

    @Test
    void aBusyDatabaseRechecksLazilyAndIsReleasedOnceWhenItFinallyIdles() {
        runtime(2);
        Duration idle = Duration.ofMillis(500);
        DatabaseImpl db = open("a.db", idle(idle));
        AtomicInteger releases = countReleases(db);
        // Busy for three idle periods, written every tenth of one: the check comes due again
        // and again, finds the database used meanwhile, and re-arms itself; never more than one
        // is pending.
        int writes = 0;
        int mostPending = 0;
        for (int step = 0; step < 30; step++) {
            db.execute("INSERT INTO t(v) VALUES (?)", "busy " + writes++);
            mostPending = Math.max(mostPending, pendingChecks());
            clock.advance(idle.dividedBy(10));
            mostPending = Math.max(mostPending, pendingChecks());
        }
        assertThat(mostPending).isEqualTo(1);
        assertThat(releases.get()).as("releases while the database was never idle for %s "
                + "(%d writes)", idle, writes).isZero();

        clock.advance(idle);
        awaitTrue("the release after the database went idle", () -> releases.get() == 1);
        awaitTrue("no check left pending after the release", () -> pendingChecks() == 0);
        assertThat(releases.get()).isEqualTo(1);
    }

    @Test
    void aReleaseIsATurnOfTheLaneSoAWriteArrivingDuringItWaitsForIt() {
        runtime(2);
        DatabaseImpl db = open("a.db", idle(Duration.ofMillis(100)));
        CountDownLatch releasing = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        held.add(finish);
        List<Boolean> closeArguments = new ArrayList<>();
        db.idleRelease().observer(closeConnections -> {
            closeArguments.add(closeConnections);
            releasing.countDown();
            try {
                finish.await(WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        clock.advance(Duration.ofMillis(100));
        await(releasing);

        CompletableFuture<Integer> write = db.writeAsync(c -> c.createStatement().executeUpdate(
                "INSERT INTO t(v) VALUES ('during the release')"));
        assertThat(db.diagnostics().writer().queued()).as("the write waits behind the release")
                .isEqualTo(1);
        assertThat(write).isNotDone();

        finish.countDown();
        assertThat(write.join()).isEqualTo(1);
        assertThat(closeArguments).as("an idle release keeps the writer connection")
                .containsExactly(false);
    }

    @Test
    void aDatabaseClosedWhileItsReleaseWaitsInTheRunQueueNeverRunsItAndIsCollected()
            throws Exception {
        runtime(1);
        DatabaseImpl holder = open("holder.db", idle(Duration.ofMinutes(10)));
        CountDownLatch pool = hold(holder);
        // Held only through this box, so that the test can drop its last strong reference.
        DatabaseImpl[] box = {open("a.db", idle(Duration.ofMillis(100)))};
        AtomicInteger releases = countReleases(box[0]);
        clock.advance(Duration.ofMillis(100));
        awaitTrue("the release turn to queue",
                () -> lanes.diagnostics().runnableBackground() == 1);

        // close() needs the pool for the close turn; the only thread is held, so it waits.
        Database closingDb = box[0];
        CompletableFuture<Void> closing = CompletableFuture.runAsync(closingDb::close);
        closingDb = null;
        awaitTrue("the database to be closing", () -> box[0].state() == DatabaseState.CLOSING);
        pool.countDown();
        closing.get(WAIT_MS, TimeUnit.MILLISECONDS);
        TestLanes.awaitPoolQuiet(lanes);

        assertThat(box[0].state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(releases.get()).as("releases run after the close began").isZero();
        assertThat(lanes.diagnostics().openConnections()).as("only the holder's writer")
                .isEqualTo(1);

        java.lang.ref.WeakReference<Database> ref = new java.lang.ref.WeakReference<>(box[0]);
        box[0] = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ref.get() != null && System.nanoTime() - deadline < 0) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        assertThat(ref.get()).as("the closed database, collected within 10 s").isNull();
    }

    @Test
    void aDatabaseClosedWhileItsIdleCheckIsPendingIsNeverReleased() {
        runtime(2);
        Duration idle = Duration.ofMillis(200);
        DatabaseImpl db = open("a.db", idle(idle));
        AtomicInteger releases = countReleases(db);
        assertThat(pendingChecks()).isEqualTo(1);
        db.close();

        // Mark time with a control opened after the close: once it is released, the closed
        // database's check (due no later, on the same timer) would have fired.
        DatabaseImpl control = open("control.db", idle(idle));
        AtomicInteger controlReleases = countReleases(control);
        clock.advance(idle);
        awaitTrue("the control's release", () -> controlReleases.get() == 1);

        assertThat(releases.get()).as("releases of the closed database").isZero();
        assertThat(lanes.diagnostics().openConnections()).as("only the control's writer")
                .isEqualTo(1);
        assertThat(pendingChecks()).isZero();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
                fail("timed out waiting for a latch");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
