package dev.lanes;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.Blocker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** RUNNING → CLOSING → CLOSED (or DEAD): what each state does to accepted and new work. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LifecycleTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    ExecutorService closer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        closer.shutdownNow();
    }

    @Test
    void closeDrainsEveryAcceptedWriteAndRefusesNewOnesWhileClosing() {
        Database db = runtime.openWithTable("drain.db");
        List<CompletableFuture<String>> accepted = new ArrayList<>();
        CompletableFuture<Void> closing;
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 20; i++) {
                accepted.add(db.writeAsync(insert("accepted-" + i)));
            }
            closing = CompletableFuture.runAsync(db::close, closer);
            awaitTrue("the database to start closing", () -> db.state() == DatabaseState.CLOSING);

            ClosingException sync = catchThrowableOfType(ClosingException.class,
                    () -> db.write(insert("too-late")));
            ClosingException async = catchThrowableOfType(ClosingException.class,
                    () -> db.writeAsync(insert("too-late")));
            assertThat(sync.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(sync.code()).isEqualTo(ErrorCode.CLOSING);
            assertThat(async.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(closing).as("close waits for the drain").isNotDone();

            blocker.release();
        }
        join(closing);
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        for (int i = 0; i < 20; i++) {
            assertThat(join(accepted.get(i))).isEqualTo("accepted-" + i);
        }

        Database reopened = runtime.lanes().open(db.path());
        assertThat(scalar(reopened, "accepted-%")).isEqualTo(20);
        assertThat(countOf(reopened, "too-late")).isZero();
    }

    private static long scalar(Database db, String like) {
        return TestLanes.scalar(db, "SELECT count(*) FROM t WHERE v LIKE ?", like);
    }

    @Test
    void aWriteAfterCloseFailsClosedAndNeverRuns() {
        Database db = runtime.openWithTable("closed.db");
        db.close();
        db.close(); // idempotent

        ClosedException sync = catchThrowableOfType(ClosedException.class,
                () -> db.write(insert("after")));
        ClosedException async = catchThrowableOfType(ClosedException.class,
                () -> db.writeAsync(insert("after")));
        ClosedException statement = catchThrowableOfType(ClosedException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('after')"));
        for (LanesException e : List.of(sync, async, statement)) {
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.code()).isEqualTo(ErrorCode.CLOSED);
        }
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(countOf(runtime.lanes().open(db.path()), "after")).isZero();
    }

    @Test
    void shutdownNowFailsQueuedWorkNotStartedWhileTheRunningTurnFinishes() {
        Database db = runtime.openWithTable("now.db");
        long failedBefore = db.diagnostics().writer().counters().failed();
        List<CompletableFuture<String>> queued = new ArrayList<>();
        CompletableFuture<Void> shutdown;
        Blocker running = block(db, c -> insert("running").apply(c));
        try (running) {
            for (int i = 0; i < 10; i++) {
                queued.add(db.writeAsync(insert("queued-" + i)));
            }
            shutdown = CompletableFuture.runAsync(db::shutdownNow, closer);
            // The queued writes fail while the running turn is still held by the blocker.
            for (CompletableFuture<String> q : queued) {
                LanesException e = failureOf(q);
                assertThat(e).isInstanceOf(ClosedException.class);
                assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            }
            assertThat(running.future).isNotDone();
            assertThat(shutdown).isNotDone();
            running.release();
        }
        assertThat(join(running.future)).isEqualTo("running");
        join(shutdown);
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(db.diagnostics().writer().counters().failed() - failedBefore).isEqualTo(10);

        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "running")).isEqualTo(1);
        assertThat(scalar(reopened, "queued-%")).isZero();
    }

    @Test
    void closeThatOutlastsCloseTimeoutThrowsAndStillCompletesLater() {
        Database db = runtime.openWithTable("slow.db",
                DatabaseOptions.builder().closeTimeout(Duration.ofMillis(100)).build());
        CompletableFuture<String> accepted;
        try (Blocker blocker = block(db)) {
            accepted = db.writeAsync(insert("accepted"));
            CloseTimeoutException e = catchThrowableOfType(CloseTimeoutException.class, db::close);
            assertThat(e).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.CLOSE_TIMEOUT);
            assertThat(db.state()).isEqualTo(DatabaseState.CLOSING);
            blocker.release();
        }
        assertThat(join(accepted)).as("no accepted work is abandoned").isEqualTo("accepted");
        awaitTrue("the background close to finish", () -> db.state() == DatabaseState.CLOSED);
        assertThat(countOf(runtime.lanes().open(db.path()), "accepted")).isEqualTo(1);
    }

    @Test
    void openingTheSamePathAgainReturnsTheSameDatabaseWhateverItsSpelling() throws Exception {
        Path direct = runtime.path("same.db");
        java.nio.file.Files.createDirectories(runtime.path("sub"));
        Database a = runtime.lanes().open(direct);
        Database b = runtime.lanes().open(runtime.path("sub").resolve("..").resolve("same.db"));
        Database c = runtime.lanes().open(Path.of("").toAbsolutePath().relativize(direct));
        Database d = runtime.lanes().open(runtime.path("nonexistent").resolve("..")
                .resolve("same.db"));

        assertThat(b).isSameAs(a);
        assertThat(c).isSameAs(a);
        assertThat(d).isSameAs(a);
        assertThat(a.path()).isEqualTo(runtime.dir().toRealPath().resolve("same.db"));

        a.execute("CREATE TABLE t(v TEXT)");
        a.close();
        Database fresh = runtime.lanes().open(direct);
        assertThat(fresh).isNotSameAs(a);
        assertThat(fresh.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(fresh.execute("INSERT INTO t(v) VALUES ('x')")).isEqualTo(1);
        assertThat(runtime.lanes().open(direct)).isSameAs(fresh);
    }

    @Test
    void aReadThatFailsBecauseTheFileCannotOpenFindsTheDatabaseDeadAlready() throws Exception {
        // a read waits for the writer to open the file; the failure it reports and the state
        // the caller then reads must agree, with no window in which it still says RUNNING
        for (int i = 0; i < 20; i++) {
            Path garbage = runtime.path("garbage-" + i + ".db");
            Files.writeString(garbage, "not an SQLite database, but long enough to "
                    + "have a header: " + "x".repeat(100));
            Database db = runtime.lanes().open(garbage);
            DatabaseDeadException read = catchThrowableOfType(DatabaseDeadException.class,
                    () -> db.query("SELECT 1"));
            assertThat(read).as("the read reports the open's failure").isNotNull();
            assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
            db.close();
        }
    }

    @Test
    void aDatabaseThatCannotOpenFailsAtFirstUseAsDeadWithTheCause() throws Exception {
        Database db = runtime.lanes().open(runtime.path("missing-dir").resolve("x.db"));

        DatabaseDeadException first = catchThrowableOfType(DatabaseDeadException.class,
                () -> db.execute("CREATE TABLE t(v TEXT)"));
        assertThat(first).isNotNull();
        assertThat(first.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(first.code()).isEqualTo(ErrorCode.DATABASE_DEAD);
        assertThat(first.getCause()).as("the reason it cannot open").isNotNull();
        assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
        assertThat(db.diagnostics().deadCause()).isPresent();

        DatabaseDeadException viaWrite = catchThrowableOfType(DatabaseDeadException.class,
                () -> db.write(insert("x")));
        DatabaseDeadException viaAsync = catchThrowableOfType(DatabaseDeadException.class,
                () -> db.writeAsync(insert("x")));
        for (DatabaseDeadException e : List.of(viaWrite, viaAsync)) {
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getCause()).isNotNull();
        }

        db.close();
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);

        // Once the cause is fixed, closing and reopening brings the database back.
        java.nio.file.Files.createDirectories(runtime.path("missing-dir"));
        Database reopened = runtime.lanes().open(runtime.path("missing-dir").resolve("x.db"));
        assertThat(reopened).isNotSameAs(db);
        reopened.execute("CREATE TABLE t(v TEXT)");
        assertThat(reopened.execute("INSERT INTO t(v) VALUES ('back')")).isEqualTo(1);
        assertThat(reopened.state()).isEqualTo(DatabaseState.RUNNING);
    }

    @Test
    void closingTheRuntimeDrainsAndClosesEveryDatabase() {
        Database a = runtime.openWithTable("a.db");
        Database b = runtime.openWithTable("b.db");
        CompletableFuture<String> queued;
        CompletableFuture<Void> closing;
        try (Blocker blocker = block(a)) {
            queued = a.writeAsync(insert("queued"));
            closing = CompletableFuture.runAsync(runtime.lanes()::close, closer);
            awaitTrue("a to start closing", () -> a.state() == DatabaseState.CLOSING);
            blocker.release();
        }
        join(closing);
        assertThat(join(queued)).isEqualTo("queued");
        assertThat(a.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(b.state()).isEqualTo(DatabaseState.CLOSED);
        ClosedException e = catchThrowableOfType(ClosedException.class,
                () -> runtime.open("c.db"));
        assertThat(e).isNotNull();
    }
}
