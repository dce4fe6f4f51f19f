package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteObservation;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Database#diagnostics()} tells what the writer is doing: the stages of the latest write,
 * a poisoned writer, an open interactive transaction, a corked lane.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ObservabilityDiagnosticsTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void lastWriteReflectsTheStagesOfAQueuedWrite() {
        // One pool thread: the groups are observed in the order they ran.
        runtime.start(Lanes.builder().name("stages").maxThreads(1));
        Database db = runtime.openWithTable("stages.db",
                DatabaseOptions.builder().slowWriteThreshold(Duration.ofMinutes(1)).build());
        Instant before = Instant.now();
        List<CompletableFuture<String>> queued = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 3; i++) {
                queued.add(db.writeAsync(WriteOptions.builder().label("stage").build(),
                        insert("queued-" + i)));
            }
            assertThat(db.diagnostics().writer().queued()).isEqualTo(3);
        }
        queued.forEach(TestLanes::join);
        // The outcome is delivered before the observation is recorded; wait for the record.
        awaitTrue("the queued group to be observed",
                () -> db.diagnostics().writer().lastWrite().map(w -> w.groupSize() == 3).orElse(false));

        WriteObservation w = db.diagnostics().writer().lastWrite().orElseThrow();
        assertThat(w.groupSize()).isEqualTo(3);
        assertThat(w.queueDepthAtEntry()).as("the last of three queued writes had two ahead")
                .isEqualTo(2);
        assertThat(w.queueWait()).as("it waited behind the held body").isPositive();
        assertThat(w.body()).as("its INSERT ran").isPositive();
        assertThat(w.commit()).as("its group committed").isPositive();
        assertThat(w.transactionAcquire().isNegative()).isFalse();
        assertThat(w.total()).isGreaterThanOrEqualTo(w.body())
                .isGreaterThanOrEqualTo(w.queueWait().plus(w.transactionAcquire())
                        .plus(w.body()).plus(w.commit()));
        assertThat(w.observedAt()).isAfterOrEqualTo(before);
        assertThat(w.labels()).as("a fast write resolves no labels").isEmpty();
        assertThat(countOf(db, "queued-2")).isEqualTo(1);
    }

    @Test
    void diagnosticsReflectAPoisonedWriter() {
        Database db = runtime.open("poisoned.db");
        // Installed before the first use opens the writer connection.
        ((DatabaseImpl) db).lane().faults(point -> {
            if (point == FaultInjector.Point.ROLLBACK) {
                throw new SQLException("injected");
            }
        });
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        DatabaseDiagnostics healthy = db.diagnostics();
        assertThat(healthy.writer().poisoned()).isFalse();
        assertThat(healthy.writer().poisonCause()).isEmpty();

        WriteFailedException failed = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(c -> {
                    insert("doomed").apply(c);
                    throw new IllegalStateException("boom");
                }));

        assertThat(failed.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        DatabaseDiagnostics d = db.diagnostics();
        assertThat(d.writer().poisoned()).isTrue();
        assertThat(d.writer().poisonCause()).hasValueSatisfying(
                cause -> assertThat(cause).contains("rollback"));
        assertThat(d.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(d.writer().counters().unknownOutcomes()).isEqualTo(1);
        assertThat(d.writer().counters().failed()).isEqualTo(1);
        WriterPoisonedException refused = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('later')"));
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
    }

    @Test
    void diagnosticsReflectAnOpenTransaction() {
        Database db = runtime.openWithTable("tx.db");
        assertThat(db.diagnostics().writer().transaction()).isEmpty();
        assertThat(db.isTransactionOpen()).isFalse();

        CompletableFuture<String> behind;
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES (?)", "one");
            tx.execute("INSERT INTO t(v) VALUES (?)", "two");
            behind = db.writeAsync(insert("behind"));

            DatabaseDiagnostics d = db.diagnostics();
            assertThat(db.isTransactionOpen()).isTrue();
            assertThat(d.writer().transaction()).hasValueSatisfying(info -> {
                assertThat(info.statements()).isEqualTo(2);
                assertThat(info.age().isNegative()).isFalse();
            });
            assertThat(d.writer().queued()).as("a write waits behind the transaction").isEqualTo(1);
            tx.commit();
        }
        join(behind);

        assertThat(db.isTransactionOpen()).isFalse();
        assertThat(db.diagnostics().writer().transaction()).isEmpty();
        assertThat(countOf(db, "two")).isEqualTo(1);
    }

    @Test
    void diagnosticsReflectACorkedLane() {
        Database db = runtime.openWithTable("cork.db");
        assertThat(db.diagnostics().writer().corked()).isFalse();

        db.cork();
        try {
            assertThat(db.diagnostics().writer().corked()).isTrue();
            db.write(insert("held by the cork"));
            assertThat(db.diagnostics().writer().corked()).isTrue();
        } finally {
            db.uncork();
        }

        assertThat(db.diagnostics().writer().corked()).isFalse();
        assertThat(countOf(db, "held by the cork")).isEqualTo(1);
    }
}
