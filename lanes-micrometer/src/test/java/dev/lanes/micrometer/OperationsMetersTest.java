package dev.lanes.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.DatabaseState;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener.CheckpointTrigger;
import dev.lanes.MetricsListener.CheckpointType;
import dev.lanes.MetricsListener.Outcome;
import dev.lanes.MetricsListener;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The meters of the newer listener methods, driven by {@link FakeCore} as the core is to call
 * them: each meter exists with its tags, and moves with the events and gauges it stands for.
 */
class OperationsMetersTest {
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerMetrics metrics = MicrometerMetrics.builder(registry)
            .tagging(DatabaseTagging.perDatabase()).foldRefresh(Duration.ZERO).build();

    @Test
    void runtimeGaugesShowThreadsAndConnectionsAgainstTheBudget() {
        FakeCore.Pool pool = new FakeCore.Pool();
        pool.budget = 100;
        metrics.runtimeStarted(pool);

        assertThat(gauge("lanes.pool.max")).isEqualTo(64);
        assertThat(gauge("lanes.connections.open")).isEqualTo(3);
        assertThat(gauge("lanes.connections.budget")).isEqualTo(100);
        pool.connections = 99;
        assertThat(gauge("lanes.connections.open")).isEqualTo(99);
        pool.budget = 0;
        assertThat(gauge("lanes.connections.budget")).as("no cap").isNaN();

        metrics.connectionsEvicted("a.db", 3);
        metrics.connectionsEvicted("b.db", 2);
        metrics.connectionReopened("a.db", 400_000);
        assertThat(registry.get("lanes.connections.evictions").counter().count()).isEqualTo(2);
        Timer reopen = registry.get("lanes.connections.reopen").timer();
        assertThat(reopen.count()).isEqualTo(1);
        assertThat(reopen.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(400_000);
    }

    @Test
    void aGaugeTheRuntimeDoesNotReportReadsNanNotZero() {
        // an implementation of the gauges written before the newer methods existed
        metrics.runtimeStarted(new MetricsListener.PoolGauges() {
            @Override
            public int liveThreads() {
                return 1;
            }

            @Override
            public int busyThreads() {
                return 0;
            }

            @Override
            public int runnable() {
                return 0;
            }
        });
        metrics.databaseOpened("old.db", MicrometerMetricsTest.gauges());

        assertThat(gauge("lanes.pool.threads")).isEqualTo(1);
        assertThat(gauge("lanes.pool.max")).isNaN();
        assertThat(gauge("lanes.connections.open")).isNaN();
        assertThat(gauge("lanes.wal.size", "db", "old.db")).isNaN();
        assertThat(gauge("lanes.disk.free", "db", "old.db")).isNaN();
        assertThat(gauge("lanes.databases", "state", "running")).as("states not reported").isNaN();
        assertThat(gauge("lanes.databases", "state", "poisoned")).isZero();
    }

    @Test
    void databaseGaugesShowWalReadersAndFreeSpaceAgainstTheReserve() {
        FakeCore.Db db = new FakeCore.Db();
        metrics.databaseOpened("orders.db", db);
        db.wal = 5_000_000;
        db.readers = 3;
        db.waiting = 2;
        db.free = 1L << 30;

        assertThat(gauge("lanes.wal.size", "db", "orders.db")).isEqualTo(5_000_000);
        assertThat(gauge("lanes.readers.active", "db", "orders.db")).isEqualTo(3);
        assertThat(gauge("lanes.readers.waiting", "db", "orders.db")).isEqualTo(2);
        assertThat(gauge("lanes.disk.free", "db", "orders.db")).isEqualTo(1L << 30);
        assertThat(gauge("lanes.disk.reserve", "db", "orders.db")).isEqualTo(64L << 20);
        assertThat(registry.get("lanes.wal.size").gauge().getId().getBaseUnit()).isEqualTo("bytes");

        db.wal = 0;
        db.free = -1; // not sampled yet: unknown, not zero
        assertThat(gauge("lanes.wal.size", "db", "orders.db")).isZero();
        assertThat(gauge("lanes.disk.free", "db", "orders.db")).isNaN();

        metrics.diskFloorRefused("orders.db", 10, 20);
        metrics.diskFloorRefused("orders.db", 10, 20);
        assertThat(registry.get("lanes.disk.floor.refusals").tag("db", "orders.db").counter()
                .count()).isEqualTo(2);
    }

    @Test
    void checkpointsAreTimedByModeTriggerAndResultWithTheirPages() {
        metrics.databaseOpened("wal.db", new FakeCore.Db());

        metrics.checkpoint("wal.db", CheckpointType.PASSIVE, CheckpointTrigger.DEDICATED,
                2_000_000, 1200, 900, false, false);
        metrics.checkpoint("wal.db", CheckpointType.RESTART, CheckpointTrigger.DEDICATED,
                3_000_000, 1250, 1250, false, false);
        metrics.checkpoint("wal.db", CheckpointType.TRUNCATE, CheckpointTrigger.MANUAL,
                1_000_000, 40, 10, true, false);
        metrics.checkpoint("wal.db", CheckpointType.PASSIVE, CheckpointTrigger.MANUAL,
                500_000, -1, -1, false, true);

        assertThat(checkpoint("passive", "dedicated", "partial").count()).isEqualTo(1);
        assertThat(checkpoint("restart", "dedicated", "complete").count()).isEqualTo(1);
        assertThat(checkpoint("restart", "dedicated", "complete")
                .totalTime(TimeUnit.NANOSECONDS)).isEqualTo(3_000_000);
        assertThat(checkpoint("truncate", "manual", "busy").count()).isEqualTo(1);
        assertThat(checkpoint("passive", "manual", "failed").count()).isEqualTo(1);
        assertThat(registry.get("lanes.checkpoint.pages").tags("mode", "passive", "trigger",
                "dedicated").summary().totalAmount()).isEqualTo(900);
        assertThat(registry.get("lanes.checkpoint.backlog").tags("mode", "passive", "trigger",
                "dedicated").summary().totalAmount()).isEqualTo(300);
        assertThat(registry.get("lanes.checkpoint.backlog").tags("mode", "restart", "trigger",
                "dedicated").summary().max()).isZero();
        assertThat(registry.find("lanes.checkpoint.pages").tags("mode", "passive", "trigger",
                "manual").summary()).as("a failed checkpoint reports no pages").isNull();
    }

    @Test
    void readerWaitsAreTimedWithTheirP99() {
        metrics.databaseOpened("r.db", new FakeCore.Db());
        for (int i = 1; i <= 100; i++) {
            metrics.readerCheckout("r.db", i * 1_000_000L, true);
        }
        metrics.readerCheckout("r.db", 5_000_000_000L, false);

        Timer acquired = registry.get("lanes.reader.wait").tags("db", "r.db", "outcome",
                "acquired").timer();
        assertThat(acquired.count()).isEqualTo(100);
        ValueAtPercentile[] p = acquired.takeSnapshot().percentileValues();
        assertThat(p).singleElement().satisfies(v -> {
            assertThat(v.percentile()).isEqualTo(0.99);
            assertThat(v.value(TimeUnit.MILLISECONDS)).isBetween(95.0, 105.0);
        });
        assertThat(registry.get("lanes.reader.wait").tags("db", "r.db", "outcome",
                "not_acquired").timer().max(TimeUnit.SECONDS)).isEqualTo(5);
    }

    @Test
    void requestsCountByOperationAndOutcomeAndReplaysCount() {
        metrics.databaseOpened("w.db", new FakeCore.Db());
        LanesException rolledBack = new WriteFailedException(WriteOutcome.ROLLED_BACK, "boom",
                null);
        LanesException unknown = new WriteFailedException(WriteOutcome.UNKNOWN, "lost", null);

        FakeCore.write(metrics, "w.db", null, Outcome.COMMITTED, null, false, 4, 1000, 5000);
        FakeCore.write(metrics, "w.db", null, Outcome.COMMITTED, null, true, 3, 1000, 7000);
        FakeCore.write(metrics, "w.db", "bad", Outcome.ROLLED_BACK, rolledBack, false, 4, 10, 50);
        FakeCore.write(metrics, "w.db", null, Outcome.UNKNOWN, unknown, false, 4, 10, 50);
        Object tx = metrics.requestStarted("w.db", MetricsListener.Operation.TRANSACTION, null);
        metrics.requestCompleted(tx, "w.db", MetricsListener.Operation.TRANSACTION, null,
                Outcome.COMMITTED, null, false, 1, 0, 9_000_000);
        metrics.requestCompleted(null, "w.db", MetricsListener.Operation.READ, null,
                Outcome.FAILED, null, false, 1, 0, 100);

        assertThat(request("write", "committed").count()).isEqualTo(2);
        assertThat(request("write", "committed").totalTime(TimeUnit.NANOSECONDS))
                .isEqualTo(12_000);
        assertThat(request("write", "rolled_back").count()).isEqualTo(1);
        assertThat(request("write", "unknown").count()).isEqualTo(1);
        assertThat(request("transaction", "committed").max(TimeUnit.MILLISECONDS)).isEqualTo(9);
        assertThat(request("read", "failure").count()).isEqualTo(1);
        assertThat(registry.get("lanes.writer.replays").tag("db", "w.db").counter().count())
                .isEqualTo(1);
        assertThat(registry.get("lanes.errors").tags("db", "w.db", "code", "write_failed")
                .counter().count()).isEqualTo(2);
    }

    @Test
    void changeNotificationLagIsTimed() {
        metrics.databaseOpened("c.db", new FakeCore.Db());
        metrics.changeDelivered("c.db", 250_000);
        metrics.changeDelivered("c.db", 750_000);

        Timer lag = registry.get("lanes.change.lag").tag("db", "c.db").timer();
        assertThat(lag.count()).isEqualTo(2);
        assertThat(lag.mean(TimeUnit.NANOSECONDS)).isEqualTo(500_000);
    }

    @Test
    void databaseStatesAreCountedForTheRuntime() {
        metrics.runtimeStarted(new FakeCore.Pool());
        FakeCore.Db a = new FakeCore.Db();
        FakeCore.Db b = new FakeCore.Db();
        FakeCore.Db c = new FakeCore.Db();
        metrics.databaseOpened("a.db", a);
        metrics.databaseOpened("b.db", b);
        metrics.databaseOpened("c.db", c);
        b.poisoned = true;
        c.state = DatabaseState.DEAD;

        assertThat(gauge("lanes.databases", "state", "running")).isEqualTo(2);
        assertThat(gauge("lanes.databases", "state", "dead")).isEqualTo(1);
        assertThat(gauge("lanes.databases", "state", "closing")).isZero();
        assertThat(gauge("lanes.databases", "state", "poisoned")).isEqualTo(1);

        a.state = DatabaseState.CLOSING;
        metrics.databaseClosed("c.db", 1, false);
        assertThat(gauge("lanes.databases", "state", "closing")).isEqualTo(1);
        assertThat(gauge("lanes.databases", "state", "dead")).isZero();
    }

    @Test
    void badSettingsAreRefusedAtOnce() {
        assertThatThrownBy(() -> MicrometerMetrics.builder(registry).percentiles(99))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("99.0");
        assertThatThrownBy(() -> MicrometerMetrics.builder(registry)
                .tags(io.micrometer.core.instrument.Tags.of("state", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'state'");
        assertThatThrownBy(() -> DatabaseTagging.busiest(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
        assertThatThrownBy(() -> DatabaseTagging.busiest(3, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT0S");
    }

    @Test
    void percentilesCanBeTurnedOff() {
        MicrometerMetrics none = MicrometerMetrics.builder(registry).percentiles().build();
        none.databaseOpened("p.db", new FakeCore.Db());
        none.readerCheckout("p.db", 1000, true);
        assertThat(registry.get("lanes.reader.wait").tag("db", "p.db").timer().takeSnapshot()
                .percentileValues()).isEmpty();
    }

    private double gauge(String name, String... tags) {
        return registry.get(name).tags(tags).gauge().value();
    }

    private Timer checkpoint(String mode, String trigger, String result) {
        return registry.get("lanes.checkpoint.duration").tags("db", "wal.db", "mode", mode,
                "trigger", trigger, "result", result).timer();
    }

    private Timer request(String operation, String outcome) {
        return registry.get("lanes.request.duration").tags("db", "w.db", "operation", operation,
                "outcome", outcome).timer();
    }
}
