package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.Blocker;
import dev.lanes.spi.CommitFence;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A database's commit fence: every commit of its writer passes it, its write commits with the
 * transaction, a fence that refuses rolls the transaction back, and one that lost the right to
 * write during the commit leaves the outcome unknown and the writer refusing later writes.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CommitFenceTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    /** Records a token per commit once armed; refuses or loses the right when told to. */
    static final class TokenFence implements CommitFence {
        volatile boolean armed;
        volatile boolean refuse;
        volatile boolean held = true;
        final AtomicInteger tokens = new AtomicInteger();
        final AtomicInteger asked = new AtomicInteger();

        @Override
        public void beforeCommit(Connection connection) throws SQLException {
            if (!armed) {
                return;
            }
            try (PreparedStatement s = connection.prepareStatement(
                    "INSERT INTO fence(token) VALUES (?)")) {
                s.setInt(1, tokens.incrementAndGet());
                s.executeUpdate();
            }
            if (refuse) {
                throw new SQLException("fencing token " + tokens.get() + " is stale");
            }
        }

        @Override
        public boolean heldThroughCommit() {
            if (armed) {
                asked.incrementAndGet();
            }
            return held;
        }
    }

    final TokenFence fence = new TokenFence();
    Database db;

    @BeforeEach
    void open() {
        db = runtime.openWithTable("fenced.db",
                DatabaseOptions.builder().commitFence(fence).build());
        db.execute("CREATE TABLE fence(token INTEGER)");
        fence.armed = true;
    }

    private long rows() {
        return scalar(db, "SELECT count(*) FROM t");
    }

    private long tokens() {
        return scalar(db, "SELECT count(*) FROM fence");
    }

    @Test
    void theFencesWriteCommitsInTheSameTransactionAsTheGroup() {
        List<CompletableFuture<String>> writes = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 3; i++) {
                writes.add(db.writeAsync(insert("w" + i)));
            }
            blocker.release();
        }
        writes.forEach(TestLanes::join);

        assertThat(rows()).isEqualTo(3);
        // one token for the blocker's commit, one for the group of three
        assertThat(tokens()).isEqualTo(fence.tokens.get()).isEqualTo(2);
        assertThat(fence.asked.get()).isEqualTo(2);
    }

    @Test
    void aFenceThatRefusesRollsTheGroupBackAndNothingOfItIsWritten() {
        fence.refuse = true;
        List<CompletableFuture<String>> writes = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 3; i++) {
                writes.add(db.writeAsync(insert("w" + i)));
            }
            blocker.release();
        }
        for (CompletableFuture<String> w : writes) {
            LanesException e = failureOf(w);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(e.getMessage()).contains("commit fence refused", "stale");
        }
        LanesException single = catchThrowableOfType(
                () -> db.execute("INSERT INTO t(v) VALUES ('x')"), LanesException.class);
        assertThat(single.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);

        fence.refuse = false;
        assertThat(rows()).isZero();
        assertThat(tokens()).isZero(); // the token written before the refusal rolled back too
        assertThat(db.execute("INSERT INTO t(v) VALUES ('after')")).isEqualTo(1); // not poisoned
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void aRefusedScriptAndARefusedTransactionWriteNothing() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('tx')");
        fence.refuse = true;
        LanesException commit = catchThrowableOfType(tx::commit, LanesException.class);
        LanesException script = catchThrowableOfType(() -> db.executeScript(
                "INSERT INTO t(v) VALUES ('s1'); INSERT INTO t(v) VALUES ('s2')"),
                LanesException.class);
        fence.refuse = false;

        assertThat(commit.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(commit.getMessage()).contains("commit fence refused");
        assertThat(tx.isOpen()).isFalse();
        assertThat(script.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(rows()).isZero();
        assertThat(tokens()).isZero();
    }

    @Test
    void theCorksCommitPassesTheFence() {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        assertThat(fence.tokens.get()).isZero(); // applied, not committed: the fence waits
        fence.refuse = true;
        LanesException uncork = catchThrowableOfType(db::uncork, LanesException.class);
        fence.refuse = false;

        assertThat(uncork.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(rows()).isZero();
        assertThat(tokens()).isZero();

        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked again')");
        db.uncork();
        assertThat(rows()).isEqualTo(1);
        assertThat(tokens()).isEqualTo(1);
    }

    @Test
    void aRefusingFenceKeepsAMaintenanceBodyFromRunning() {
        fence.refuse = true;
        AtomicBoolean ran = new AtomicBoolean();
        LanesException e = catchThrowableOfType(() -> db.maintenance(c -> {
            ran.set(true);
            return null;
        }), LanesException.class);
        fence.refuse = false;

        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(ran).isFalse();
        assertThat(tokens()).isZero();
        int inserted = db.maintenance(c -> c.createStatement().executeUpdate(
                "INSERT INTO t(v) VALUES ('m')"));
        assertThat(inserted).isEqualTo(1);
        assertThat(tokens()).isEqualTo(1);
    }

    @Test
    void aFenceThatLostTheRightDuringCommitLeavesTheOutcomeUnknownAndTheWriterRefusing() {
        fence.held = false;
        LanesException unknown = catchThrowableOfType(
                () -> db.execute("INSERT INTO t(v) VALUES ('maybe')"), LanesException.class);

        assertThat(unknown.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(unknown.getMessage()).contains("right to write");
        fence.held = true;
        WriterPoisonedException later = catchThrowableOfType(
                () -> db.execute("INSERT INTO t(v) VALUES ('later')"),
                WriterPoisonedException.class);
        assertThat(later.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(db.diagnostics().writer().poisonCause().orElseThrow()).contains("commit fence");
        assertThat(rows()).isEqualTo(1); // the write did commit here; the caller was told unknown
    }

    @Test
    void aTransactionWhoseFenceLostTheRightEndsUnknown() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('tx')");
        fence.held = false;
        LanesException e = catchThrowableOfType(tx::commit, LanesException.class);

        assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(catchThrowableOfType(() -> db.execute("INSERT INTO t(v) VALUES ('later')"),
                WriterPoisonedException.class)).isNotNull();
    }

    @Test
    void optionsWithFencesAreEqualOnlyForTheSameFence() {
        DatabaseOptions a = DatabaseOptions.builder().commitFence(fence).build();
        DatabaseOptions b = DatabaseOptions.builder().commitFence(fence).build();
        DatabaseOptions other = DatabaseOptions.builder().commitFence(new TokenFence()).build();

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(other);
        assertThat(a.toBuilder().build().commitFence()).isSameAs(fence);
        assertThat(DatabaseOptions.DEFAULTS.commitFence()).isNull();
    }
}
