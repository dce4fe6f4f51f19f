package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Database#executeBatch}: statements with parameters, in order, as one request (one turn,
 * one savepoint), atomic, stopping at the first failure; transaction control refused before
 * anything runs.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BatchTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("batch.db");
    }

    @Test
    void aBatchReturnsEachStatementsUpdateCountInOrder() {
        int[] counts = db.executeBatch(List.of(
                Statement.of("INSERT INTO t(v) VALUES (?)", "a"),
                Statement.of("INSERT INTO t(v) VALUES (?), (?)", "b", "c"),
                Statement.of("UPDATE t SET v = v || ? WHERE v IN ('a', 'b', 'c')", "!"),
                Statement.of("DELETE FROM t WHERE v = ?", "absent"),
                Statement.of("INSERT INTO t(v) VALUES (?)", (Object) null)));

        assertThat(counts).containsExactly(1, 2, 3, 0, 1);
        assertThat(db.query("SELECT v FROM t ORDER BY id").stream().map(r -> r.getString("v")))
                .containsExactly("a!", "b!", "c!", null);
        assertThat(db.executeBatch(List.of())).isEmpty();
    }

    @Test
    void aStatementThatChangesNoRowsCountsZeroEvenAfterOneThatChangedRows() {
        // SQLite's sqlite3_changes() keeps the previous statement's count across DDL; the count
        // of a CREATE is 0, as db.execute reports it.
        int[] counts = db.executeBatch(List.of(
                Statement.of("INSERT INTO t(v) VALUES ('x'), ('y')"),
                Statement.of("CREATE TABLE u(a)"),
                Statement.of("CREATE INDEX u_a ON u(a)")));

        assertThat(counts).containsExactly(2, 0, 0);
        assertThat(db.execute("CREATE TABLE w(a)")).as("what db.execute reports").isZero();
    }

    @Test
    void aFailingStatementStopsTheBatchAndRollsBackAllOfIt() {
        db.execute("INSERT INTO t(id, v) VALUES (1, 'existing')");
        long committedBefore = db.diagnostics().writer().counters().committed();

        BatchFailedException e = catchThrowableOfType(BatchFailedException.class,
                () -> db.executeBatch(List.of(
                        Statement.of("INSERT INTO t(id, v) VALUES (10, 'ten')"),
                        Statement.of("UPDATE t SET v = 'changed' WHERE id = 1"),
                        Statement.of("INSERT INTO t(id, v) VALUES (1, 'duplicate')"),
                        Statement.of("INSERT INTO t(id, v) VALUES (12, 'twelve')"))));

        assertThat(e).isNotNull();
        assertThat(e.failedIndex()).isEqualTo(2);
        assertThat(e.executed()).isEqualTo(2);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.code()).isEqualTo(ErrorCode.BATCH_FAILED);
        assertThat(e.getCause()).isInstanceOf(SQLException.class)
                .hasMessageContaining("UNIQUE");
        assertThat(e.getMessage()).contains("batch.db").contains("statement 2")
                .contains("INSERT INTO t(id, v) VALUES (1, 'duplicate')");

        assertThat(db.query("SELECT id, v FROM t ORDER BY id")).hasSize(1);
        assertThat(countOf(db, "existing")).as("statement 1's update rolled back").isEqualTo(1);
        assertThat(db.diagnostics().writer().counters().committed()).isEqualTo(committedBefore);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.executeBatch(List.of(Statement.of("INSERT INTO t(v) VALUES ('after')"))))
                .containsExactly(1);
    }

    @Test
    void aFailedBatchInsideACommitGroupRollsBackAloneWhileItsNeighboursCommit() {
        TestLanes.Blocker blocker = block(db);
        CompletableFuture<String> before = db.writeAsync(insert("before"));
        CompletableFuture<int[]> batch = CompletableFuture.supplyAsync(() -> db.executeBatch(List.of(
                Statement.of("INSERT INTO t(v) VALUES ('batch-0')"),
                Statement.of("INSERT INTO no_such_table VALUES (1)"))));
        TestLanes.awaitTrue("the batch to queue", () -> db.diagnostics().writer().queued() == 2);
        CompletableFuture<String> after = db.writeAsync(insert("after"));
        long groupsBefore = db.diagnostics().writer().counters().groupsCommitted();
        blocker.release();

        assertThat(join(before)).isEqualTo("before");
        assertThat(join(after)).isEqualTo("after");
        LanesException e = TestLanes.failureOf(batch);
        assertThat(e).isInstanceOf(BatchFailedException.class);
        assertThat(((BatchFailedException) e).failedIndex()).isEqualTo(1);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "batch-0")).isZero();
        assertThat(countOf(db, "before")).isEqualTo(1);
        assertThat(countOf(db, "after")).isEqualTo(1);
        // The blocker's group, then one group holding the three queued requests.
        assertThat(db.diagnostics().writer().counters().groupsCommitted() - groupsBefore).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"COMMIT", "BEGIN", "begin immediate", "END", "ROLLBACK",
        "SAVEPOINT s", "RELEASE s", "  /* hidden */ commit", "-- hidden\nROLLBACK"})
    void transactionControlAnywhereInTheBatchIsRefusedBeforeAnythingRuns(String control) {
        long committedBefore = db.diagnostics().writer().counters().committed();
        long failedBefore = db.diagnostics().writer().counters().failed();

        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.executeBatch(List.of(
                        Statement.of("INSERT INTO t(v) VALUES ('first')"),
                        Statement.of("INSERT INTO t(v) VALUES ('second')"),
                        Statement.of(control),
                        Statement.of("INSERT INTO t(v) VALUES ('last')"))));

        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("batch.db").contains("statement 2 of the batch");
        assertThat(scalar(db, "SELECT count(*) FROM t")).as("nothing ran, not even the first")
                .isZero();
        assertThat(db.diagnostics().writer().counters().committed()).isEqualTo(committedBefore);
        assertThat(db.diagnostics().writer().counters().failed()).as("refused before it was a request")
                .isEqualTo(failedBefore);
    }

    @Test
    void transactionControlHiddenBehindASemicolonInOneStatementIsRefused() {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.executeBatch(List.of(
                        Statement.of("INSERT INTO t(v) VALUES ('x'); COMMIT"))));

        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("COMMIT").contains("statement 0 of the batch");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isZero();
    }

    @Test
    void aStatementHoldingTwoStatementsIsRefusedRatherThanHalfRun() {
        // The driver prepares only the first statement of a text and ignores the rest: a second
        // statement smuggled into one Statement must not be dropped silently.
        Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> db.executeBatch(List.of(
                Statement.of("INSERT INTO t(v) VALUES ('one'); INSERT INTO t(v) VALUES ('two')"))));

        assertThat(e).as("refused, not silently half-run").isInstanceOf(LanesException.class);
        assertThat(countOf(db, "one") + countOf(db, "two")).as("neither ran").isZero();
    }

    @Test
    void aBatchIsOneRequestAndOneCommit() {
        db.execute("INSERT INTO t(v) VALUES ('warm')");
        DatabaseDiagnostics before = db.diagnostics();
        long versionBefore = db.changeVersion();

        List<Statement> statements = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            statements.add(Statement.of("INSERT INTO t(v) VALUES (?)", "row-" + i));
        }
        int[] counts = db.executeBatch(statements);

        DatabaseDiagnostics after = db.diagnostics();
        assertThat(Arrays.stream(counts).sum()).isEqualTo(20);
        assertThat(after.writer().counters().committed() - before.writer().counters().committed()).isEqualTo(1);
        assertThat(after.writer().counters().groupsCommitted() - before.writer().counters().groupsCommitted()).isEqualTo(1);
        assertThat(after.writer().counters().acquisitions() - before.writer().counters().acquisitions()).isEqualTo(1);
        assertThat(db.changeVersion() - versionBefore).isEqualTo(1);
    }

    @Test
    void aNullListIsRejectedAndArgumentsAreCopied() {
        assertThatThrownBy(() -> db.executeBatch(null)).isInstanceOf(NullPointerException.class);
        List<Object> args = new ArrayList<>(List.of("kept"));
        Statement s = new Statement("INSERT INTO t(v) VALUES (?)", args);
        args.set(0, "changed");
        assertThat(db.executeBatch(List.of(s))).containsExactly(1);
        assertThat(countOf(db, "kept")).isEqualTo(1);
    }
}
