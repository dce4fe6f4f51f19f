package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.sqlite.FaultInjector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A transaction whose COMMIT or BEGIN fails reports what really happened: {@code ROLLED_BACK}
 * when the rollback was verified, {@code UNKNOWN} (and a poisoned writer) when it was not,
 * {@code NOT_STARTED} when BEGIN failed.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionCommitFailureTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;
    PlantedFaults faults;

    @BeforeEach
    void start() {
        db = runtime.open("commit-failure.db");
        faults = PlantedFaults.on(db);
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    }

    @AfterEach
    void stop() {
        faults.clear();
    }

    @Test
    void aFailedCommitWithAVerifiedRollbackReportsRolledBackAndFreesTheLane() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        faults.fail(FaultInjector.Point.COMMIT);

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, tx::commit);

        faults.clear();
        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(tx.isOpen()).isFalse();
        assertThat(countOf(db, "in-tx")).isZero();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.write(insert("next"))).isEqualTo("next");
    }

    @Test
    void aFailedCommitWhoseRollbackCannotBeVerifiedReportsUnknownAndPoisonsTheWriter() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        faults.fail(FaultInjector.Point.COMMIT, FaultInjector.Point.ROLLBACK);

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, tx::commit);

        assertThat(e).isNotNull();
        assertThat(e.outcome()).as("never a guess").isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(tx.isOpen()).isFalse();
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
        WriterPoisonedException refused = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.write(insert("refused")));
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
    }

    @Test
    void aBeginThatFailsForAnotherReasonThanBusyFailsNotStarted() {
        faults.fail(FaultInjector.Point.BEGIN);

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, db::begin);

        faults.clear();
        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('retried')");
            tx.commit();
        }
        assertThat(countOf(db, "retried")).isEqualTo(1);
    }
}
