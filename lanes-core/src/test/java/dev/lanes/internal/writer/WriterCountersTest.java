package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.BusyException;
import dev.lanes.Database;
import dev.lanes.WriterDiagnostics.Counters;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link dev.lanes.WriterDiagnostics#counters()}: acquisitions, BEGIN busy refusals and how many a retry
 * absorbed, BEGIN errors, request failures and UNKNOWN outcomes.
 *
 * <p>How busy waits count ({@code WriterConnection.beginImmediate}): one turn's {@code BEGIN
 * IMMEDIATE} attempts share one {@code busyTimeout} budget, and SQLite's own busy handler waits
 * out that budget inside the first attempt. So a lock another connection releases within the
 * timeout is absorbed by SQLite and is no refusal at all; a lock held past it is refused (and the
 * retries find no budget left). A refusal a retry overcomes needs SQLite to answer busy without
 * waiting, which the BEGIN fault point simulates.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WriterCountersTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    private static Counters counters(Database db) {
        return db.diagnostics().writer().counters();
    }

    private static void faults(Database db, FaultInjector injector) {
        ((DatabaseImpl) db).lane().faults(injector);
    }

    /** A busy refusal as the driver reports it: SQLITE_BUSY (5) in the vendor code. */
    private static SQLException busy() {
        return new SQLException("[SQLITE_BUSY] The database file is locked (database is locked)",
                null, 5);
    }

    /** A raw connection to the same file that takes SQLite's write lock. */
    private static Connection lockHolder(Database db) throws SQLException {
        Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db.path());
        c.setAutoCommit(true);
        c.createStatement().execute("BEGIN IMMEDIATE");
        return c;
    }

    @Test
    void acquisitionsGrowWithEachCommittedGroup() {
        Database db = runtime.openWithTable("acq.db");
        Counters start = counters(db);
        long groupsStart = db.diagnostics().writer().counters().groupsCommitted();

        for (int i = 0; i < 5; i++) {
            db.write(insert("single-" + i));
        }
        assertThat(counters(db).acquisitions() - start.acquisitions()).isEqualTo(5);

        // Three writes queued behind a held body commit as one group: one more acquisition.
        TestLanes.Blocker blocker = block(db);
        List<CompletableFuture<String>> grouped = List.of(db.writeAsync(insert("g1")),
                db.writeAsync(insert("g2")), db.writeAsync(insert("g3")));
        blocker.release();
        grouped.forEach(TestLanes::join);
        join(blocker.future);

        Counters end = counters(db);
        assertThat(end.acquisitions() - start.acquisitions()).isEqualTo(7);
        assertThat(db.diagnostics().writer().counters().groupsCommitted() - groupsStart).isEqualTo(7);
        assertThat(end.busyRefusals()).isZero();
        assertThat(end.busyAbsorbed()).isZero();
        assertThat(end.beginErrors()).isZero();
        assertThat(end.failed()).isZero();
        assertThat(end.unknownOutcomes()).isZero();
    }

    @Test
    void aLockReleasedWithinTheBusyTimeoutIsAbsorbedBySqliteWithoutARefusal() throws Exception {
        Database db = runtime.openWithTable("absorb.db",
                DatabaseOptions.builder().busyTimeout(Duration.ofSeconds(20)).build());
        Counters start = counters(db);
        CountDownLatch beginning = new CountDownLatch(1);
        faults(db, p -> {
            if (p == FaultInjector.Point.BEGIN) {
                beginning.countDown();
            }
        });

        try (Connection holder = lockHolder(db)) {
            CompletableFuture<String> write = db.writeAsync(insert("waited"));
            TestLanes.await(beginning, "the write to reach BEGIN IMMEDIATE");
            assertThat(write).as("cannot commit while the lock is held").isNotDone();
            holder.createStatement().execute("COMMIT");

            assertThat(join(write)).isEqualTo("waited");
        }

        Counters end = counters(db);
        assertThat(end.acquisitions() - start.acquisitions()).isEqualTo(1);
        assertThat(end.busyRefusals()).as("SQLite's busy handler waited; BEGIN never refused")
                .isZero();
        assertThat(end.busyAbsorbed()).isZero();
        assertThat(end.failed()).isZero();
    }

    @Test
    void aLockHeldPastTheBusyTimeoutIsRefusedBusyAndCounted() throws Exception {
        // With no busy budget, SQLite refuses at once and nothing is retried: exactly one refusal.
        Database db = runtime.openWithTable("refused.db",
                DatabaseOptions.builder().busyTimeout(Duration.ZERO).build());
        Counters start = counters(db);

        try (Connection holder = lockHolder(db)) {
            BusyException e = catchThrowableOfType(BusyException.class, () -> db.write(insert("no")));
            assertThat(e).isNotNull();
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.retryable()).isTrue();
            holder.createStatement().execute("ROLLBACK");
        }

        Counters end = counters(db);
        assertThat(end.busyRefusals() - start.busyRefusals()).isEqualTo(1);
        assertThat(end.busyAbsorbed()).isZero();
        assertThat(end.acquisitions()).isEqualTo(start.acquisitions());
        assertThat(end.beginErrors()).isZero();
        assertThat(end.failed() - start.failed()).isEqualTo(1);

        assertThat(db.write(insert("after"))).isEqualTo("after");
        assertThat(counters(db).acquisitions() - start.acquisitions()).isEqualTo(1);
        assertThat(counters(db).busyAbsorbed()).as("a new turn is no retry").isZero();
    }

    @Test
    void aLockHeldPastANonZeroBusyTimeoutIsRefusedAtLeastOnceAndNeverAbsorbed() throws Exception {
        Database db = runtime.openWithTable("refused2.db",
                DatabaseOptions.builder().busyTimeout(Duration.ofMillis(200)).build());
        Counters start = counters(db);

        try (Connection holder = lockHolder(db)) {
            BusyException e = catchThrowableOfType(BusyException.class, () -> db.write(insert("no")));
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).contains("refused2.db").contains("busyTimeout 200 ms");
            holder.createStatement().execute("ROLLBACK");
        }

        Counters end = counters(db);
        assertThat(end.busyRefusals() - start.busyRefusals()).isBetween(1L, 3L);
        assertThat(end.busyAbsorbed()).isZero();
        assertThat(end.acquisitions()).isEqualTo(start.acquisitions());
    }

    @Test
    void aBusyRefusalThatARetryOvercomesCountsAsAbsorbed() {
        Database db = runtime.openWithTable("retry.db");
        Counters start = counters(db);
        AtomicInteger refusalsLeft = new AtomicInteger(1);
        faults(db, p -> {
            if (p == FaultInjector.Point.BEGIN && refusalsLeft.getAndDecrement() > 0) {
                throw busy();
            }
        });

        assertThat(db.write(insert("retried"))).isEqualTo("retried");

        Counters end = counters(db);
        assertThat(end.busyRefusals() - start.busyRefusals()).isEqualTo(1);
        assertThat(end.busyAbsorbed() - start.busyAbsorbed()).isEqualTo(1);
        assertThat(end.acquisitions() - start.acquisitions()).isEqualTo(1);
        assertThat(end.failed()).isZero();
    }

    @Test
    void everyBusyRefusalThatALaterRetryOvercameCountsAsAbsorbed() {
        // WriterDiagnostics.Counters: "busyAbsorbed: busy refusals that a later retry of
        // the same turn overcame". Two refusals, then success: both were overcome.
        Database db = runtime.openWithTable("retry2.db");
        Counters start = counters(db);
        AtomicInteger refusalsLeft = new AtomicInteger(2);
        faults(db, p -> {
            if (p == FaultInjector.Point.BEGIN && refusalsLeft.getAndDecrement() > 0) {
                throw busy();
            }
        });

        assertThat(db.write(insert("retried twice"))).isEqualTo("retried twice");

        Counters end = counters(db);
        assertThat(end.busyRefusals() - start.busyRefusals()).isEqualTo(2);
        assertThat(end.busyAbsorbed() - start.busyAbsorbed())
                .as("both refusals were overcome by the turn's last retry").isEqualTo(2);
    }

    @Test
    void refusalsNoRetryOvercomesAreNotAbsorbed() {
        Database db = runtime.openWithTable("retry3.db");
        Counters start = counters(db);
        faults(db, p -> {
            if (p == FaultInjector.Point.BEGIN) {
                throw busy();
            }
        });

        BusyException e = catchThrowableOfType(BusyException.class, () -> db.write(insert("never")));

        assertThat(e).isNotNull();
        Counters end = counters(db);
        assertThat(end.busyRefusals() - start.busyRefusals()).as("the first try and two retries")
                .isEqualTo(3);
        assertThat(end.busyAbsorbed()).isZero();
        assertThat(end.failed() - start.failed()).isEqualTo(1);
    }

    @Test
    void aBeginThatFailsOtherwiseCountsABeginErrorAndARequestFailure() {
        Database db = runtime.openWithTable("begin.db");
        Counters start = counters(db);
        faults(db, p -> {
            if (p == FaultInjector.Point.BEGIN) {
                throw new SQLException("injected");
            }
        });

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(insert("never")));

        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getCause()).hasMessage("injected");
        Counters end = counters(db);
        assertThat(end.beginErrors() - start.beginErrors()).isEqualTo(1);
        assertThat(end.busyRefusals()).isZero();
        assertThat(end.acquisitions()).isEqualTo(start.acquisitions());
        assertThat(end.failed() - start.failed()).isEqualTo(1);
        assertThat(end.unknownOutcomes()).isZero();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();

        faults(db, FaultInjector.NONE);
        assertThat(db.write(insert("later"))).isEqualTo("later");
    }

    @Test
    void failedRequestsAreCountedAndThoseEndingUnknownAlsoAsUnknown() {
        Database db = runtime.openWithTable("fail.db");
        Counters start = counters(db);

        // A failing body, cleanly rolled back.
        WriteFailedException rolledBack = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(c -> {
                    throw new IllegalStateException("body fails");
                }));
        assertThat(rolledBack.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        Counters afterRollback = counters(db);
        assertThat(afterRollback.failed() - start.failed()).isEqualTo(1);
        assertThat(afterRollback.unknownOutcomes()).isZero();
        assertThat(db.diagnostics().writer().counters().failed()).isEqualTo(afterRollback.failed());

        // A failing body whose rollback fails: whether it persisted is unknown.
        faults(db, p -> {
            if (p == FaultInjector.Point.ROLLBACK) {
                throw new SQLException("injected rollback failure");
            }
        });
        WriteFailedException unknown = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(c -> {
                    c.createStatement().execute("INSERT INTO t(v) VALUES ('maybe')");
                    throw new IllegalStateException("body fails again");
                }));
        assertThat(unknown.outcome()).isEqualTo(WriteOutcome.UNKNOWN);

        Counters end = counters(db);
        assertThat(end.failed() - start.failed()).isEqualTo(2);
        assertThat(end.unknownOutcomes() - start.unknownOutcomes()).isEqualTo(1);
        assertThat(end.beginErrors()).isZero();
        assertThat(db.diagnostics().writer().poisoned()).as("an unverified rollback poisons").isTrue();
    }
}
