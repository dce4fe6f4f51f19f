package dev.lanes;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.rawCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConfig;

/**
 * {@code cork()} holds every later write in one outer transaction: each write's call returns once
 * applied, reads through the database see them, other connections do not, and {@code uncork()}
 * commits them as one. An uncork asked for inside an open transaction runs when it ends.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CorkTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;
    ExecutorService helper = Executors.newCachedThreadPool();

    @BeforeEach
    void start() {
        db = runtime.openWithTable("cork.db", DatabaseOptions.builder()
                .closeTimeout(Duration.ofSeconds(30))
                .transactionIdleTimeout(Duration.ofSeconds(30))
                .build());
    }

    @AfterEach
    void stop() {
        helper.shutdownNow();
    }

    @Test
    void corkedWritesCompleteAndAreReadableHereButInvisibleElsewhereUntilUncork() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('before-cork')");
        db.cork();

        assertThat(db.execute("INSERT INTO t(v) VALUES ('corked-statement')")).isEqualTo(1);
        assertThat(db.write(insert("corked-body"))).isEqualTo("corked-body");
        List<CompletableFuture<String>> async = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            async.add(db.writeAsync(insert("corked-async")));
        }
        for (CompletableFuture<String> f : async) {
            assertThat(join(f)).as("a corked write completes once applied").isEqualTo("corked-async");
        }

        assertThat(countOf(db, "corked-statement")).as("reads while corked see corked writes")
                .isEqualTo(1);
        assertThat(countOf(db, "corked-async")).isEqualTo(20);
        assertThat(rawCount(db.path(), "corked-%"))
                .as("no corked write is visible (committed) to another connection").isZero();
        assertThat(rawCount(db.path(), "before-cork"))
                .as("a write acknowledged before cork() is committed").isEqualTo(1);

        db.uncork();

        assertThat(rawCount(db.path(), "corked-%")).isEqualTo(22);
        assertThat(rawCount(db.path(), "before-cork")).isEqualTo(1);
    }

    @Test
    void corkedWritesFromManyThreadsAllBecomeVisibleAtOnceAtUncork() throws Exception {
        db.cork();
        List<CompletableFuture<String>> writes = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int thread = t;
            writes.add(CompletableFuture.supplyAsync(() -> {
                for (int i = 0; i < 25; i++) {
                    db.write(insert("w-" + thread));
                }
                return "done";
            }, helper));
        }
        for (CompletableFuture<String> w : writes) {
            join(w);
        }
        assertThat(rawCount(db.path(), "w-%")).isZero();
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t WHERE v LIKE 'w-%'"))
                .isEqualTo(200);
        db.uncork();
        assertThat(rawCount(db.path(), "w-%")).isEqualTo(200);
    }

    @Test
    void aFailedWriteWhileCorkedRollsBackAloneAndTheOthersCommitAtUncork() throws Exception {
        db.execute("CREATE TABLE u(k TEXT UNIQUE)");
        db.cork();
        db.execute("INSERT INTO u(k) VALUES ('a')");
        WriteFailedException statement = catchThrowableOfType(WriteFailedException.class,
                () -> db.execute("INSERT INTO u(k) VALUES ('b'), ('a')"));
        assertThat(statement.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        WriteFailedException body = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(c -> {
                    try (var s = c.createStatement()) {
                        s.executeUpdate("INSERT INTO u(k) VALUES ('from-failed-body')");
                    }
                    throw new IllegalStateException("give up");
                }));
        assertThat(body.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        db.execute("INSERT INTO u(k) VALUES ('c')");

        db.uncork();

        assertThat(db.query("SELECT k FROM u ORDER BY k").stream().map(r -> r.getString("k")))
                .containsExactly("a", "c");
        assertThat(rawCount(db.path(), "SELECT count(*) FROM u", null)).isEqualTo(2);
    }

    @Test
    void corkTwiceAndUncorkWhenNotCorkedAreRefused() throws Exception {
        InvalidRequestException notCorked = catchThrowableOfType(InvalidRequestException.class,
                db::uncork);
        assertThat(notCorked.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(notCorked.getMessage()).contains("not corked");

        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        InvalidRequestException twice = catchThrowableOfType(InvalidRequestException.class,
                db::cork);
        assertThat(twice.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(twice.getMessage()).contains("already corked");
        assertThat(rawCount(db.path(), "corked"))
                .as("the refused second cork() committed nothing").isZero();

        db.uncork();
        assertThat(rawCount(db.path(), "corked")).isEqualTo(1);
        InvalidRequestException again = catchThrowableOfType(InvalidRequestException.class,
                db::uncork);
        assertThat(again.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);

        // The cycle can start again.
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('second-round')");
        assertThat(rawCount(db.path(), "second-round")).isZero();
        db.uncork();
        assertThat(rawCount(db.path(), "second-round")).isEqualTo(1);
    }

    @Test
    void maintenanceWhileCorkedIsRefusedWithoutRunning() throws Exception {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        AtomicBoolean ran = new AtomicBoolean();
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.maintenance(c -> {
                    ran.set(true);
                    return null;
                }));
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("corked");
        assertThat(ran).isFalse();
        assertThat(rawCount(db.path(), "corked")).as("the cork is intact").isZero();

        db.uncork();
        assertThat(rawCount(db.path(), "corked")).isEqualTo(1);
        String ran2 = db.maintenance(c -> "ran");
        assertThat(ran2).as("maintenance runs again once uncorked").isEqualTo("ran");
    }

    @Test
    void anUncorkInsideAnOpenTransactionIsDeferredUntilTheTransactionEnds() throws Exception {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");

        // Bounded: an uncork that waited for the open transaction would never return here.
        join(CompletableFuture.runAsync(db::uncork, helper));

        assertThat(tx.isOpen()).isTrue();
        InvalidRequestException second = catchThrowableOfType(InvalidRequestException.class,
                db::uncork);
        assertThat(second.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(second.getMessage()).contains("already pending");
        InvalidRequestException corkAgain = catchThrowableOfType(InvalidRequestException.class,
                db::cork);
        assertThat(corkAgain).as("still corked until the deferred uncork ran").isNotNull();
        assertThat(rawCount(db.path(), "corked")).as("not committed before the tx ends").isZero();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        assertThat(rawCount(db.path(), "in-tx")).isZero();

        tx.commit();
        // This write queues after the deferred uncork, so it returns after the uncork ran.
        db.write(insert("after-uncork"));

        assertThat(rawCount(db.path(), "corked")).isEqualTo(1);
        assertThat(rawCount(db.path(), "in-tx")).isEqualTo(2);
        assertThat(rawCount(db.path(), "after-uncork")).isEqualTo(1);
        // Uncorked for good: a new cork cycle works.
        db.cork();
        db.uncork();
    }

    @Test
    void aDeferredUncorkAlsoRunsWhenTheTransactionRollsBack() throws Exception {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        join(CompletableFuture.runAsync(db::uncork, helper));
        tx.rollback();
        db.write(insert("after-uncork"));

        assertThat(rawCount(db.path(), "corked")).as("the corked write survives the tx rollback")
                .isEqualTo(1);
        assertThat(rawCount(db.path(), "in-tx")).isZero();
        assertThat(rawCount(db.path(), "after-uncork")).isEqualTo(1);
    }

    @Test
    void aTransactionCommittedWhileCorkedIsHeldByTheCorkAndARolledBackOneLeavesTheCorkIntact()
            throws Exception {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('tx-committed')");
            tx.commit();
        }
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('tx-rolled-back')");
            tx.rollback();
        }
        assertThat(countOf(db, "tx-committed")).isEqualTo(1);
        assertThat(countOf(db, "corked")).as("rolling back a tx kept earlier corked writes")
                .isEqualTo(1);
        assertThat(rawCount(db.path(), "tx-committed"))
                .as("a transaction committed while corked is not durable before uncork").isZero();

        db.uncork();

        assertThat(rawCount(db.path(), "corked")).isEqualTo(1);
        assertThat(rawCount(db.path(), "tx-committed")).isEqualTo(1);
        assertThat(rawCount(db.path(), "tx-rolled-back")).isZero();
    }

    @Test
    void anIdleTransactionRolledBackWhileCorkedUndoesOnlyItself() throws Exception {
        Database idle = runtime.openWithTable("cork-idle.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(200)).build());
        idle.cork();
        idle.execute("INSERT INTO t(v) VALUES ('corked')");
        Transaction tx = idle.begin();
        tx.execute("INSERT INTO t(v) VALUES ('forgotten')");
        CompletableFuture<String> queued = idle.writeAsync(insert("queued"));

        assertThat(join(queued)).isEqualTo("queued");
        assertThat(tx.isOpen()).isFalse();
        idle.uncork();

        assertThat(rawCount(idle.path(), "corked")).isEqualTo(1);
        assertThat(rawCount(idle.path(), "queued")).isEqualTo(1);
        assertThat(rawCount(idle.path(), "forgotten")).isZero();
    }

    @Test
    void closeWhileCorkedCommitsTheHeldWrites() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('before-cork')");
        db.cork();
        for (int i = 0; i < 10; i++) {
            db.execute("INSERT INTO t(v) VALUES ('corked')");
        }
        assertThat(rawCount(db.path(), "corked")).isZero();

        db.close();

        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "corked")).isEqualTo(10);
        assertThat(countOf(reopened, "before-cork")).isEqualTo(1);
        // The reopened database is not corked.
        reopened.execute("INSERT INTO t(v) VALUES ('after-reopen')");
        assertThat(rawCount(reopened.path(), "after-reopen")).isEqualTo(1);
    }

    @Test
    void shutdownNowWhileCorkedRollsTheHeldWritesBack() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('before-cork')");
        db.cork();
        for (int i = 0; i < 10; i++) {
            db.execute("INSERT INTO t(v) VALUES ('corked')");
        }

        db.shutdownNow();

        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "corked")).isZero();
        assertThat(countOf(reopened, "before-cork")).isEqualTo(1);
        reopened.execute("INSERT INTO t(v) VALUES ('after-reopen')");
        assertThat(rawCount(reopened.path(), "after-reopen")).isEqualTo(1);
    }

    @Test
    void shutdownNowWhileCorkedWithAnOpenTransactionRollsBothBack() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('before-cork')");
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");

        db.shutdownNow();

        assertThat(tx.isOpen()).isFalse();
        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "corked")).isZero();
        assertThat(countOf(reopened, "in-tx")).isZero();
        assertThat(countOf(reopened, "before-cork")).isEqualTo(1);
    }

    @Test
    void anUncorkAskedForWhileACorkIsStillQueuedDoesNotLeaveTheDatabaseCorked() throws Exception {
        // The lane is pinned by a transaction, so a cork() from another thread waits in the queue.
        Transaction tx = db.begin();
        CompletableFuture<Void> corking = CompletableFuture.runAsync(db::cork, helper);
        awaitTrue("cork() to queue behind the transaction",
                () -> db.diagnostics().writer().queued() == 1);

        Throwable uncork = null;
        try {
            db.uncork();
        } catch (InvalidRequestException e) {
            uncork = e; // refusing it ("not corked yet") is a fine answer too
        }
        tx.commit();
        join(corking);
        db.write(insert("after"));

        if (uncork == null) {
            assertThat(rawCount(db.path(), "after"))
                    .as("uncork() returned normally, so writes after it must not stay corked")
                    .isEqualTo(1);
        } else {
            // Then the cork stands and one more uncork must release it.
            db.uncork();
            assertThat(rawCount(db.path(), "after")).isEqualTo(1);
        }
    }

    /** Rows of {@code t} LIKE {@code pattern} that another, read-only connection sees. */
}
