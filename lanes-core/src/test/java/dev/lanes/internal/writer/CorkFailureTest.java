package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.rawCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.OverloadedException;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * When corking goes wrong, the caller hears about it: a failed uncork says none of the corked
 * writes persisted, a failure that ends the cork's outer transaction is reported at uncork, and
 * a refused uncork can be retried.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CorkFailureTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;
    /** The fault point that fails now; null injects nothing. */
    final AtomicReference<FaultInjector.Point> failing = new AtomicReference<>();

    @BeforeEach
    void start() {
        db = runtime.open("cork-failure.db",
                DatabaseOptions.builder().writeQueueCapacity(4)
                .writeQueueTimeout(Duration.ZERO).build());
        ((DatabaseImpl) db).lane().faults(point -> {
            if (point == failing.get()) {
                throw new SQLException("injected " + point);
            }
        });
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    }

    @AfterEach
    void stop() {
        failing.set(null);
    }

    @Test
    void aFailedUncorkCommitReportsRolledBackAndLeavesTheDatabaseUncorked() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('before-cork')");
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        failing.set(FaultInjector.Point.COMMIT);

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, db::uncork);

        failing.set(null);
        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "corked")).isZero();
        assertThat(rawCount(db.path(), "corked")).isZero();
        assertThat(countOf(db, "before-cork")).isEqualTo(1);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        // No longer corked: a write is committed at once, and a new cork cycle works.
        db.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(rawCount(db.path(), "after")).isEqualTo(1);
        db.cork();
        db.uncork();
    }

    @Test
    void aWriteThatEndsTheCorkedTransactionLosesEveryCorkedWriteAndUncorkSaysSo()
            throws Exception {
        db.execute("CREATE TABLE r(k TEXT UNIQUE ON CONFLICT ROLLBACK)");
        db.execute("INSERT INTO r(k) VALUES ('taken')");
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked-early')");

        WriteFailedException culprit = catchThrowableOfType(WriteFailedException.class,
                () -> db.execute("INSERT INTO r(k) VALUES ('taken')"));
        assertThat(culprit.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        db.execute("INSERT INTO t(v) VALUES ('corked-late')");

        WriteFailedException uncork = catchThrowableOfType(WriteFailedException.class, db::uncork);

        assertThat(uncork).as("uncork reports that corked writes were lost").isNotNull();
        assertThat(uncork.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(rawCount(db.path(), "corked-early")).isZero();
        // The defect libfiu found (UncorkAfterLostCorkTest): these were committed while uncork
        // reported ROLLED_BACK. A cork is all or nothing: ROLLED_BACK means none persisted.
        assertThat(rawCount(db.path(), "corked-late"))
                .as("writes corked after the loss were rolled back with the rest")
                .isZero();
        db.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(rawCount(db.path(), "after")).as("no longer corked").isEqualTo(1);
    }

    @Test
    void aTransactionWhoseCommitFailsWhileCorkedRollsBackAloneAndTheCorkKeepsTheRest()
            throws Exception {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        failing.set(FaultInjector.Point.RELEASE);

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, tx::commit);

        failing.set(null);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(tx.isOpen()).isFalse();
        db.uncork();
        assertThat(rawCount(db.path(), "corked")).isEqualTo(1);
        assertThat(rawCount(db.path(), "in-tx")).isZero();
    }

    @Test
    void anUncorkRefusedBecauseTheQueueIsFullCanBeRetried() throws Exception {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        List<CompletableFuture<String>> queued = new ArrayList<>();
        OverloadedException refused;
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 4; i++) {
                queued.add(db.writeAsync(insert("queued")));
            }
            refused = catchThrowableOfType(OverloadedException.class, db::uncork);
            blocker.release();
        }
        for (CompletableFuture<String> q : queued) {
            join(q);
        }
        assertThat(refused).as("uncork with a full queue is refused, retryably").isNotNull();
        assertThat(refused.retryable()).isTrue();
        assertThat(rawCount(db.path(), "corked")).isZero();

        db.uncork(); // the retry must be accepted: the refused uncork never ran

        assertThat(rawCount(db.path(), "corked")).isEqualTo(1);
        assertThat(rawCount(db.path(), "queued")).isEqualTo(4);
    }
}
