package dev.lanes.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import dev.lanes.RuntimeDiagnostics;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.internal.util.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Idle release, through the public API, on a manual clock: an idle period passes when
 * the test advances the clock by {@link #IDLE}, and the idle checks that come due then run on the
 * test's thread before {@code advance} returns. Two ways to see a release:
 * <ul>
 *   <li>Counted: an idle release is a background turn on the pool. With the one pool thread held
 *       by another database's write, that turn cannot run, so it stays visible in {@link
 *       RuntimeDiagnostics#runnableBackground()}.
 *   <li>By its effect: a release closes its database's idle reader connections.
 * </ul>
 * A control database, written after the moment a test cares about, marks time: its release is
 * due after every check the database under test could have had by then, and the timer runs
 * checks in the order they come due.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdleReleaseTest {
    private static final Duration IDLE = Duration.ofMillis(200);
    private static final DatabaseOptions RELEASING = DatabaseOptions.builder()
            .idleRelease(IDLE)
            .transactionIdleTimeout(Duration.ofSeconds(60))
            .build();

    final ManualClock clock = new ManualClock();
    /** One pool thread, so that holding it keeps every release turn queued and countable. */
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().name("idle")
            .maxThreads(1).clock(clock).build();

    private final List<TestLanes.Blocker> held = new ArrayList<>();

    @AfterEach
    void release() {
        held.forEach(TestLanes.Blocker::release); // also when an assertion failed midway
    }

    /** Holds the only pool thread with a write to a database that never idles in a test. */
    private TestLanes.Blocker holdThePool() {
        Database holder = runtime.open("holder.db");
        TestLanes.Blocker blocker = TestLanes.block(holder);
        held.add(blocker);
        return blocker;
    }

    private static int queuedReleases(Lanes lanes) {
        return lanes.diagnostics().runnableBackground();
    }

    @Test
    void anIdleDatabaseAsksForExactlyOneReleasePerIdlePeriodHoweverManyTurnsItRan() {
        Lanes lanes = runtime.lanes();
        TestLanes.Blocker pool = holdThePool();
        Database db = runtime.openWithTable("a.db", RELEASING);
        for (int i = 0; i < 200; i++) {
            db.execute("INSERT INTO t(v) VALUES (?)", "w" + i); // 200 turns in a row
        }
        clock.advance(IDLE);
        assertThat(queuedReleases(lanes)).as("releases queued after one idle period")
                .isEqualTo(1);

        // Had the database armed a second check when it asked for its release, that check
        // (due at most IDLE after the first fired) would come due no later than the release
        // of this control, written afterwards. The count reaches 2 with one of them; it must
        // stay there, checked every tenth of an idle period for five more idle periods.
        Database control = runtime.openWithTable("control.db", RELEASING);
        clock.advance(IDLE);
        int most = queuedReleases(lanes);
        for (int step = 0; step < 50; step++) {
            clock.advance(IDLE.dividedBy(10));
            most = Math.max(most, queuedReleases(lanes));
        }
        assertThat(most).as("releases queued: the database's once, and the control's")
                .isEqualTo(2);

        pool.release();
        TestLanes.awaitPoolQuiet(lanes);

        // Used again, it releases again after its next idle period: once.
        pool = holdThePool();
        db.execute("INSERT INTO t(v) VALUES ('again')");
        clock.advance(IDLE);
        assertThat(queuedReleases(lanes)).isEqualTo(1);
        control.execute("INSERT INTO t(v) VALUES ('control again')");
        clock.advance(IDLE);
        assertThat(queuedReleases(lanes)).isEqualTo(2);
        pool.release();
        TestLanes.awaitPoolQuiet(lanes);

        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(201);
    }

    /**
     * Pins the reader half of idle release: readers opened by {@code db.query} are closed, and a
     * later read opens one again. The release is proven to have run (queued, then the pool went
     * quiet) before the readers are counted, so a missing reader release fails here precisely.
     */
    @Test
    void anIdleReleaseClosesTheIdleReaderConnections() {
        Lanes lanes = runtime.lanes();
        TestLanes.Blocker pool = holdThePool();
        Database db = runtime.openWithTable("a.db", RELEASING);
        db.execute("INSERT INTO t(v) VALUES ('x')");
        assertThat(TestLanes.countOf(db, "x")).isEqualTo(1); // opens a reader on this thread
        assertThat(db.diagnostics().readers().openConnections()).isGreaterThanOrEqualTo(1);
        int readersBefore = db.diagnostics().readers().openConnections();
        int openBefore = lanes.diagnostics().openConnections();
        assertThat(openBefore).as("holder writer, writer, readers")
                .isEqualTo(2 + readersBefore);

        clock.advance(IDLE);
        assertThat(queuedReleases(lanes)).isEqualTo(1);
        pool.release();
        TestLanes.awaitPoolQuiet(lanes); // the release turn has run

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
        Lanes lanes = runtime.lanes();
        TestLanes.Blocker pool = holdThePool();
        Database db = runtime.openWithTable("a.db", RELEASING);
        db.execute("INSERT INTO t(v) VALUES ('x')");
        clock.advance(IDLE);
        assertThat(queuedReleases(lanes)).isEqualTo(1);
        pool.release();
        TestLanes.awaitPoolQuiet(lanes);

        pool = holdThePool();
        assertThat(TestLanes.countOf(db, "x")).isEqualTo(1); // reopens a reader; no write
        assertThat(db.diagnostics().readers().openConnections()).isEqualTo(1);
        // A control written after the read: its release comes due no earlier than the
        // database's. Both are expected once one idle period has passed.
        Database control = runtime.openWithTable("control.db", RELEASING);
        clock.advance(IDLE);
        assertThat(queuedReleases(lanes))
                .as("releases queued: the control's, and the database's after its reads")
                .isEqualTo(2);
        pool.release();
        TestLanes.awaitPoolQuiet(lanes);
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
        Lanes lanes = runtime.lanes();
        Database db = runtime.openWithTable("a.db", RELEASING);
        Database control = runtime.openWithTable("control.db", RELEASING);
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

        assertThat(db.isTransactionOpen()).isTrue();
        assertThat(db.diagnostics().writer().transaction()).isPresent();
        assertThat(tx.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
        tx.execute("INSERT INTO t(v) VALUES ('still usable')");
        tx.commit();
        assertThat(lanes.diagnostics().openConnections()).isEqualTo(open);

        // Once the transaction ended, the database idles and is released as usual.
        clock.advance(IDLE);
        TestLanes.awaitTrue("the database's release once its transaction ended",
                () -> db.diagnostics().readers().openConnections() == 0);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(3);
    }

    @Test
    void noReleaseWhileCorkedEvenIdleForSeveralPeriods() {
        Database db = runtime.openWithTable("a.db", RELEASING);
        Database control = runtime.openWithTable("control.db", RELEASING);
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

        assertThat(db.diagnostics().writer().corked()).isTrue();
        db.execute("INSERT INTO t(v) VALUES ('corked later')");
        db.uncork();

        clock.advance(IDLE);
        TestLanes.awaitTrue("the database's release once uncorked",
                () -> db.diagnostics().readers().openConnections() == 0);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(3);
    }

    /**
     * Opens a reader on the control, writes to it, lets one idle period pass and waits until its
     * release closed that reader.
     */
    private void awaitControlReleased(Database control, int period) {
        assertThat(TestLanes.countOf(control, "period " + period)).isZero(); // opens a reader
        control.execute("INSERT INTO t(v) VALUES (?)", "period " + period);
        clock.advance(IDLE);
        TestLanes.awaitTrue("the control's release in idle period " + period,
                () -> control.diagnostics().readers().openConnections() == 0);
    }
}
