package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Readiness and failure signals: {@link Database#whenReady()}, {@link Database#whenTerminated()}
 * and the {@link Database#state()} transitions.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReadinessTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void whenReadyOpensADatabaseNothingHasUsedAndCompletesWithIt() throws Exception {
        Path file = runtime.path("lazy.db");
        Database db = runtime.lanes().open(file);
        assertThat(file).as("the connection opens on first use").doesNotExist();

        Database ready = join(db.whenReady());

        assertThat(ready).isSameAs(db);
        assertThat(file).as("whenReady opened it").exists();
        assertThat(db.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(db.whenReady()).as("stays complete").isCompletedWithValue(db);
        assertThat(db.whenTerminated()).isNotDone();
    }

    @Test
    void aReadOfAnExistingWalDatabaseOpensOnlyAReaderAndTheFirstWriteOpensTheWriter()
            throws Exception {
        Path file = runtime.path("tenant.db");
        try (Lanes first = runtime.another()) {
            Database db = first.open(file);
            db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            db.execute("INSERT INTO t(v) VALUES ('kept')");
        }
        Lanes later = runtime.lanes();
        Database db = later.open(file);

        assertThat(db.query("SELECT v FROM t").get(0).getString("v")).isEqualTo("kept");
        assertThat(later.diagnostics().openConnections())
                .as("one reader connection, no writer: a cold tenant's read costs one open")
                .isEqualTo(1);
        assertThat(db.diagnostics().readers().openConnections()).isEqualTo(1);

        assertThat(db.execute("INSERT INTO t(v) VALUES ('new')")).isEqualTo(1);
        assertThat(later.diagnostics().openConnections()).as("the write opened the writer")
                .isEqualTo(2);
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
        assertThat(db.whenReady()).isCompletedWithValue(db);
    }

    @Test
    void aReadOfAFileThatIsNotYetAWalDatabaseWaitsForTheWriterToMakeItOne() {
        Path file = runtime.path("fresh.db");
        Database db = runtime.lanes().open(file);

        assertThat(db.query("SELECT 1 AS one").get(0).getLong("one")).isEqualTo(1);
        assertThat(db.whenReady()).as("the read opened the writer, which created the file")
                .isCompletedWithValue(db);
        assertThat(file).exists();
    }

    @Test
    void whenReadyCompletesAtOnceForADatabaseAlreadyInUse() {
        Database db = runtime.openWithTable("used.db");

        assertThat(db.whenReady()).isCompletedWithValue(db);
    }

    @Test
    void whenReadyCompletesOnlyAfterTheInitializerRan() {
        Database db = runtime.open("init.db", DatabaseOptions.builder()
                .initializer(c -> c.createStatement().execute("CREATE TABLE made(a)")).build());

        assertThat(db.whenReady()).as("open waited for it").isCompletedWithValue(db);
        assertThat(db.execute("INSERT INTO made VALUES (1)")).isEqualTo(1);
    }

    @Test
    void aDatabaseThatCannotOpenFailsAwaitReadyAndTerminatesDeadWithTheCause() throws Exception {
        Path file = runtime.path("no-such-dir").resolve("x.db");
        Database db = runtime.lanes().open(file);

        DatabaseDeadException dead = failure(db.whenReady(), DatabaseDeadException.class);

        assertThat(dead.getCause()).as("why it cannot open").isNotNull();
        assertThat(dead.getMessage()).contains("x.db");
        assertThat(dead.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        Termination t = join(db.whenTerminated());
        assertThat(t.state()).isEqualTo(DatabaseState.DEAD);
        assertThat(t.cause()).containsSame(dead.getCause());
        assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
        assertThat(db.diagnostics().deadCause()).isPresent();

        // A later whenReady reports the same failure, and a write fails the same way.
        assertThat(failure(db.whenReady(), DatabaseDeadException.class).getCause())
                .isSameAs(dead.getCause());
        assertThat(catchThrowableOfType(DatabaseDeadException.class, () -> db.write(insert("x"))))
                .isNotNull();
        db.close();
        assertThat(join(db.whenTerminated()).state()).as("the first final state stays")
                .isEqualTo(DatabaseState.DEAD);
    }

    @Test
    void whenTerminatedCompletesClosedAfterClose() {
        Database db = runtime.openWithTable("c.db");
        CompletableFuture<Termination> terminated = db.whenTerminated();
        assertThat(terminated).isNotDone();

        db.close();

        Termination t = join(terminated);
        assertThat(t.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(t.cause()).isEmpty();
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
    }

    @Test
    void whenReadyOnADatabaseClosedBeforeItOpenedFailsClosed() {
        Database db = runtime.open("never.db");
        db.close();

        LanesException e = TestLanes.failureOf(db.whenReady());

        assertThat(e).isInstanceOf(ClosedException.class);
        assertThat(join(db.whenTerminated()).state()).isEqualTo(DatabaseState.CLOSED);
    }

    @Test
    void stateMovesFromRunningThroughClosingToClosed() {
        Database db = runtime.openWithTable("s.db");
        assertThat(db.state()).isEqualTo(DatabaseState.RUNNING);
        TestLanes.Blocker blocker = block(db, insert("held"));

        CompletableFuture<Void> closing = CompletableFuture.runAsync(db::close);
        TestLanes.awaitTrue("the close to begin", () -> db.state() == DatabaseState.CLOSING);
        assertThat(db.whenTerminated()).as("not final while closing").isNotDone();
        assertThat(closing).as("close waits for the held body").isNotDone();
        assertThat(db.diagnostics().state()).isEqualTo(DatabaseState.CLOSING);

        blocker.release();
        join(closing);

        assertThat(join(blocker.future)).isEqualTo("held");
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(join(db.whenTerminated()).state()).isEqualTo(DatabaseState.CLOSED);
        Database reopened = runtime.lanes().open(db.path());
        assertThat(TestLanes.countOf(reopened, "held")).as("the held write drained").isEqualTo(1);
    }

    @Test
    void transactionOpenAndItsListenerFollowAnInteractiveTransaction() throws Exception {
        Database db = runtime.openWithTable("tx.db");
        java.util.concurrent.LinkedBlockingQueue<Boolean> seen =
                new java.util.concurrent.LinkedBlockingQueue<>();
        try (Subscription s = db.onTransactionStateChange(seen::add)) {
            assertThat(db.isTransactionOpen()).isFalse();
            Transaction tx = db.begin();
            assertThat(db.isTransactionOpen()).isTrue();
            assertThat(seen.poll(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            tx.commit();
            assertThat(db.isTransactionOpen()).isFalse();
            assertThat(seen.poll(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
        }
    }

    private static <E extends LanesException> E failure(CompletableFuture<?> future, Class<E> type)
            throws Exception {
        try {
            Object value = future.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + value);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(type);
            return type.cast(e.getCause());
        }
    }
}
