package dev.lanes.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.BusyException;
import dev.lanes.LanesException;
import dev.lanes.SqlFunction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.ManualClock;
import dev.lanes.internal.writer.WriteRequest.BodyWrite;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.StatementWrite;
import dev.lanes.internal.sql.text.StatementShape;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The rules of one commit group ({@link GroupCommit}), on a {@link FakeLaneConnection}: what
 * runs again after a request ended the shared transaction, and the outcome every request gets
 * when a step of the transaction fails. Each test states the group, the failure, and the outcome
 * of every member.
 */
class GroupCommitRulesTest {
    private static final String NAME = "g.db";

    private final FakeLaneConnection db = new FakeLaneConnection();
    private final ManualClock clock = new ManualClock();
    private final List<String> poisons = new ArrayList<>();
    private final List<Set<String>> commits = new ArrayList<>();
    private final WriteTelemetry telemetry = new WriteTelemetry(
            PartialLaneSetup.forTelemetry(NAME, Duration.ofSeconds(10), clock));
    private final LaneTransaction transaction = new LaneTransaction(NAME, Duration.ofSeconds(5),
            new DiskReserve(NAME, Path.of(NAME), 0, clock, MetricsReporter.NONE), poisons::add,
            null, telemetry);
    private final GroupCommit groupCommit = new GroupCommit(transaction,
            new Cork(transaction, telemetry,
                    new LaneState(PartialLaneSetup.forTelemetry(NAME, Duration.ofSeconds(10), clock), null)), telemetry, clock);
    private final CommitObserver observer = new CommitObserver() {
        @Override
        public boolean tracksTables() {
            return true;
        }

        @Override
        public void committed(Set<String> tables) {
            commits.add(tables);
        }
    };

    // ------------------------------------------------------------------ requests

    /** A replayable body labelled {@code label} that inserts {@code label} and returns it. */
    private BodyWrite write(String label) {
        return body(label, true, c -> {
            db.insert(label);
            return label;
        });
    }

    private BodyWrite body(String label, boolean replayable, SqlFunction<?> body) {
        return new BodyWrite(WriteOptions.builder().label(label).replayable(replayable).build(),
                body, clock.nanoTime());
    }

    /** A body that ends the shared transaction from inside, as {@code OR ROLLBACK} does. */
    private BodyWrite culprit(String label) {
        return body(label, true, c -> {
            db.insert(label);
            db.endTransaction();
            return label;
        });
    }

    private static StatementWrite statement(String sql) {
        return new StatementWrite(StatementShape.of(sql), new Object[0],
                Returns.COUNT, 0);
    }

    private void run(GroupWrite... group) {
        groupCommit.runToEnd(List.of(group), db, observer);
        for (GroupWrite r : group) {
            assertThat(r.stages.recorded()).as("%s has an outcome", r.describe()).isTrue();
            r.deliver();
        }
    }

    private static Object value(WriteRequest r) {
        return r.future().join();
    }

    private static LanesException failure(WriteRequest r) {
        CompletableFuture<Object> f = r.future();
        assertThat(f).as("%s failed", r.describe()).isCompletedExceptionally();
        try {
            f.join();
            throw new AssertionError("unreachable");
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(LanesException.class);
            return (LanesException) e.getCause();
        }
    }

    private long replays() {
        return telemetry.counters.sum(WriterCounters.REPLAYS);
    }

    // ------------------------------------------------------------------ the group ended inside

    @Test
    void theInnocentsBeforeACulpritRunAgainInAFreshTransactionAndTheOnesAfterItKeepTheirPlace() {
        BodyWrite a = write("a");
        BodyWrite b = write("b");
        BodyWrite culprit = culprit("culprit");
        BodyWrite d = write("d");

        run(a, b, culprit, d);

        LanesException e = failure(culprit);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("'culprit'").contains("rolled back");
        assertThat(value(a)).isEqualTo("a");
        assertThat(value(b)).isEqualTo("b");
        assertThat(value(d)).isEqualTo("d");
        assertThat(a.stages.runs).as("a ran again once").isEqualTo(2);
        assertThat(b.stages.runs).isEqualTo(2);
        assertThat(d.stages.runs).as("d, after the culprit, ran once, in the fresh transaction")
                .isEqualTo(1);
        assertThat(culprit.stages.runs).as("the culprit never runs again").isEqualTo(1);
        assertThat(db.durable).containsExactly("a", "b", "d");
        assertThat(replays()).isEqualTo(2);
        assertThat(db.calls.stream().filter("BEGIN"::equals)).hasSize(2);
        assertThat(db.calls.stream().filter("COMMIT"::equals)).hasSize(1);
        assertThat(commits).hasSize(1);
        assertThat(poisons).isEmpty();
        assertThat(db.inTransaction()).isFalse();
    }

    @Test
    void aCulpritWhoseBodyAutocommittedAfterTheEndIsUnknownAndTheInnocentsStillRunAgain() {
        BodyWrite a = write("a");
        BodyWrite leaky = body("leaky", true, c -> {
            db.rollBackInside(); // a statement ended the transaction; the body swallowed its error
            db.insert("leaked"); // outside any transaction now: autocommitted
            throw new SQLException("the body failed after its statement ended the transaction");
        });

        run(a, leaky);

        assertThat(failure(leaky).outcome()).as("part of it may have persisted")
                .isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(value(a)).isEqualTo("a");
        assertThat(a.stages.runs).isEqualTo(2);
        assertThat(db.durable).containsExactly("leaked", "a");
        assertThat(poisons).as("the connection is verified clean: no poison").isEmpty();
    }

    @Test
    void aNonReplayableInnocentFailsRolledBackNamingTheCulprit() {
        BodyWrite once = body("once", false, c -> {
            db.insert("once");
            return "once";
        });
        BodyWrite culprit = culprit("culprit");
        BodyWrite after = write("after");

        run(once, culprit, after);

        LanesException e = failure(once);
        assertThat(e).isInstanceOf(WriteFailedException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("'culprit'").contains("ended the shared transaction")
                .contains("not replayable");
        assertThat(e.getCause()).as("the culprit's own failure").isSameAs(failure(culprit));
        assertThat(once.stages.runs).isEqualTo(1);
        assertThat(value(after)).isEqualTo("after");
        assertThat(db.durable).containsExactly("after");
        assertThat(replays()).isZero();
    }

    /** Two group-ending writes in one group never take an innocent one down. */
    @Test
    void anInnocentWriteCommitsWhenTwoCulpritsEachEndItsGroup() {
        BodyWrite a = write("a");
        BodyWrite first = culprit("first");
        BodyWrite second = culprit("second");

        run(a, first, second);

        assertThat(value(a)).isEqualTo("a");
        assertThat(a.stages.runs).as("once per transaction the culprits ended, and once more")
                .isEqualTo(3);
        assertThat(failure(first).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(failure(second).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(first.stages.runs).isEqualTo(1);
        assertThat(second.stages.runs).isEqualTo(1);
        assertThat(db.durable).containsExactly("a");
        assertThat(commits).hasSize(1);
        assertThat(replays()).isEqualTo(2);
        assertThat(poisons).isEmpty();
    }

    @Test
    void everyInnocentCommitsOnceWhateverNumberOfCulpritsEndTheGroup() {
        List<BodyWrite> group = new java.util.ArrayList<>();
        List<BodyWrite> innocents = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            BodyWrite r = i % 3 == 1 ? culprit("culprit-" + i) : write("w" + i);
            group.add(r);
            if (i % 3 != 1) {
                innocents.add(r);
            }
        }

        run(group.toArray(new BodyWrite[0]));

        for (BodyWrite r : group) {
            if (innocents.contains(r)) {
                assertThat(value(r)).isEqualTo(r.describe().replace("'", ""));
                assertThat(r.stages.runs).isLessThanOrEqualTo(group.size());
            } else {
                assertThat(failure(r).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
                assertThat(r.stages.runs).isEqualTo(1);
            }
        }
        assertThat(db.durable).containsExactlyElementsOf(innocents.stream()
                .map(r -> r.describe().replace("'", "")).collect(java.util.stream.Collectors
                        .toList()));
        assertThat(db.calls.stream().filter("COMMIT"::equals)).hasSize(1);
        assertThat(db.calls.stream().filter("BEGIN"::equals)).as("one per culprit, and the one "
                + "that commits").hasSize(5);
        assertThat(poisons).isEmpty();
    }

    @Test
    void aBodyCommittingBehindTheLanesBackLeavesWhatRanBeforeItAcknowledgedAndItselfUnknown() {
        BodyWrite before = write("before");
        BodyWrite sneaky = body("sneaky", true, c -> {
            db.insert("sneaky");
            db.commitInside();
            return "sneaky";
        });
        BodyWrite after = write("after");

        run(before, sneaky, after);

        assertThat(value(before)).as("durable, so acknowledged").isEqualTo("before");
        assertThat(before.stages.runs).as("and never replayed").isEqualTo(1);
        LanesException e = failure(sneaky);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(e.getCause()).hasMessageContaining("committed behind the lane's back");
        assertThat(value(after)).isEqualTo("after");
        assertThat(after.stages.runs).isEqualTo(1);
        assertThat(db.durable).containsExactly("before", "sneaky", "after");
        assertThat(replays()).isZero();
        assertThat(poisons).isEmpty();
    }

    // ------------------------------------------------------------------ savepoint steps

    @Test
    void aFailedSavepointGivesUpTheTransactionAndItsWriteNeverStarted() {
        BodyWrite a = write("a");
        BodyWrite b = write("b");
        BodyWrite c = write("c");
        db.failOn("SAVEPOINT", 2, new SQLException("savepoint refused"));

        run(a, b, c);

        LanesException e = failure(b);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("SAVEPOINT failed for 'b'")
                .contains("savepoint refused");
        assertThat(b.stages.runs).as("its body never ran").isZero();
        assertThat(value(a)).isEqualTo("a");
        assertThat(a.stages.runs).isEqualTo(2);
        assertThat(value(c)).isEqualTo("c");
        assertThat(c.stages.runs).isEqualTo(1);
        assertThat(db.durable).containsExactly("a", "c");
        assertThat(poisons).isEmpty();
    }

    @Test
    void aFailedReleaseRollsBackItsWriteAndTheOthersRunAgain() {
        BodyWrite a = write("a");
        BodyWrite b = write("b");
        BodyWrite c = write("c");
        db.failOn("RELEASE", 2, new SQLException("release refused"));

        run(a, b, c);

        LanesException e = failure(b);
        assertThat(e.outcome()).as("its body ran; nothing of it persisted")
                .isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("RELEASE failed for 'b'");
        assertThat(b.stages.runs).isEqualTo(1);
        assertThat(value(a)).isEqualTo("a");
        assertThat(value(c)).isEqualTo("c");
        assertThat(db.durable).containsExactly("a", "c");
        assertThat(poisons).isEmpty();
    }

    @Test
    void aFailedRollbackToSavepointAfterAFailedBodyRollsBackThatWriteWithItsBodysFailure() {
        BodyWrite a = write("a");
        SQLException bodyFailure = new SQLException("the body failed");
        BodyWrite b = body("b", true, c -> {
            db.insert("b");
            throw bodyFailure;
        });
        BodyWrite c = write("c");
        SQLException stepFailure = new SQLException("rollback to refused");
        db.failOn("ROLLBACK TO", 1, stepFailure);

        run(a, b, c);

        LanesException e = failure(b);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("ROLLBACK TO failed for 'b'")
                .contains("after the body failed");
        assertThat(e.getCause()).isSameAs(bodyFailure);
        assertThat(e.getSuppressed()).containsExactly(stepFailure);
        assertThat(value(a)).isEqualTo("a");
        assertThat(value(c)).isEqualTo("c");
        assertThat(db.durable).containsExactly("a", "c");
        assertThat(poisons).isEmpty();
    }

    // ------------------------------------------------------------------ unverifiable rollbacks

    @Test
    void anUnverifiableRollbackPoisonsTheWriterWithWhatRanUnknownAndWhatDidNotNeverStarted() {
        BodyWrite a = write("a");
        BodyWrite culprit = culprit("culprit");
        BodyWrite c = write("c");
        db.rollbackVerifies = false;

        run(a, culprit, c);

        assertThat(failure(culprit).outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        LanesException ran = failure(a);
        assertThat(ran).isInstanceOf(WriteFailedException.class);
        assertThat(ran.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        LanesException notRun = failure(c);
        assertThat(notRun).isInstanceOf(WriterPoisonedException.class);
        assertThat(notRun.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(c.stages.runs).isZero();
        assertThat(a.stages.runs).as("nothing runs again on a connection in doubt").isEqualTo(1);
        assertThat(poisons).singleElement().asString().contains("'culprit'")
                .contains("could not be verified");
        assertThat(db.durable).isEmpty();
    }

    @Test
    void aFailedSavepointWhoseRollbackCannotBeVerifiedPoisonsToo() {
        BodyWrite a = write("a");
        BodyWrite b = write("b");
        BodyWrite c = write("c");
        db.failOn("SAVEPOINT", 2, new SQLException("savepoint refused"));
        db.rollbackVerifies = false;

        run(a, b, c);

        assertThat(failure(b).outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(failure(a).outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(failure(c).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(poisons).singleElement().asString().contains("SAVEPOINT failed");
    }

    @Test
    void aLoneFailedBodyIsRolledBackWithoutASavepointAndUnknownWhenThatRollbackIsInDoubt() {
        BodyWrite lone = body("lone", true, c -> {
            db.insert("lone");
            throw new SQLException("failed alone");
        });
        run(lone);
        assertThat(failure(lone).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(db.calls).doesNotContain("SAVEPOINT");
        assertThat(db.durable).isEmpty();
        assertThat(poisons).isEmpty();

        db.rollbackVerifies = false;
        BodyWrite doubtful = body("doubtful", true, c -> {
            throw new SQLException("failed alone");
        });
        run(doubtful);
        assertThat(failure(doubtful).outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(poisons).singleElement().asString().contains("could not be verified");
    }

    @Test
    void aFailedStatementInAGroupFailsAloneWithoutASavepointAndTheOthersCommitOnce() {
        StatementWrite x = statement("insert x");
        StatementWrite bad = statement("fail");
        StatementWrite y = statement("insert y");

        run(x, bad, y);

        assertThat(value(x)).isEqualTo(1);
        assertThat(failure(bad).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(value(y)).isEqualTo(1);
        assertThat(db.calls).doesNotContain("SAVEPOINT");
        assertThat(db.durable).containsExactly("x", "y");
        assertThat(db.calls.stream().filter("COMMIT"::equals)).hasSize(1);
        assertThat(replays()).isZero();
    }

    // ------------------------------------------------------------------ BEGIN and COMMIT

    @Test
    void aBeginThatStaysBusyFailsTheWholeGroupNotStartedAndRunsNoBody() {
        BodyWrite a = write("a");
        StatementWrite s = statement("insert s");
        db.failOn("BEGIN", 1, new BusyTimeout(Duration.ofSeconds(5).toNanos(),
                new SQLException("database is locked")));

        run(a, s);

        for (WriteRequest r : List.of(a, s)) {
            LanesException e = failure(r);
            assertThat(e).isInstanceOf(BusyException.class);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getMessage()).contains("busyTimeout 5000 ms");
        }
        assertThat(a.stages.runs).isZero();
        assertThat(db.durable).isEmpty();
    }

    @Test
    void aFailedCommitThatCertainlyRolledBackFailsEveryWriteRolledBackAndPoisonsNothing() {
        BodyWrite a = write("a");
        BodyWrite b = write("b");
        db.failOn("COMMIT", 1, new SQLException("commit refused: deferred foreign key"));

        run(a, b);

        for (WriteRequest r : List.of(a, b)) {
            LanesException e = failure(r);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(e.getMessage()).contains("COMMIT failed").contains("rolled back");
        }
        assertThat(db.durable).isEmpty();
        assertThat(commits).isEmpty();
        assertThat(poisons).isEmpty();
        assertThat(db.inTransaction()).isFalse();
    }

    @Test
    void aFailedCommitThatMayHavePersistedFailsEveryWriteUnknownAndPoisonsTheWriter() {
        BodyWrite a = write("a");
        BodyWrite b = write("b");
        db.failOn("COMMIT", 1, new SQLException("disk I/O error"));
        db.failedCommitRollsBack = false;

        run(a, b);

        for (WriteRequest r : List.of(a, b)) {
            LanesException e = failure(r);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
            assertThat(e.getMessage()).contains("COMMIT failed")
                    .contains("whether the write persisted is unknown");
        }
        assertThat(poisons).singleElement().asString().startsWith("COMMIT failed");
        assertThat(commits).isEmpty();
    }
}
