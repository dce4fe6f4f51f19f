package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.util.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A forgotten transaction cannot stall the database: once idle for its idle timeout it is rolled
 * back, the writes queued behind it run, and the handle reports {@code ROLLED_BACK}. On a manual
 * clock: the idle time is what the test advances, never what the machine happened to take.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionIdleTimeoutTest {
    final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();

    @Test
    void anIdleTransactionIsRolledBackByTheDatabaseTimeoutAndUnblocksQueuedWrites() {
        Database db = runtime.openWithTable("idle.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(200)).build());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");
        CompletableFuture<String> queued = db.writeAsync(insert("queued"));

        clock.advance(Duration.ofMillis(199));
        assertThat(tx.isOpen()).as("1 ms before its idle timeout").isTrue();
        assertThat(queued).isNotDone();
        // Nobody touches the transaction: only the idle timeout can let the write through.
        clock.advance(Duration.ofMillis(1));
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
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void thePerTransactionIdleTimeoutOverridesTheDatabaseDefault() {
        Database db = runtime.openWithTable("per-tx.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMinutes(10)).build());
        Transaction tx = db.begin(TransactionOptions.builder()
                .idleTimeout(Duration.ofMillis(200)).build());
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");
        CompletableFuture<String> queued = db.writeAsync(insert("queued"));

        clock.advance(Duration.ofMillis(200));
        assertThat(join(queued)).isEqualTo("queued");
        assertThat(tx.isOpen()).isFalse();
        assertRolledBack(tx::commit);
        assertThat(countOf(db, "forgotten")).isZero();
    }

    @Test
    void aTransactionKeptBusyOutlivesItsIdleTimeoutAndCommits() {
        Database db = runtime.openWithTable("busy-tx.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofSeconds(1)).build());
        try (Transaction tx = db.begin()) {
            int i = 0;
            // Active for well over two idle timeouts, never idle for as long as one.
            while (clock.elapsed().compareTo(Duration.ofMillis(2500)) < 0) {
                tx.execute("INSERT INTO t(v) VALUES ('active')");
                i++;
                clock.advance(Duration.ofMillis(900));
            }
            assertThat(tx.isOpen()).isTrue();
            tx.commit();
            assertThat(countOf(db, "active")).isEqualTo(i);
        }
    }

    /**
     * One idle check is armed per transaction and a step does not move it: the check that fires
     * on a transaction active since arms itself again for the rest of the timeout, which must end
     * exactly one timeout after the latest step, neither at the first check nor later.
     */
    @Test
    void theIdleTimeoutCountsFromTheLatestStep() {
        Database db = runtime.openWithTable("latest.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(1000)).build());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('first')");
        clock.advance(Duration.ofMillis(900));
        tx.execute("INSERT INTO t(v) VALUES ('second')");
        CompletableFuture<String> queued = db.writeAsync(insert("queued"));

        clock.advance(Duration.ofMillis(999)); // the first check fired at 1000 ms, on activity
        assertThat(tx.isOpen()).as("999 ms after its latest step").isTrue();
        assertThat(queued).isNotDone();
        clock.advance(Duration.ofMillis(1));
        assertThat(join(queued)).isEqualTo("queued");
        assertThat(tx.isOpen()).isFalse();
        assertRolledBack(tx::commit);
        assertThat(countOf(db, "first") + countOf(db, "second")).isZero();
    }

    @Test
    void aTransactionIdleLongerThanItsTimeoutWithNothingQueuedIsStillRolledBack() {
        Database db = runtime.openWithTable("lonely.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(200)).build());
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");

        clock.advance(Duration.ofMillis(200));
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
