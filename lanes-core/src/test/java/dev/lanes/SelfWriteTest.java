package dev.lanes;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A body that waits for another write to its own database is refused instead of deadlocking. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SelfWriteTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("self.db");
    }

    @Test
    void aBodyWritingToItsOwnDatabaseSynchronouslyFailsInsteadOfDeadlocking() {
        AtomicReference<Throwable> inner = new AtomicReference<>();
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.write(c -> {
                    insert("outer").apply(c);
                    try {
                        return db.write(insert("inner"));
                    } catch (RuntimeException refused) {
                        inner.set(refused);
                        throw refused;
                    }
                }));

        assertThat(e).isNotNull();
        assertThat(inner.get()).isInstanceOf(InvalidRequestException.class);
        assertThat(((LanesException) inner.get()).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(countOf(db, "outer")).isZero();
        assertThat(countOf(db, "inner")).isZero();
        assertThat(db.write(insert("after"))).isEqualTo("after");
    }

    @Test
    void aBodyOnAPoolThreadCallingExecuteOrMaintenanceOnItsOwnDatabaseIsRefused() {
        LanesException viaExecute = failureOf(db.writeAsync(
                c -> db.execute("INSERT INTO t(v) VALUES ('inner')")));
        LanesException viaMaintenance = failureOf(db.writeAsync(c -> db.maintenance(x -> 1)));
        LanesException viaWrite = failureOf(db.writeAsync(c -> db.write(insert("inner"))));

        assertThat(viaExecute).isInstanceOf(InvalidRequestException.class);
        assertThat(viaMaintenance).isInstanceOf(InvalidRequestException.class);
        assertThat(viaWrite).isInstanceOf(InvalidRequestException.class);
        assertThat(countOf(db, "inner")).isZero();
    }

    @Test
    void aBodyMayQueueAnAsyncWriteToItsOwnDatabaseWhichCommitsAfterIt() {
        AtomicReference<CompletableFuture<String>> queued = new AtomicReference<>();
        String outer = db.write(c -> {
            queued.set(db.writeAsync(insert("queued-from-body")));
            return insert("outer").apply(c);
        });
        assertThat(outer).isEqualTo("outer");
        assertThat(join(queued.get())).isEqualTo("queued-from-body");
        assertThat(countOf(db, "queued-from-body")).isEqualTo(1);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t WHERE v = 'outer' AND id < "
                + "(SELECT id FROM t WHERE v = 'queued-from-body')")).isEqualTo(1);
    }

    /**
     * A sleep is no wait for a future: a body that queues a write to its own database and then
     * sleeps past the watch's bound (the sleep is what is tested, not an ordering) keeps it, and
     * it commits after the body.
     */
    @Test
    void aBodyThatSleepsKeepsTheWriteItQueuedToItsOwnDatabase() {
        AtomicReference<CompletableFuture<String>> queued = new AtomicReference<>();
        db.write(c -> {
            queued.set(db.writeAsync(insert("queued-then-slept")));
            try {
                Thread.sleep(1_000); // twice OwnLaneWatch's half-second bound
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return insert("outer").apply(c);
        });
        assertThat(join(queued.get())).isEqualTo("queued-then-slept");
        assertThat(countOf(db, "queued-then-slept")).isEqualTo(1);
    }

    /**
     * {@code db.write(c -> db.writeAsync(...).join())} would wait for a write that can only run
     * after the body ends, and so deadlock the database for good. The wait is refused at once,
     * the queued write is withdrawn unrun, and the database goes on writing.
     */
    @Test
    void aBodyJoiningTheFutureOfAWriteItQueuedToItsOwnDatabaseIsRefusedInsteadOfDeadlocking() {
        AtomicReference<CompletableFuture<String>> queued = new AtomicReference<>();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        String outer = db.write(c -> {
            queued.set(db.writeAsync(insert("joined-in-body")));
            try {
                queued.get().join();
            } catch (RuntimeException e) {
                refused.set(e);
            }
            return insert("outer").apply(c);
        });

        assertThat(outer).isEqualTo("outer");
        assertThat(refused.get()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("withdrawn and never ran");
        assertThat(((LanesException) refused.get()).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        LanesException later = failureOf(queued.get());
        assertThat(later).isInstanceOf(InvalidRequestException.class);
        assertThat(later.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(countOf(db, "joined-in-body")).isZero();
        assertThat(db.write(insert("after"))).isEqualTo("after");
    }

    @Test
    void aBodyWaitingOnAStageDerivedFromItsOwnQueuedWriteIsRefusedToo() {
        AtomicReference<Throwable> refused = new AtomicReference<>();
        db.write(c -> {
            CompletableFuture<Integer> derived = db.writeAsync(insert("derived"))
                    .thenApply(String::length);
            try {
                derived.get(1, java.util.concurrent.TimeUnit.MINUTES);
            } catch (Exception e) {
                refused.set(e);
            }
            return null;
        });

        assertThat(refused.get()).isInstanceOf(InvalidRequestException.class);
        assertThat(countOf(db, "derived")).isZero();
    }

    /**
     * {@code allOf(f).join()} waits for {@code f} through another future, which no refusal on
     * {@code f} reaches: once the body stayed parked, the write it queued is withdrawn unrun, so
     * {@code allOf} completes, exceptionally, and the body goes on.
     */
    @Test
    void aBodyJoiningAllOfItsOwnQueuedWriteEndsAndTheWriteNeverRuns() {
        assertTheWaitEnds(db::write, "all-of", f -> joined(CompletableFuture.allOf(f)));
    }

    /** {@code anyOf} of it and a future nothing completes: only the queued write can end it. */
    @Test
    void aBodyJoiningAnyOfItsOwnQueuedWriteEndsAndTheWriteNeverRuns() {
        assertTheWaitEnds(db::write, "any-of",
                f -> joined(CompletableFuture.anyOf(f, new CompletableFuture<>())));
    }

    /** A latch its callback counts down is no future at all: the wait on it ends the same way. */
    @Test
    void aBodyAwaitingALatchItsOwnQueuedWriteCountsDownEndsAndTheWriteNeverRuns() {
        assertTheWaitEnds(db::write, "latch", f -> {
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Throwable> seen = new AtomicReference<>();
            f.whenComplete((v, e) -> {
                seen.set(e);
                done.countDown();
            });
            TestLanes.await(done, "the queued write's callback");
            return seen.get();
        });
    }

    /**
     * A body run on the pool's only thread: the withdrawn write's failure cannot wait for a free
     * pool thread to be delivered, since the parked body holds it.
     */
    @Test
    void anAsyncBodyOnTheOnlyPoolThreadJoiningAllOfItsOwnQueuedWriteEnds() {
        db = TestLanes.openWithTable(runtime.another(Lanes.builder().name("one-thread")
                .maxThreads(1)), runtime.dir(), "one-thread.db", DatabaseOptions.DEFAULTS);
        assertTheWaitEnds(body -> join(db.writeAsync(body)), "one-thread",
                f -> joined(CompletableFuture.allOf(f)));
    }

    /**
     * Runs, through {@code run}, a body that queues a write of {@code value} to its own database
     * and then waits for it as {@code wait} does, which returns the failure the wait saw. The
     * body went on and committed; the write ended {@code NOT_STARTED}, as its future says too,
     * and never ran; the database goes on writing.
     */
    private void assertTheWaitEnds(Function<SqlFunction<String>, String> run, String value,
            Function<CompletableFuture<String>, Throwable> wait) {
        AtomicReference<CompletableFuture<String>> queued = new AtomicReference<>();
        AtomicReference<Throwable> ended = new AtomicReference<>();
        String outer = run.apply(c -> {
            queued.set(db.writeAsync(insert(value)));
            ended.set(wait.apply(queued.get()));
            return insert("outer").apply(c);
        });

        assertThat(outer).isEqualTo("outer");
        assertThat(countOf(db, "outer")).isEqualTo(1);
        assertThat(ended.get()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("withdrawn and never ran");
        assertThat(((LanesException) ended.get()).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(failureOf(queued.get())).isSameAs(ended.get());
        assertThat(countOf(db, value)).isZero();
        assertThat(db.write(insert("after"))).isEqualTo("after");
        assertThat(countOf(db, "after")).isEqualTo(1);
    }

    /** Joins {@code f}; the cause of its failure, or null when it succeeded. */
    private static Throwable joined(CompletableFuture<?> f) {
        try {
            f.join();
            return null;
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    @Test
    void theRefusalOfAWaitingWriteInABodyNoLongerSuggestsWritingAsyncAndWaiting() {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.write(c -> db.write(insert("inner"))));

        assertThat(e.getMessage()).contains("do not wait for it there");
    }

    @Test
    void callbacksChainedOnAWriteFutureRunAfterTheLaneIsReleasedSoTheyMayWriteAgain() {
        CompletableFuture<String> chained = db.writeAsync(insert("first"))
                .thenApply(first -> db.write(insert(first + "-then-second")));
        assertThat(join(chained)).isEqualTo("first-then-second");
        assertThat(countOf(db, "first-then-second")).isEqualTo(1);
    }

    @Test
    void aBodyMayWriteSynchronouslyToAnotherDatabase() {
        Database other = runtime.openWithTable("other.db");
        String result = db.write(c -> other.write(insert("elsewhere")));
        assertThat(result).isEqualTo("elsewhere");
        assertThat(countOf(other, "elsewhere")).isEqualTo(1);
    }
}
