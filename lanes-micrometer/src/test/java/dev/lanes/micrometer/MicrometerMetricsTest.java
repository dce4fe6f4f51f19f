package dev.lanes.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import dev.lanes.CloseTimeoutException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.MetricsListener;
import dev.lanes.OverloadedException;
import dev.lanes.SqlFunction;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.RequiredSearch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Micrometer binding, checked against {@link SimpleMeterRegistry} after a real workload on a
 * real runtime: every meter exists with its tags and moves when the workload exercises it.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MicrometerMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir Path dir;
    MeterRegistry registry;
    Lanes lanes;

    @BeforeEach
    void start() {
        registry = new SimpleMeterRegistry();
    }

    @AfterEach
    void stop() {
        if (lanes != null) {
            lanes.close();
        }
    }

    @Test
    void everyMeterMovesUnderAWorkloadThatExercisesIt() throws Exception {
        // One pool thread: a held body occupies it, so another database's work stays runnable.
        lanes = Lanes.builder().name("mm").maxThreads(1)
                .metrics(new MicrometerMetrics(registry, Tags.of("app", "test"))).build();
        assertThat(gauge("lanes.pool.threads").value()).isZero();

        Database db = openWithTable("orders.db", DatabaseOptions.builder()
                .writeQueueCapacity(2)
                .writeQueueTimeout(Duration.ZERO).slowWriteThreshold(Duration.ofMillis(50)).build());
        Database other = openWithTable("other.db", DatabaseOptions.DEFAULTS);
        for (String name : List.of("lanes.writer.queue.depth", "lanes.writer.poisoned",
                "lanes.transaction.open")) {
            assertThat(gauge(name, "db", "orders.db").value()).as(name).isZero();
        }

        // Hold the writer: two writes queue behind it, a third overflows the queue of two.
        Held held = hold(db);
        long queuedAt = System.nanoTime();
        CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
        CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
        assertThatThrownBy(() -> db.write(insert("refused")))
                .isInstanceOf(OverloadedException.class);
        CompletableFuture<String> elsewhere = other.writeAsync(insert("elsewhere"));

        assertThat(gauge("lanes.writer.queue.depth", "db", "orders.db").value()).isEqualTo(2);
        assertThat(gauge("lanes.pool.threads").value()).isEqualTo(1);
        assertThat(gauge("lanes.pool.busy").value()).isEqualTo(1);
        assertThat(gauge("lanes.pool.runnable").value()).isEqualTo(1);
        assertThat(counter("lanes.writer.overloads", "db", "orders.db").count()).isEqualTo(1);

        // The queued writes become slow (over 50 ms from submission to outcome) while held.
        awaitTrue("the queued writes to be slow",
                () -> System.nanoTime() - queuedAt > TimeUnit.MILLISECONDS.toNanos(80));
        held.release();
        join(held.future);
        join(q1);
        join(q2);
        join(elsewhere);
        assertThat(gauge("lanes.writer.queue.depth", "db", "orders.db").value()).isZero();
        awaitTrue("the slow-write report",
                () -> counter("lanes.writer.slow", "db", "orders.db").count() >= 1);

        // A failing body, a statement, maintenance, an interactive transaction.
        WriteFailedException failed = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(c -> {
                    throw new SQLException("boom");
                }));
        assertThat(failed).isNotNull();
        db.execute("INSERT INTO t(v) VALUES (?)", "statement");
        db.maintenance(c -> {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("PRAGMA wal_checkpoint(PASSIVE)");
            }
            return null;
        });
        try (Transaction tx = db.begin()) {
            assertThat(gauge("lanes.transaction.open", "db", "orders.db").value()).isEqualTo(1);
            tx.execute("INSERT INTO t(v) VALUES (?)", "in-tx");
            tx.commit();
        }
        assertThat(gauge("lanes.transaction.open", "db", "orders.db").value()).isZero();

        // A defect inside a turn (an unchecked exception where none is expected) is a crash
        // and poisons the writer.
        Database fragile = lanes.open(dir.resolve("fragile.db"));
        ((DatabaseImpl) fragile).lane().faults(point -> {
            if (point == FaultInjector.Point.BEGIN) {
                throw new IllegalStateException("injected defect");
            }
        });
        WriteFailedException crashed = catchThrowableOfType(WriteFailedException.class,
                () -> fragile.write(c -> 1));
        assertThat(crashed.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(gauge("lanes.writer.poisoned", "db", "fragile.db").value()).isEqualTo(1);
        assertThat(gauge("lanes.writer.poisoned", "db", "orders.db").value()).isZero();
        assertThat(counter("lanes.crashes", "db", "fragile.db").count()).isEqualTo(1);

        // A close that times out, then completes.
        Database slowClose = openWithTable("slowclose.db", DatabaseOptions.builder()
                .closeTimeout(Duration.ofMillis(50)).build());
        Held closing = hold(slowClose);
        assertThatThrownBy(slowClose::close).isInstanceOf(CloseTimeoutException.class);
        assertThat(counter("lanes.close.timeouts", "db", "slowclose.db").count()).isEqualTo(1);
        assertThat(registry.find("lanes.writer.queue.depth").tag("db", "slowclose.db").gauge())
                .as("a database still closing keeps its gauges").isNotNull();
        closing.release();
        join(slowClose.whenTerminated());
        assertThat(timer("lanes.close.duration", "db", "slowclose.db").count()).isEqualTo(1);

        db.close();

        // Per-database meters, with their tags.
        assertThat(timer("lanes.writer.queue.wait", "db", "orders.db").count())
                .isGreaterThanOrEqualTo(3);
        DistributionSummary groupSize = summary("lanes.writer.group.size", "db", "orders.db");
        assertThat(groupSize.count()).isPositive();
        assertThat(groupSize.max()).as("q1 and q2 committed as one group").isGreaterThanOrEqualTo(2);
        assertThat(timer("lanes.writer.group.duration", "db", "orders.db").count()).isPositive();
        assertThat(timer("lanes.writer.group.duration", "db", "orders.db")
                .totalTime(TimeUnit.NANOSECONDS)).isPositive();
        assertThat(command("orders.db", "write", "true", "body", "success").count())
                .as("q1, q2 and the held body").isGreaterThanOrEqualTo(3);
        assertThat(command("orders.db", "write", "true", "body", "failure").count()).isEqualTo(1);
        assertThat(command("orders.db", "write", "true", "insert", "success").count())
                .isGreaterThanOrEqualTo(1);
        assertThat(command("orders.db", "maintenance", "false", "body", "success").count())
                .isEqualTo(1);
        assertThat(command("orders.db", "transaction", "true", "insert", "success").count())
                .isEqualTo(1);
        assertThat(counter("lanes.errors", "db", "orders.db", "code", "write_failed").count())
                .isEqualTo(1);
        assertThat(counter("lanes.errors", "db", "fragile.db", "code", "write_failed").count())
                .isEqualTo(1);
        assertThat(timer("lanes.close.duration", "db", "orders.db").count()).isEqualTo(1);
        assertThat(timer("lanes.close.duration", "db", "orders.db").totalTime(TimeUnit.NANOSECONDS))
                .isPositive();

        // Closed databases leave the registry's gauges; their history stays.
        for (String name : List.of("lanes.writer.queue.depth", "lanes.writer.poisoned",
                "lanes.transaction.open")) {
            assertThat(registry.find(name).tag("db", "orders.db").gauge()).as(name).isNull();
            assertThat(registry.find(name).tag("db", "slowclose.db").gauge()).as(name).isNull();
            assertThat(registry.find(name).tag("db", "other.db").gauge()).as(name).isNotNull();
        }
        assertThat(counter("lanes.writer.overloads", "db", "orders.db").count()).isEqualTo(1);

        // Every meter carries the common tag.
        for (Meter meter : registry.getMeters()) {
            assertThat(meter.getId().getTag("app")).as(meter.getId().toString()).isEqualTo("test");
        }
    }

    @Test
    void theCommonTagsMayNotClashWithTheMetersOwnTags() {
        assertThatThrownBy(() -> new MicrometerMetrics(registry, Tags.of("db", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'db'");
    }

    @Test
    void statementKindsAreBoundedAndLowerCase() {
        assertThat(MeterNames.kindTag("INSERT")).isEqualTo("insert");
        assertThat(MeterNames.kindTag("BODY")).isEqualTo("body");
        assertThat(MeterNames.kindTag("with")).isEqualTo("with");
        assertThat(MeterNames.kindTag("INSERTT")).isEqualTo("other");
        assertThat(MeterNames.kindTag("")).isEqualTo("other");
        assertThat(MeterNames.kindTag(null)).isEqualTo("other");

        MicrometerMetrics metrics = new MicrometerMetrics(registry);
        metrics.databaseOpened("x.db", gauges());
        for (int i = 0; i < 100; i++) {
            metrics.command("x.db", MetricsListener.Operation.WRITE, true, "GARBAGE" + i, 1, true);
        }
        assertThat(registry.find("lanes.command.duration").tag("db", "x.db").timers())
                .singleElement().satisfies(t -> {
                    assertThat(t.getId().getTag("statement_kind")).isEqualTo("other");
                    assertThat(t.count()).isEqualTo(100);
                });
    }

    @Test
    void anUncleanCloseCountsAndReleasesTheDatabasesGauges() {
        MicrometerMetrics metrics = new MicrometerMetrics(registry);
        metrics.databaseOpened("lost.db", gauges());
        assertThat(registry.find("lanes.writer.queue.depth").tag("db", "lost.db").gauge())
                .isNotNull();

        metrics.uncleanClose("lost.db");

        assertThat(counter("lanes.unclean.closes", "db", "lost.db").count()).isEqualTo(1);
        assertThat(registry.find("lanes.writer.queue.depth").tag("db", "lost.db").gauge())
                .isNull();
    }

    @Test
    void aDatabaseCollectedWithoutCloseCountsAsAnUncleanClose() {
        abandonADatabase();
        awaitTrue("the abandoned database to be collected", () -> {
            System.gc();
            Counter c = registry.find("lanes.unclean.closes").tag("db", "abandoned.db").counter();
            return c != null && c.count() == 1;
        });
        assertThat(registry.find("lanes.writer.queue.depth").tag("db", "abandoned.db").gauge())
                .isNull();
    }

    private void abandonADatabase() {
        Lanes abandoned = Lanes.builder().name("abandoned").maxThreads(1)
                .metrics(new MicrometerMetrics(registry, Tags.of("runtime", "abandoned"))).build();
        abandoned.open(dir.resolve("abandoned.db"));
    }

    @Test
    void closeRemovesEveryGaugeItBound() {
        MicrometerMetrics metrics = new MicrometerMetrics(registry);
        lanes = Lanes.builder().name("mm").metrics(metrics).build();
        openWithTable("a.db", DatabaseOptions.DEFAULTS);
        assertThat(registry.find("lanes.pool.threads").gauge()).isNotNull();
        assertThat(registry.find("lanes.writer.queue.depth").tag("db", "a.db").gauge()).isNotNull();

        metrics.close();

        assertThat(registry.find("lanes.pool.threads").gauge()).isNull();
        assertThat(registry.find("lanes.writer.queue.depth").gauge()).isNull();
        assertThat(counter("lanes.writer.overloads", "db", "a.db").count())
                .as("counters stay").isZero();
    }

    @Test
    void aGaugeOfAnotherRuntimeIsNotRemovedByThisOnesClose() {
        // Two bindings without distinct tags: the newer gauge wins, and the older binding's
        // unbinding must not take the newer one with it.
        MicrometerMetrics first = new MicrometerMetrics(registry);
        MicrometerMetrics second = new MicrometerMetrics(registry);
        first.databaseOpened("same.db", gauges());
        second.databaseOpened("same.db", gauges());
        Gauge current = registry.find("lanes.writer.queue.depth").tag("db", "same.db").gauge();

        first.databaseClosed("same.db", 1, false);

        assertThat(registry.find("lanes.writer.queue.depth").tag("db", "same.db").gauge())
                .isSameAs(current);
    }

    // ------------------------------------------------------------------ helpers

    private Database openWithTable(String name, DatabaseOptions options) {
        Database db = lanes.open(dir.resolve(name), options);
        db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
        return db;
    }

    private static SqlFunction<String> insert(String v) {
        return c -> {
            try (var s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                s.setString(1, v);
                s.executeUpdate();
            }
            return v;
        };
    }

    /** Gauges as a core written before the newer gauge methods implements them. */
    static MetricsListener.DatabaseGauges gauges() {
        return new MetricsListener.DatabaseGauges() {
            @Override
            public int queueDepth() {
                return 0;
            }

            @Override
            public boolean writerPoisoned() {
                return false;
            }

            @Override
            public boolean transactionOpen() {
                return false;
            }
        };
    }

    /** A write whose body runs on a pool thread and waits until released. */
    private record Held(CountDownLatch latch, CompletableFuture<Object> future) {
        void release() {
            latch.countDown();
        }
    }

    private static Held hold(Database db) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> future = db.writeAsync(c -> {
            started.countDown();
            if (!release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the test never released the held body");
            }
            return "held";
        });
        if (!started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("the held body never started");
        }
        return new Held(release, future);
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("expected success, got " + e.getCause(), e.getCause());
        } catch (TimeoutException | InterruptedException e) {
            throw new AssertionError("did not complete within " + WAIT, e);
        }
    }

    /** Polls a state another thread reaches; never used to order events by time. */
    private static void awaitTrue(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private RequiredSearch search(String name, String... tags) {
        return registry.get(name).tags(tags);
    }

    private Gauge gauge(String name, String... tags) {
        return search(name, tags).gauge();
    }

    private Counter counter(String name, String... tags) {
        return search(name, tags).counter();
    }

    private Timer timer(String name, String... tags) {
        return search(name, tags).timer();
    }

    private DistributionSummary summary(String name, String... tags) {
        return search(name, tags).summary();
    }

    private Timer command(String db, String operation, String inTransaction, String kind,
            String outcome) {
        return timer("lanes.command.duration", "db", db, "operation", operation, "in_transaction",
                inTransaction, "statement_kind", kind, "outcome", outcome);
    }
}
