package dev.lanes;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forgotten transaction cannot stall the database: once idle for its idle timeout it is rolled
 * back, the writes queued behind it run, and the handle reports {@code ROLLED_BACK}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionIdleTimeoutTest {
    @TempDir Path dir;
    Lanes lanes;

    @BeforeEach
    void start() {
        lanes = TestLanes.runtime();
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    @Test
    void anIdleTransactionIsRolledBackByTheDatabaseTimeoutAndUnblocksQueuedWrites() {
        Database db = openWithTable(lanes, dir, "idle.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(200)).build());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");
        CompletableFuture<String> queued = db.writeAsync(insert("queued"));

        // Nobody touches the transaction: only the idle timeout can let the write through.
        assertThat(join(queued)).isEqualTo("queued");

        assertThat(tx.isOpen()).isFalse();
        assertRolledBack(() -> tx.execute("INSERT INTO t(v) VALUES ('late')"));
        assertRolledBack(() -> tx.query("SELECT 1"));
        assertRolledBack(() -> tx.run(c -> 1));
        WriteFailedException commit = assertRolledBack(tx::commit);
        assertThat(commit.getMessage()).contains("idle");
        tx.rollback(); // a no-op on an ended transaction
        tx.close();

        assertThat(countOf(db, "forgotten")).as("the idle transaction's row").isZero();
        assertThat(countOf(db, "late")).isZero();
        assertThat(countOf(db, "queued")).isEqualTo(1);
        assertThat(db.diagnostics().writerPoisoned()).isFalse();
    }

    @Test
    void thePerTransactionIdleTimeoutOverridesTheDatabaseDefault() {
        Database db = openWithTable(lanes, dir, "per-tx.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMinutes(10)).build());
        Transaction tx = db.begin(TransactionOptions.builder()
                .idleTimeout(Duration.ofMillis(200)).build());
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");
        CompletableFuture<String> queued = db.writeAsync(insert("queued"));

        assertThat(join(queued)).isEqualTo("queued");
        assertThat(tx.isOpen()).isFalse();
        assertRolledBack(tx::commit);
        assertThat(countOf(db, "forgotten")).isZero();
    }

    @Test
    void aTransactionKeptBusyOutlivesItsIdleTimeoutAndCommits() throws Exception {
        Database db = openWithTable(lanes, dir, "busy-tx.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofSeconds(1)).build());
        try (Transaction tx = db.begin()) {
            long start = System.nanoTime();
            int i = 0;
            // Active for well over two idle timeouts, never idle for long.
            while (System.nanoTime() - start < Duration.ofMillis(2500).toNanos()) {
                tx.execute("INSERT INTO t(v) VALUES ('active')");
                i++;
                Thread.sleep(20); // pacing only: spreads the activity over time; orders nothing
            }
            assertThat(tx.isOpen()).isTrue();
            tx.commit();
            assertThat(countOf(db, "active")).isEqualTo(i);
        }
    }

    @Test
    void aTransactionIdleLongerThanItsTimeoutWithNothingQueuedIsStillRolledBack() {
        Database db = openWithTable(lanes, dir, "lonely.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(200)).build());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");

        TestLanes.awaitTrue("the idle transaction to be rolled back", () -> !tx.isOpen());
        assertRolledBack(tx::commit);
        assertThat(countOf(db, "forgotten")).isZero();
        // The lane is free: a new transaction begins and commits.
        try (Transaction next = db.begin()) {
            next.execute("INSERT INTO t(v) VALUES ('next')");
            next.commit();
        }
        assertThat(countOf(db, "next")).isEqualTo(1);
    }

    private static WriteFailedException assertRolledBack(Runnable call) {
        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, call::run);
        assertThat(e).as("the call on an expired transaction fails").isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        return e;
    }
}
