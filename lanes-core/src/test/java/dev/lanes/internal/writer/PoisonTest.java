package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.BusyException;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseState;
import dev.lanes.ErrorCode;
import dev.lanes.LanesException;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A rollback that cannot be verified poisons the writer, honestly; a failed COMMIT that rolls
 * back cleanly does not.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PoisonTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;
    /** The fault point that fails now; null injects nothing. */
    final AtomicReference<FaultInjector.Point> failing = new AtomicReference<>();
    /** How many more times the armed point fails; negative means every time. */
    final AtomicInteger remaining = new AtomicInteger(-1);

    @BeforeEach
    void start() {
        db = runtime.open("poison.db");
        // Installed before the first use, when the writer connection opens.
        ((DatabaseImpl) db).lane().faults(point -> {
            if (point == failing.get() && remaining.getAndDecrement() != 0) {
                throw new SQLException("injected " + point);
            }
        });
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    }

    @Test
    void aRollbackThatCannotRunPoisonsTheWriterAndFailsQueuedWorkNotStarted() {
        IllegalStateException boom = new IllegalStateException("boom");
        List<CompletableFuture<String>> queued = new ArrayList<>();
        Blocker culprit = block(db, c -> {
            insert("culprit").apply(c);
            throw boom; // alone in its group: the whole transaction must roll back
        });
        try (culprit) {
            for (int i = 0; i < 5; i++) {
                queued.add(db.writeAsync(insert("queued-" + i)));
            }
            failing.set(FaultInjector.Point.ROLLBACK);
            culprit.release();
        }

        LanesException unknown = failureOf(culprit.future);
        assertThat(unknown).isInstanceOf(WriteFailedException.class);
        assertThat(unknown.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(unknown.getCause()).isSameAs(boom);

        for (CompletableFuture<String> q : queued) {
            LanesException e = failureOf(q);
            assertThat(e).isInstanceOf(WriterPoisonedException.class);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        }

        DatabaseDiagnostics d = db.diagnostics();
        assertThat(d.writer().poisoned()).isTrue();
        assertThat(d.writer().poisonCause()).isPresent();
        assertThat(d.writer().poisonCause().get()).containsIgnoringCase("rollback");
        assertThat(d.writer().queued()).isZero();

        failing.set(null); // the fault is gone, but a poisoned writer stays poisoned
        WriterPoisonedException later = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.write(insert("later")));
        assertThat(later.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(later.code()).isEqualTo(ErrorCode.WRITER_POISONED);
        WriterPoisonedException laterAsync = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.writeAsync(insert("later-async")));
        assertThat(laterAsync.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        WriterPoisonedException statement = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('stmt')"));
        assertThat(statement.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);

        // Reads go on, and see nothing of the writes whose fate was never settled by a commit.
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isZero();
    }

    @Test
    void aPoisonedDatabaseRecoversByBeingClosedAndReopened() {
        failing.set(FaultInjector.Point.ROLLBACK);
        LanesException e = catchThrowableOfType(LanesException.class, () -> db.write(c -> {
            insert("culprit").apply(c);
            throw new IllegalStateException("boom");
        }));
        assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(db.diagnostics().writer().poisoned()).isTrue();

        db.close();
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        Database reopened = runtime.lanes().open(db.path());
        assertThat(reopened).isNotSameAs(db);
        assertThat(reopened.diagnostics().writer().poisoned()).isFalse();
        assertThat(reopened.write(insert("fresh"))).isEqualTo("fresh");
        assertThat(countOf(reopened, "fresh")).isEqualTo(1);
    }

    @Test
    void aFailedCommitRollsBackTheWholeGroupWithoutPoisoningTheWriter() {
        List<CompletableFuture<String>> group = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 4; i++) {
                String v = "g" + i;
                group.add(db.writeAsync(c -> {
                    // The group's first body arms the fault, so exactly this group's COMMIT fails.
                    failing.set(FaultInjector.Point.COMMIT);
                    return insert(v).apply(c);
                }));
            }
            blocker.release();
            assertThat(join(blocker.future)).isEqualTo("blocker");
        }
        for (CompletableFuture<String> w : group) {
            LanesException e = failureOf(w);
            assertThat(e).isInstanceOf(WriteFailedException.class);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(e.getCause()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("injected COMMIT");
        }
        assertThat(db.diagnostics().writer().poisoned()).isFalse();

        failing.set(null);
        for (int i = 0; i < 4; i++) {
            assertThat(countOf(db, "g" + i)).as("rolled back g%d", i).isZero();
        }
        assertThat(db.write(insert("after"))).isEqualTo("after");
        assertThat(countOf(db, "after")).isEqualTo(1);
    }

    @Test
    void aBeginThatFailsForAnotherReasonThanBusyFailsTheGroupNotStartedWithoutRunningIt() {
        AtomicBoolean ran = new AtomicBoolean();
        failing.set(FaultInjector.Point.BEGIN);
        LanesException e = catchThrowableOfType(LanesException.class, () -> db.write(c -> {
            ran.set(true);
            return insert("never").apply(c);
        }));
        failing.set(null);

        assertThat(e).isNotNull();
        assertThat(e).isNotInstanceOf(BusyException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(ran).isFalse();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.write(insert("after"))).isEqualTo("after");
        assertThat(countOf(db, "never")).isZero();
    }

    @Test
    void aSavepointStepThatFailsInAGroupCostsOnlyItsRequestAndTheOthersCommitOnce() {
        for (FaultInjector.Point point : List.of(FaultInjector.Point.SAVEPOINT,
                FaultInjector.Point.RELEASE, FaultInjector.Point.ROLLBACK_TO)) {
            IllegalStateException boom = new IllegalStateException("boom");
            CompletableFuture<String> first;
            CompletableFuture<String> failing;
            CompletableFuture<String> last;
            try (Blocker blocker = block(db)) {
                first = db.writeAsync(insert(point + "-first"));
                failing = db.writeAsync(c -> {
                    insert(point + "-failing").apply(c);
                    throw boom;
                });
                last = db.writeAsync(insert(point + "-last"));
                this.remaining.set(1); // only the first such step of the group fails
                this.failing.set(point);
                blocker.release();
            }
            LanesException f = failureOf(failing);
            assertThat(f.outcome()).as(point.name()).isIn(WriteOutcome.ROLLED_BACK,
                    WriteOutcome.NOT_STARTED);
            List<LanesException> others = new ArrayList<>();
            for (CompletableFuture<String> w : List.of(first, last)) {
                join(w.handle((v, t) -> v)); // settled, either way
                if (w.isCompletedExceptionally()) {
                    others.add(failureOf(w));
                } else {
                    join(w);
                }
            }
            this.failing.set(null);
            // Whichever request the failed step belonged to fails without a trace in the data;
            // every other request either committed exactly once or failed ROLLED_BACK.
            assertThat(others).as(point.name()).allSatisfy(e -> assertThat(e.outcome())
                    .isIn(WriteOutcome.ROLLED_BACK, WriteOutcome.NOT_STARTED));
            assertThat(countOf(db, point + "-failing")).as(point.name()).isZero();
            for (String v : List.of(point + "-first", point + "-last")) {
                assertThat(countOf(db, v)).as(v).isLessThanOrEqualTo(1);
            }
            assertThat(countOf(db, point + "-first") + countOf(db, point + "-last") + others.size())
                    .as("%s: each innocent committed once or failed", point).isEqualTo(2);
            assertThat(db.diagnostics().writer().poisoned()).isFalse();
        }
    }

    @Test
    void aFailedRollbackToSavepointStillReportsTheBodysOwnFailure() {
        IllegalStateException boom = new IllegalStateException("the body's own reason");
        CompletableFuture<String> neighbour;
        CompletableFuture<String> culprit;
        try (Blocker blocker = block(db)) {
            neighbour = db.writeAsync(insert("neighbour"));
            culprit = db.writeAsync(c -> {
                throw boom;
            });
            remaining.set(1);
            failing.set(FaultInjector.Point.ROLLBACK_TO);
            blocker.release();
        }
        LanesException e = failureOf(culprit);
        failing.set(null);
        assertThat(join(neighbour)).isEqualTo("neighbour");
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(causesAndSuppressed(e)).as("why the body failed is not lost").contains(boom);
    }

    private static List<Throwable> causesAndSuppressed(Throwable t) {
        List<Throwable> all = new ArrayList<>();
        for (Throwable c = t; c != null && !all.contains(c); c = c.getCause()) {
            all.add(c);
            all.addAll(List.of(c.getSuppressed()));
        }
        return all;
    }

    @Test
    void aFaultInjectorInstalledAfterTheConnectionOpenedTakesEffect() {
        // The connection is open (the table exists). A test seam that silently ignores a later
        // installation makes every failure-path test written that way pass vacuously.
        ((DatabaseImpl) db).lane().faults(point -> {
            if (point == FaultInjector.Point.COMMIT) {
                throw new SQLException("injected late");
            }
        });
        LanesException e = catchThrowableOfType(LanesException.class,
                () -> db.write(insert("late")));
        assertThat(e).as("the COMMIT fault installed after open was injected").isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
    }
}
