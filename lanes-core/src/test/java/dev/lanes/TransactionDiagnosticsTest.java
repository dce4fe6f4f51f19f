package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.WriterDiagnostics.TransactionInfo;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code db.diagnostics()} and {@code db.isTransactionOpen()} show whether a transaction pins the
 * writer (with its age and statement count) and whether the database is corked, so an operator
 * can find the transaction that stalls the writes.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionDiagnosticsTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("diagnostics.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMinutes(10)).build());
    }

    @Test
    void anOpenTransactionShowsWithItsStatementsAndAgeAndDisappearsAtCommit() {
        assertThat(db.isTransactionOpen()).isFalse();
        assertThat(db.diagnostics().writer().transaction()).isEmpty();

        Transaction tx = db.begin();
        assertThat(db.isTransactionOpen()).isTrue();
        assertThat(db.diagnostics().writer().transaction()).get()
                .extracting(TransactionInfo::statements).isEqualTo(0);

        tx.execute("INSERT INTO t(v) VALUES ('a')");
        tx.query("SELECT count(*) FROM t");
        tx.run(c -> null);
        TransactionInfo first = db.diagnostics().writer().transaction().orElseThrow();
        assertThat(first.statements()).isEqualTo(3);
        assertThat(first.age()).isPositive();
        TestLanes.awaitTrue("the transaction's age to grow",
                () -> db.diagnostics().writer().transaction().orElseThrow().age().compareTo(first.age()) > 0);

        tx.commit();
        assertThat(db.isTransactionOpen()).isFalse();
        assertThat(db.diagnostics().writer().transaction()).isEmpty();
    }

    @Test
    void aRolledBackTransactionNoLongerShows() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('a')");
        tx.close();
        assertThat(db.isTransactionOpen()).isFalse();
        assertThat(db.diagnostics().writer().transaction()).isEmpty();
    }

    @Test
    void corkStateShowsFromCorkUntilUncorkAndUntilADeferredUncorkRan() {
        assertThat(db.diagnostics().writer().corked()).isFalse();
        db.cork();
        assertThat(db.diagnostics().writer().corked()).isTrue();
        db.uncork();
        assertThat(db.diagnostics().writer().corked()).isFalse();

        db.cork();
        Transaction tx = db.begin();
        db.uncork(); // deferred behind the open transaction
        assertThat(db.diagnostics().writer().corked()).as("still corked while the uncork waits").isTrue();
        assertThat(db.diagnostics().writer().transaction()).isPresent();
        tx.commit();
        db.execute("INSERT INTO t(v) VALUES ('after')"); // queued behind the deferred uncork
        assertThat(db.diagnostics().writer().corked()).isFalse();
        assertThat(db.diagnostics().writer().transaction()).isEmpty();
    }
}
