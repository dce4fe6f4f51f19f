package dev.lanes;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code close()} with an open transaction drains it: the transaction keeps working until it
 * commits, rolls back or idles out, and only then does the database close. {@code shutdownNow()}
 * rolls an open transaction back.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionCloseTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    ExecutorService closer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        closer.shutdownNow();
    }

    private static DatabaseOptions patientClose() {
        return DatabaseOptions.builder()
                .closeTimeout(Duration.ofSeconds(30))
                .transactionIdleTimeout(Duration.ofSeconds(30))
                .build();
    }

    @Test
    void closeWaitsForAnOpenTransactionWhichCanStillWorkAndCommit() {
        Database db = runtime.openWithTable("close-commit.db", patientClose());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('before-close')");
        CompletableFuture<String> queued = db.writeAsync(insert("queued"));

        CompletableFuture<Void> closing = CompletableFuture.runAsync(db::close, closer);
        awaitTrue("the database to start closing", () -> db.state() == DatabaseState.CLOSING);

        ClosingException refused = catchThrowableOfType(ClosingException.class, db::begin);
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        tx.execute("INSERT INTO t(v) VALUES ('while-closing')");
        assertThat(tx.isOpen()).isTrue();
        assertThat(closing).as("close waits for the open transaction").isNotDone();

        tx.commit();

        join(closing);
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(join(queued)).as("the write accepted before close was drained").isEqualTo("queued");
        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "before-close")).isEqualTo(1);
        assertThat(countOf(reopened, "while-closing")).isEqualTo(1);
        assertThat(countOf(reopened, "queued")).isEqualTo(1);
    }

    @Test
    void closeWithATransactionThatRollsBackClosesWithoutItsRows() {
        Database db = runtime.openWithTable("close-rollback.db", patientClose());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('rolled-back')");

        CompletableFuture<Void> closing = CompletableFuture.runAsync(db::close, closer);
        awaitTrue("the database to start closing", () -> db.state() == DatabaseState.CLOSING);
        assertThat(closing).isNotDone();
        tx.close(); // no commit: rolls back

        join(closing);
        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "rolled-back")).isZero();
    }

    @Test
    void closeWithAForgottenTransactionCompletesOnceItsIdleTimeoutRollsItBack() {
        Database db = runtime.openWithTable("close-idle.db", DatabaseOptions.builder()
                .closeTimeout(Duration.ofSeconds(30))
                .transactionIdleTimeout(Duration.ofMillis(200))
                .build());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");

        db.close(); // returns: the idle timeout ends the transaction, then the drain finishes

        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(tx.isOpen()).isFalse();
        WriteFailedException late = catchThrowableOfType(WriteFailedException.class, tx::commit);
        assertThat(late.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "forgotten")).isZero();
    }

    @Test
    void shutdownNowRollsBackAnOpenTransactionAndFailsItsLaterCalls() {
        Database db = runtime.openWithTable("shutdown.db", patientClose());
        db.execute("INSERT INTO t(v) VALUES ('committed-earlier')");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        CompletableFuture<String> queued = db.writeAsync(insert("queued"));

        db.shutdownNow();

        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(tx.isOpen()).isFalse();
        WriteFailedException execute = catchThrowableOfType(WriteFailedException.class,
                () -> tx.execute("INSERT INTO t(v) VALUES ('after')"));
        assertThat(execute.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        WriteFailedException commit = catchThrowableOfType(WriteFailedException.class, tx::commit);
        assertThat(commit.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(commit.getMessage()).contains("shut down");
        tx.close(); // harmless on an ended transaction
        assertThat(failureOf(queued).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);

        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "in-tx")).isZero();
        assertThat(countOf(reopened, "after")).isZero();
        assertThat(countOf(reopened, "queued")).isZero();
        assertThat(countOf(reopened, "committed-earlier")).isEqualTo(1);
    }
}
