package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.Blocker;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A failing write body, whatever it throws, rolls back alone and leaves the lane working. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FailureIsolationTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("iso.db");
    }

    /** Inserts {@code v}, then throws {@code failure}. */
    private static SqlFunction<String> insertThenThrow(String v, Throwable failure) {
        return c -> {
            insert(v).apply(c);
            if (failure instanceof Exception) {
                throw (Exception) failure;
            }
            throw (Error) failure;
        };
    }

    @Test
    void failedBodiesInAGroupRollBackOnlyTheirOwnWork() {
        Map<String, Throwable> failures = new HashMap<>();
        Map<String, CompletableFuture<String>> writes = new HashMap<>();
        DatabaseDiagnostics before = db.diagnostics();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 12; i++) {
                String v = "w" + i;
                if (i % 3 == 1) {
                    Throwable boom = i % 2 == 0 ? new IllegalStateException("boom " + v)
                            : new SQLException("app refused " + v);
                    failures.put(v, boom);
                    writes.put(v, db.writeAsync(insertThenThrow(v, boom)));
                } else {
                    writes.put(v, db.writeAsync(insert(v)));
                }
            }
            blocker.release();
        }
        for (Map.Entry<String, CompletableFuture<String>> w : writes.entrySet()) {
            String v = w.getKey();
            if (failures.containsKey(v)) {
                LanesException e = failureOf(w.getValue());
                assertThat(e).isInstanceOf(WriteFailedException.class);
                assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
                assertThat(e.code()).isEqualTo(ErrorCode.WRITE_FAILED);
                assertThat(e.getCause()).isSameAs(failures.get(v));
                assertThat(countOf(db, v)).as("row of failed %s", v).isZero();
            } else {
                assertThat(join(w.getValue())).isEqualTo(v);
                assertThat(countOf(db, v)).as("row of innocent %s", v).isEqualTo(1);
            }
        }
        DatabaseDiagnostics after = db.diagnostics();
        assertThat(after.writer().counters().failed() - before.writer().counters().failed()).isEqualTo(failures.size());
    }

    @Test
    void failedStatementInABodyRollsBackTheBodysEarlierStatementsButNotItsNeighbours() {
        db.execute("CREATE TABLE u(k TEXT UNIQUE)");
        db.execute("INSERT INTO u(k) VALUES ('taken')");
        CompletableFuture<String> before;
        CompletableFuture<Object> culprit;
        CompletableFuture<String> after;
        try (Blocker blocker = block(db)) {
            before = db.writeAsync(insert("before"));
            culprit = db.writeAsync(c -> {
                insert("culprit").apply(c);
                c.createStatement().executeUpdate("INSERT INTO u(k) VALUES ('taken')"); // ABORT
                return null;
            });
            after = db.writeAsync(insert("after"));
            blocker.release();
        }
        LanesException e = failureOf(culprit);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).isInstanceOf(SQLException.class);
        assertThat(countOf(db, "culprit")).isZero();
        assertThat(join(before)).isEqualTo("before");
        assertThat(join(after)).isEqualTo("after");
        assertThat(countOf(db, "before")).isEqualTo(1);
        assertThat(countOf(db, "after")).isEqualTo(1);
    }

    @Test
    void aFailingWriteAloneInItsGroupRollsBack() {
        IllegalStateException boom = new IllegalStateException("boom");
        LanesException e = catchThrowableOfType(LanesException.class,
                () -> db.write(insertThenThrow("lonely", boom)));

        assertThat(e).isInstanceOf(WriteFailedException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).isSameAs(boom);
        assertThat(countOf(db, "lonely")).isZero();
        assertThat(db.write(insert("next"))).isEqualTo("next");
        assertThat(countOf(db, "next")).isEqualTo(1);
    }

    @Test
    void aFailingAsyncWriteAloneInItsGroupRollsBack() {
        IllegalStateException boom = new IllegalStateException("boom");
        LanesException e = failureOf(db.writeAsync(insertThenThrow("lonely", boom)));

        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).isSameAs(boom);
        assertThat(countOf(db, "lonely")).isZero();
    }

    @Test
    void errorsThrownByBodiesAreContainedAndTheCallersThreadGoesOn() {
        for (Error error : List.of(new AssertionError("assert"), new StackOverflowError("deep"),
                new OutOfMemoryError("pretend"))) {
            LanesException e = catchThrowableOfType(LanesException.class,
                    () -> db.write(insertThenThrow("err", error)));
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(e.getCause()).isSameAs(error);
        }
        assertThat(countOf(db, "err")).isZero();
        assertThat(db.write(insert("later"))).isEqualTo("later");
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void errorsThrownByBodiesOnAPoolThreadLeaveThatThreadRunningLaterTurns() {
        Lanes single = runtime.another(Lanes.builder().name("one").maxThreads(1));
        Database one = TestLanes.withTable(single.open(runtime.path("one.db")));
        AtomicReference<Thread> failedOn = new AtomicReference<>();
        AtomicReference<Thread> laterOn = new AtomicReference<>();
        AssertionError assertion = new AssertionError("assert");
        StackOverflowError overflow = new StackOverflowError("deep");

        LanesException first = failureOf(one.writeAsync(c -> {
            failedOn.set(Thread.currentThread());
            throw assertion;
        }));
        LanesException second = failureOf(one.writeAsync(insertThenThrow("so", overflow)));
        String later = join(one.writeAsync(c -> {
            laterOn.set(Thread.currentThread());
            return insert("later").apply(c);
        }));

        assertThat(first.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(first.getCause()).isSameAs(assertion);
        assertThat(second.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(second.getCause()).isSameAs(overflow);
        assertThat(later).isEqualTo("later");
        assertThat(laterOn.get()).as("the one pool thread survived the Errors")
                .isSameAs(failedOn.get());
        assertThat(single.diagnostics().liveThreads()).isEqualTo(1);
        assertThat(countOf(one, "so")).isZero();
    }

    @Test
    void anErrorInAGroupRollsBackOnlyItsBody() {
        AssertionError error = new AssertionError("in a group");
        List<CompletableFuture<String>> innocents = new ArrayList<>();
        CompletableFuture<String> culprit;
        try (Blocker blocker = block(db)) {
            innocents.add(db.writeAsync(insert("i1")));
            culprit = db.writeAsync(insertThenThrow("bad", error));
            innocents.add(db.writeAsync(insert("i2")));
            blocker.release();
        }
        LanesException e = failureOf(culprit);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).isSameAs(error);
        innocents.forEach(TestLanes::join);
        assertThat(countOf(db, "i1")).isEqualTo(1);
        assertThat(countOf(db, "i2")).isEqualTo(1);
        assertThat(countOf(db, "bad")).isZero();
    }
}
