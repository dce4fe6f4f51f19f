package dev.lanes;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
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
