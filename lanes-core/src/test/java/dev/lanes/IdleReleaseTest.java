package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6, idle release, through the public API, with no clock of the tests' own. Two ways to
 * see a release:
 * <ul>
 *   <li>Counted: an idle release is a background turn on the pool. With the one pool thread held
 *       by another database's write, that turn cannot run, so it stays visible in {@link
 *       RuntimeDiagnostics#runnableBackground()}.
 *   <li>By its effect: a release closes its database's idle reader connections.
 * </ul>
 * A control database, written after the moment a test cares about, marks time: its release is
 * due after every check the database under test could have had by then, since the runtime's
 * single timer thread fires checks in the order they are due.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdleReleaseTest {
    @TempDir Path dir;

    private static final Duration IDLE = Duration.ofMillis(200);
    private static final DatabaseOptions RELEASING = DatabaseOptions.builder()
            .idleRelease(IDLE)
            .transactionIdleTimeout(Duration.ofSeconds(60))
            .build();

    private final List<TestLanes.Blocker> held = new ArrayList<>();
    private Lanes lanes;

    /** One pool thread, so that holding it keeps every release turn queued and countable. */
    private Lanes oneThread() {
        lanes = Lanes.builder().name("idle").maxThreads(1).build();
        return lanes;
    }

    @AfterEach
    void releaseAndClose() {
        held.forEach(TestLanes.Blocker::release); // also when an assertion failed midway
        if (lanes != null) {
            lanes.close();
        }
    }

    /** Holds the only pool thread with a write to a database that never idles in a test. */
    private TestLanes.Blocker holdThePool(Lanes lanes) {
        Database holder = lanes.open(dir.resolve("holder.db"));
        TestLanes.Blocker blocker = TestLanes.block(holder);
        held.add(blocker);
        return blocker;
    }

    private static int awaitQueuedReleases(Lanes lanes, int atLeast) {
        TestLanes.awaitTrue(atLeast + " background release turn(s) to queue",
                () -> lanes.diagnostics().runnableBackground() >= atLeast);
        return lanes.diagnostics().runnableBackground();
    }

    private static void awaitPoolQuiet(Lanes lanes) {
        TestLanes.awaitTrue("the pool to run everything queued", () -> {
            RuntimeDiagnostics d = lanes.diagnostics();
            return d.busyThreads() == 0 && d.runnableForeground() == 0
                    && d.runnableBackground() == 0;
        });
    }

    @Test
    void anIdleDatabaseAsksForExactlyOneReleasePerIdlePeriodHoweverManyTurnsItRan() {
        Lanes lanes = oneThread();
        TestLanes.Blocker pool = holdThePool(lanes);
        Database db = TestLanes.openWithTable(lanes, dir, "a.db", RELEASING);
        for (int i = 0; i < 200; i++) {
            db.execute("INSERT INTO t(v) VALUES (?)", "w" + i); // 200 turns in a row
        }
        assertThat(awaitQueuedReleases(lanes, 1)).as("releases queued after one idle period")
                .isEqualTo(1);

        // Had the database armed a second check when it asked for its release, that check
        // (due at most IDLE after the first fired) would come due no later than the release
        // of this control, written afterwards. The count reaches 2 with one of them; it must
        // stay there, checked for five more idle periods (a bound for the failure only).
        Database control = TestLanes.openWithTable(lanes, dir, "control.db", RELEASING);
        awaitQueuedReleases(lanes, 2);
        long until = System.nanoTime() + 5 * IDLE.toNanos();
        int most = 0;
        while (System.nanoTime() - until < 0) {
            most = Math.max(most, lanes.diagnostics().runnableBackground());
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(most).as("releases queued: the database's once, and the control's")
                .isEqualTo(2);

        pool.release();
        awaitPoolQuiet(lanes);

        // Used again, it releases again after its next idle period: once.
        pool = holdThePool(lanes);
        db.execute("INSERT INTO t(v) VALUES ('again')");
        assertThat(awaitQueuedReleases(lanes, 1)).isEqualTo(1);
        control.execute("INSERT INTO t(v) VALUES ('control again')");
        assertThat(awaitQueuedReleases(lanes, 2)).isEqualTo(2);
        pool.release();
        awaitPoolQuiet(lanes);

        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(201);
    }

    /**
     * Pins the reader half of idle release: readers opened by {@code db.query} are closed, and a
     * later read opens one again. The release is proven to have run (queued, then the pool went
     * quiet) before the readers are counted, so a missing reader release fails here precisely.
     */
    @Test
    void anIdleReleaseClosesTheIdleReaderConnections() {
        Lanes lanes = oneThread();
        TestLanes.Blocker pool = holdThePool(lanes);
        Database db = TestLanes.openWithTable(lanes, dir, "a.db", RELEASING);
        db.execute("INSERT INTO t(v) VALUES ('x')");
        assertThat(TestLanes.countOf(db, "x")).isEqualTo(1); // opens a reader on this thread
        assertThat(db.diagnostics().readers().openConnections()).isGreaterThanOrEqualTo(1);
        int readersBefore = db.diagnostics().readers().openConnections();
        int openBefore = lanes.diagnostics().openConnections();
        assertThat(openBefore).as("holder writer, writer, readers")
                .isEqualTo(2 + readersBefore);

        assertThat(awaitQueuedReleases(lanes, 1)).isEqualTo(1);
        pool.release();
        awaitPoolQuiet(lanes); // the release turn has run

        assertThat(db.diagnostics().readers().openConnections())
                .as("reader connections left open by the idle release")
                .isZero();
        assertThat(lanes.diagnostics().openConnections())
                .as("connections open after the idle release (was %d)", openBefore)
                .isEqualTo(2);
        // And a later read opens a reader again, transparently.
        assertThat(TestLanes.countOf(db, "x")).isEqualTo(1);
    }

    /**
     * A database that is only read after an idle release reopens a reader; once the reads stop,
     * it is unused again and must release that reader after the next idle period, as it did the
     * first time.
     */
    @Test
    void readersOpenedAfterAReleaseAreReleasedAfterTheNextIdlePeriodToo() {
        Lanes lanes = oneThread();
        TestLanes.Blocker pool = holdThePool(lanes);
        Database db = TestLanes.openWithTable(lanes, dir, "a.db", RELEASING);
        db.execute("INSERT INTO t(v) VALUES ('x')");
        assertThat(awaitQueuedReleases(lanes, 1)).isEqualTo(1);
        pool.release();
        awaitPoolQuiet(lanes);

        pool = holdThePool(lanes);
        assertThat(TestLanes.countOf(db, "x")).isEqualTo(1); // reopens a reader; no write
        assertThat(db.diagnostics().readers().openConnections()).isEqualTo(1);
        // A control written after the read: its release comes due after the database's would.
        // Both are expected; the wait gives up after ten idle periods (a bound for the failure
        // report only: when the releases come, the wait ends as soon as both are queued).
        Database control = TestLanes.openWithTable(lanes, dir, "control.db", RELEASING);
        long giveUp = System.nanoTime() + 10 * IDLE.toNanos();
        while (lanes.diagnostics().runnableBackground() < 2 && System.nanoTime() - giveUp < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(lanes.diagnostics().runnableBackground())
                .as("releases queued: the control's, and the database's after its reads")
                .isEqualTo(2);
        pool.release();
        awaitPoolQuiet(lanes);
        assertThat(db.diagnostics().readers().openConnections()).isZero();
        assertThat(control.state()).isEqualTo(DatabaseState.RUNNING);
    }

    /**
     * Never while a transaction is open, however long it idles. Releases are told apart by
     * their effect here: each closes its database's idle reader. The pool is not held: with one
     * thread, release turns run one after the other in the order they were asked for, and the
     * control's, due last, runs last; once the control's reader is closed, any release of the
     * database due before it has run.
     */
    @Test
    void noReleaseWhileAnInteractiveTransactionIsOpenEvenIdleForSeveralPeriods() {
        Lanes lanes = oneThread();
        Database db = TestLanes.openWithTable(lanes, dir, "a.db", RELEASING);
        Database control = TestLanes.openWithTable(lanes, dir, "control.db", RELEASING);
        db.execute("INSERT INTO t(v) VALUES ('before')"); // arms its idle check
        assertThat(TestLanes.countOf(db, "before")).isEqualTo(1); // its idle reader
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in tx')");
        int open = lanes.diagnostics().openConnections();

        // The transaction sits idle through three of the control's idle periods, each begun
        // after the previous one ended.
        for (int period = 1; period <= 3; period++) {
            awaitControlReleased(control, period);
            assertThat(db.diagnostics().readers().openConnections())
                    .as("the database's reader after idle period %d with the transaction open",
                            period)
                    .isEqualTo(1);
        }

        assertThat(db.transactionOpen()).isTrue();
        assertThat(db.diagnostics().transaction()).isPresent();
        assertThat(tx.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
        tx.execute("INSERT INTO t(v) VALUES ('still usable')");
        tx.commit();
        assertThat(lanes.diagnostics().openConnections()).isEqualTo(open);

        // Once the transaction ended, the database idles and is released as usual.
        TestLanes.awaitTrue("the database's release once its transaction ended",
                () -> db.diagnostics().readers().openConnections() == 0);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(3);
    }

    @Test
    void noReleaseWhileCorkedEvenIdleForSeveralPeriods() {
        Lanes lanes = oneThread();
        Database db = TestLanes.openWithTable(lanes, dir, "a.db", RELEASING);
        Database control = TestLanes.openWithTable(lanes, dir, "control.db", RELEASING);
        db.execute("INSERT INTO t(v) VALUES ('before')");
        assertThat(TestLanes.countOf(db, "before")).isEqualTo(1); // its idle reader, before cork
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");

        for (int period = 1; period <= 3; period++) {
            awaitControlReleased(control, period);
            assertThat(db.diagnostics().readers().openConnections())
                    .as("the database's reader after idle period %d while corked", period)
                    .isEqualTo(1);
        }

        assertThat(db.diagnostics().corked()).isTrue();
        db.execute("INSERT INTO t(v) VALUES ('corked later')");
        db.uncork();

        TestLanes.awaitTrue("the database's release once uncorked",
                () -> db.diagnostics().readers().openConnections() == 0);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(3);
    }

    /** Opens a reader on the control, writes to it, and waits until its release closed it. */
    private static void awaitControlReleased(Database control, int period) {
        assertThat(TestLanes.countOf(control, "period " + period)).isZero(); // opens a reader
        control.execute("INSERT INTO t(v) VALUES (?)", "period " + period);
        TestLanes.awaitTrue("the control's release in idle period " + period,
                () -> control.diagnostics().readers().openConnections() == 0);
    }
}
