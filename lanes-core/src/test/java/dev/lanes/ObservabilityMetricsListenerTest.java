package dev.lanes;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.lanes.TestLanes.Blocker;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The metrics SPI hears what the runtime does, with the database's name and the command's kind;
 * and a listener that throws never breaks a write.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ObservabilityMetricsListenerTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void aListenerThatThrowsNeverBreaksWrites() {
        AtomicInteger calls = new AtomicInteger();
        MetricsListener throwing = (MetricsListener) java.lang.reflect.Proxy.newProxyInstance(
                MetricsListener.class.getClassLoader(), new Class<?>[] {MetricsListener.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.getName().equals("hashCode") ? 0
                                : method.getName().equals("equals") ? proxy == args[0]
                                : "throwing listener";
                    }
                    calls.incrementAndGet();
                    throw new IllegalStateException("listener failed in " + method.getName());
                });
        // The runtime logs each failure of the listener; keep them here, off the console.
        Database db;
        List<ILoggingEvent> logged;
        try (LogCapture log = LogCapture.everything().quiet()) {
            logged = log.events();
            runtime.start(Lanes.builder().name("throwing").maxThreads(2).metrics(throwing));
            db = runtime.openWithTable("sturdy.db", DatabaseOptions.builder()
                    .writeQueueCapacity(4)
                .writeQueueTimeout(Duration.ZERO).slowWriteThreshold(Duration.ofMillis(50)).build());

            // the leader path, on this thread
            assertThat(db.write(insert("sync"))).isEqualTo("sync");
            assertThat(db.execute("INSERT INTO t(v) VALUES (?)", "statement")).isEqualTo(1);

            // a group on the pool, made slow, with an overload while it waits
            List<CompletableFuture<String>> queued = new ArrayList<>();
            long queuedAt;
            try (Blocker blocker = block(db)) {
                for (int i = 0; i < 4; i++) {
                    queued.add(db.writeAsync(insert("queued-" + i)));
                }
                catchThrowableOfType(OverloadedException.class, () -> db.write(insert("refused")));
                queuedAt = System.nanoTime();
                // Time must pass for the slow-write report; this orders nothing.
                awaitTrue("the queued writes to be slow",
                        () -> System.nanoTime() - queuedAt > TimeUnit.MILLISECONDS.toNanos(100));
            }
            queued.forEach(TestLanes::join);

            // a failing write, maintenance, an interactive transaction
            CompletableFuture<Object> failing = db.writeAsync(c -> {
                throw new SQLException("boom");
            });
            assertThat(failureOf(failing)).isInstanceOf(WriteFailedException.class);
            assertThat(db.<Integer>maintenance(c -> 7)).isEqualTo(7);
            try (Transaction tx = db.begin()) {
                tx.execute("INSERT INTO t(v) VALUES (?)", "in-tx");
                tx.commit();
            }
            assertThat(countOf(db, "sync")).isEqualTo(1);
            assertThat(countOf(db, "statement")).isEqualTo(1);
            assertThat(countOf(db, "queued-3")).isEqualTo(1);
            assertThat(countOf(db, "refused")).isZero();
            assertThat(countOf(db, "in-tx")).isEqualTo(1);
            assertThat(db.diagnostics().writer().poisoned()).isFalse();
            runtime.close();
        }
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        // it really was called, and really threw, on every path above; the failures were
        // logged, a database's repeated ones only once at WARN so a broken listener cannot
        // flood the log
        assertThat(calls.get()).isGreaterThan(10);
        assertThat(logged).filteredOn(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().contains("metrics listener failed"))
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(e -> assertThat(e.getThrowableProxy().getMessage())
                        .startsWith("listener failed in "));
        assertThat(logged).filteredOn(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().startsWith("sturdy.db: the metrics listener failed;"))
                .hasSize(1);
        assertThat(logged).noneMatch(e -> e.getLevel() == Level.ERROR);
    }

    @Test
    void theListenerHearsCommandsGroupsErrorsOverloadsAndCloses() {
        Recording recording = new Recording();
        Database db;
        // One pool thread: a turn's report is done before the next pool turn, the close included.
        runtime.start(Lanes.builder().name("heard").maxThreads(1).metrics(recording));
        assertThat(recording.pool.get()).as("pool gauges bound at start").isNotNull();
        db = runtime.openWithTable("heard.db",
                DatabaseOptions.builder().writeQueueCapacity(2)
                .writeQueueTimeout(Duration.ZERO).build());
        assertThat(recording.opened).containsExactly("heard.db");
        MetricsListener.DatabaseGauges gauges = recording.gauges.get();

        db.execute("/* a comment */ -- and another\n  insert INTO t(v) VALUES (?)", "kind");
        db.write(insert("body"));
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            assertThat(gauges.queueDepth()).isEqualTo(2);
            assertThat(recording.pool.get().busyThreads()).isEqualTo(1);
            catchThrowableOfType(OverloadedException.class, () -> db.write(insert("no")));
            blocker.release();
            join(q1);
            join(q2);
        }
        catchThrowableOfType(WriteFailedException.class, () -> db.write(c -> {
            throw new SQLException("boom");
        }));
        db.maintenance(c -> null);
        try (Transaction tx = db.begin()) {
            assertThat(gauges.transactionOpen()).isTrue();
            tx.execute("UPDATE t SET v = v");
            tx.commit();
        }
        assertThat(gauges.transactionOpen()).isFalse();
        assertThat(gauges.writerPoisoned()).isFalse();
        awaitTrue("the group of two to be reported",
                () -> recording.events.contains("group heard.db 2"));
        db.close();
        runtime.close();

        assertThat(recording.events).contains(
                "command heard.db WRITE true INSERT success",
                "command heard.db WRITE true BODY success",
                "command heard.db WRITE true BODY failure",
                "command heard.db MAINTENANCE false BODY success",
                "command heard.db TRANSACTION true UPDATE success",
                "error heard.db WRITE_FAILED",
                "overload heard.db",
                "group heard.db 2",
                "closed heard.db false");
        assertThat(recording.events).doesNotContain("crash heard.db", "unclean heard.db");
        assertThat(recording.queueWaits.get()).isGreaterThanOrEqualTo(6);
        assertThat(recording.closeNanos.get()).isPositive();
    }

    /** Records every event as a short string. */
    private static final class Recording implements MetricsListener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<String> opened = new CopyOnWriteArrayList<>();
        final AtomicReference<PoolGauges> pool = new AtomicReference<>();
        final AtomicReference<DatabaseGauges> gauges = new AtomicReference<>();
        final AtomicInteger queueWaits = new AtomicInteger();
        final java.util.concurrent.atomic.AtomicLong closeNanos =
                new java.util.concurrent.atomic.AtomicLong();

        @Override
        public void runtimeStarted(PoolGauges pool) {
            this.pool.set(pool);
        }

        @Override
        public void databaseOpened(String db, DatabaseGauges gauges) {
            opened.add(db);
            this.gauges.set(gauges);
        }

        @Override
        public void databaseClosed(String db, long nanos, boolean timedOut) {
            closeNanos.set(nanos);
            events.add("closed " + db + " " + timedOut);
        }

        @Override
        public void queueWait(String db, long nanos) {
            if (nanos >= 0) {
                queueWaits.incrementAndGet();
            }
        }

        @Override
        public void command(String db, Operation operation, boolean inTransaction,
                String statementKind, long nanos, boolean success) {
            events.add("command " + db + " " + operation + " " + inTransaction + " "
                    + statementKind + " " + (success ? "success" : "failure"));
        }

        @Override
        public void groupCommitted(String db, int size, long nanos) {
            events.add("group " + db + " " + size);
        }

        @Override
        public void error(String db, ErrorCode code) {
            events.add("error " + db + " " + code);
        }

        @Override
        public void overload(String db) {
            events.add("overload " + db);
        }

        @Override
        public void crash(String db) {
            events.add("crash " + db);
        }

        @Override
        public void uncleanClose(String db) {
            events.add("unclean " + db);
        }
    }
}
