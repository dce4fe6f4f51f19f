package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.Blocker;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A request whose failure ends the whole shared transaction ({@code OR ROLLBACK}, {@code
 * RAISE(ROLLBACK)}) fails alone; its innocent neighbours run again and commit exactly once.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GroupEndingFailureTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("ending.db");
        db.execute("CREATE TABLE uniq(v TEXT UNIQUE ON CONFLICT ROLLBACK)");
        db.execute("INSERT INTO uniq(v) VALUES ('taken')");
        db.execute("CREATE TABLE guarded(v TEXT)");
        db.execute("CREATE TRIGGER no_boom BEFORE INSERT ON guarded WHEN new.v = 'boom' "
                + "BEGIN SELECT RAISE(ROLLBACK, 'boom is not allowed'); END");
    }

    /** A body that ends the transaction: the given insert, which ends it by rolling back. */
    private static String endingStatement(String kind) {
        return kind.equals("conflict")
                ? "INSERT INTO uniq(v) VALUES ('taken')"
                : "INSERT INTO guarded(v) VALUES ('boom')";
    }

    /** An innocent body that counts how often it ran. */
    private static SqlFunction<String> counted(String v, AtomicInteger runs) {
        return c -> {
            runs.incrementAndGet();
            return insert(v).apply(c);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"conflict", "raise"})
    void aRequestThatEndsTheGroupFailsAloneAndItsNeighboursCommitExactlyOnce(String kind) {
        AtomicInteger earlyRuns = new AtomicInteger();
        AtomicInteger lateRuns = new AtomicInteger();
        List<CompletableFuture<String>> early = new ArrayList<>();
        List<CompletableFuture<String>> late = new ArrayList<>();
        CompletableFuture<Object> culprit;
        long replaysBefore = db.diagnostics().writer().counters().replays();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 3; i++) {
                early.add(db.writeAsync(counted("early-" + i, earlyRuns)));
            }
            culprit = db.writeAsync(WriteOptions.builder().label("culprit").build(), c -> {
                insert("culprit").apply(c);
                c.createStatement().executeUpdate(endingStatement(kind));
                return null;
            });
            for (int i = 0; i < 3; i++) {
                late.add(db.writeAsync(counted("late-" + i, lateRuns)));
            }
            blocker.release();
        }

        LanesException e = failureOf(culprit);
        assertThat(e).isInstanceOf(WriteFailedException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).isInstanceOf(SQLException.class);
        assertThat(countOf(db, "culprit")).isZero();

        for (int i = 0; i < 3; i++) {
            assertThat(join(early.get(i))).isEqualTo("early-" + i);
            assertThat(join(late.get(i))).isEqualTo("late-" + i);
            assertThat(countOf(db, "early-" + i)).as("early-%d committed once", i).isEqualTo(1);
            assertThat(countOf(db, "late-" + i)).as("late-%d committed once", i).isEqualTo(1);
        }
        assertThat(earlyRuns.get()).as("bodies that ran before the culprit ran again")
                .isGreaterThan(3);
        assertThat(lateRuns.get()).isGreaterThanOrEqualTo(3);
        assertThat(db.diagnostics().writer().counters().replays() - replaysBefore).isPositive();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    /**
     * Two or more group-ending writes in one group must not make innocent neighbours fail
     * ROLLED_BACK ("ended the shared transaction twice"): however many end it, every innocent
     * member commits exactly once. The blocker holds the lane until all 56 are queued, so they
     * form one group (maxGroupSize is 64).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"conflict", "raise"})
    void everyInnocentCommitsOnceHoweverManyWritesInTheGroupEndIt(String kind) {
        List<CompletableFuture<String>> innocents = new ArrayList<>();
        List<CompletableFuture<Object>> culprits = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 56; i++) {
                if (i % 7 == 3) {
                    culprits.add(db.writeAsync(c -> {
                        c.createStatement().executeUpdate(endingStatement(kind));
                        return null;
                    }));
                } else {
                    innocents.add(db.writeAsync(insert("innocent-" + i)));
                }
            }
            blocker.release();
        }

        for (CompletableFuture<Object> culprit : culprits) {
            assertThat(failureOf(culprit).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        }
        for (CompletableFuture<String> innocent : innocents) {
            String v = join(innocent);
            assertThat(countOf(db, v)).as("%s committed once", v).isEqualTo(1);
        }
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t WHERE v LIKE 'innocent-%'"))
                .isEqualTo(48);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void aNonReplayableNeighbourFailsRolledBackNamingTheRequestThatEndedTheGroup() {
        CompletableFuture<String> once;
        CompletableFuture<String> replayable;
        CompletableFuture<Object> culprit;
        try (Blocker blocker = block(db)) {
            once = db.writeAsync(WriteOptions.builder().replayable(false).build(), insert("once"));
            replayable = db.writeAsync(insert("again"));
            culprit = db.writeAsync(WriteOptions.builder().label("the-culprit").build(), c -> {
                c.createStatement().executeUpdate(endingStatement("conflict"));
                return null;
            });
            blocker.release();
        }

        LanesException e = failureOf(once);
        assertThat(e).isInstanceOf(WriteFailedException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains("the-culprit");
        assertThat(countOf(db, "once")).isZero();
        assertThat(failureOf(culprit).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(join(replayable)).isEqualTo("again");
        assertThat(countOf(db, "again")).isEqualTo(1);
    }

    @Test
    void aStatementThatEndsTheGroupFailsAloneAndItsNeighboursCommit() {
        List<CompletableFuture<String>> innocents = new ArrayList<>();
        CompletableFuture<Integer> statement;
        try (Blocker blocker = block(db)) {
            innocents.add(db.writeAsync(insert("a")));
            // db.execute from another thread joins the queued group as a single statement.
            statement = CompletableFuture.supplyAsync(
                    () -> db.execute("INSERT INTO uniq(v) VALUES ('taken')"));
            TestLanes.awaitTrue("the statement to be queued", () -> db.diagnostics().writer().queued() == 2);
            innocents.add(db.writeAsync(insert("b")));
            blocker.release();
        }
        LanesException e = failureOf(statement);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        innocents.forEach(TestLanes::join);
        assertThat(countOf(db, "a")).isEqualTo(1);
        assertThat(countOf(db, "b")).isEqualTo(1);
    }

    @Test
    void aBodyThatSwallowsTheEndOfTheTransactionAndWritesOnFailsUnknown() {
        AtomicInteger innocentRuns = new AtomicInteger();
        CompletableFuture<String> before;
        CompletableFuture<String> after;
        CompletableFuture<Object> swallower;
        try (Blocker blocker = block(db)) {
            before = db.writeAsync(counted("before", innocentRuns));
            swallower = db.writeAsync(c -> {
                try {
                    c.createStatement().executeUpdate(endingStatement("conflict"));
                } catch (SQLException ignored) {
                    // swallowed: the transaction is already gone
                }
                insert("autocommitted").apply(c); // runs outside any transaction
                return "all fine, honestly";
            });
            after = db.writeAsync(counted("after", innocentRuns));
            blocker.release();
        }

        LanesException e = failureOf(swallower);
        assertThat(e).isInstanceOf(WriteFailedException.class);
        assertThat(e.outcome()).as("part of it autocommitted").isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(join(before)).isEqualTo("before");
        assertThat(join(after)).isEqualTo("after");
        assertThat(countOf(db, "before")).isEqualTo(1);
        assertThat(countOf(db, "after")).isEqualTo(1);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.write(insert("later"))).isEqualTo("later");
    }

    @Test
    void aBodyThatSwallowsTheEndOfTheTransactionWithoutWritingFailsRolledBack() {
        CompletableFuture<String> neighbour;
        CompletableFuture<Object> swallower;
        try (Blocker blocker = block(db)) {
            neighbour = db.writeAsync(insert("neighbour"));
            swallower = db.writeAsync(c -> {
                insert("lost").apply(c);
                try {
                    c.createStatement().executeUpdate(endingStatement("raise"));
                } catch (SQLException ignored) {
                    // swallowed, and nothing more written
                }
                return "fine";
            });
            blocker.release();
        }
        LanesException e = failureOf(swallower);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "lost")).isZero();
        assertThat(join(neighbour)).isEqualTo("neighbour");
        assertThat(countOf(db, "neighbour")).isEqualTo(1);
    }

    @Test
    void aBodyThatCommitsBehindTheGuardsBackNeverMakesANeighbourCommitTwice() {
        // unwrap() is the documented escape hatch; the lane still verifies the transaction after
        // every body. A COMMIT there also commits the neighbours that ran before it in the group.
        CompletableFuture<String> before;
        CompletableFuture<Object> rogue;
        CompletableFuture<String> after;
        try (Blocker blocker = block(db)) {
            before = db.writeAsync(insert("before-rogue"));
            rogue = db.writeAsync(c -> {
                c.unwrap(org.sqlite.SQLiteConnection.class).createStatement().execute("COMMIT");
                return null;
            });
            after = db.writeAsync(insert("after-rogue"));
            blocker.release();
        }
        LanesException e = failureOf(rogue);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        join(after);
        assertThat(countOf(db, "after-rogue")).isEqualTo(1);
        if (before.isCompletedExceptionally()) {
            assertThat(failureOf(before).outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        }
        assertThat(countOf(db, "before-rogue"))
                .as("the neighbour the rogue COMMIT already committed, run again").isEqualTo(1);
    }

    @Test
    void aBodyThatRollsBackBehindTheGuardsBackFailsAloneAndItsNeighboursCommitOnce() {
        CompletableFuture<String> before;
        CompletableFuture<Object> rogue;
        try (Blocker blocker = block(db)) {
            before = db.writeAsync(insert("before-rollback"));
            rogue = db.writeAsync(c -> {
                c.unwrap(org.sqlite.SQLiteConnection.class).createStatement().execute("ROLLBACK");
                return null;
            });
            blocker.release();
        }
        assertThat(failureOf(rogue).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(join(before)).isEqualTo("before-rollback");
        assertThat(countOf(db, "before-rollback")).isEqualTo(1);
    }

    @Test
    void aLoneWriteThatEndsItsTransactionFailsRolledBackAndTheLaneGoesOn() {
        LanesException e = catchThrowableOfType(LanesException.class, () -> db.write(c -> {
            insert("alone").apply(c);
            c.createStatement().executeUpdate(endingStatement("raise"));
            return null;
        }));
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "alone")).isZero();
        assertThat(db.write(insert("next"))).isEqualTo("next");
    }
}
