package dev.lanes.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import dev.lanes.fleet.FleetListener;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tenant fence on a real database: the token rides in every commit; a commit is refused
 * once the lease may have expired (rolled back, nothing written); a commit that ends past the
 * deadline is unknown and the writer refuses later writes until reopened.
 */
class TenantFenceTest {
    @TempDir Path dir;

    private final LeaseClock clock = new LeaseClock(0);
    private final List<String> refused = new CopyOnWriteArrayList<>();
    private final FleetEvents refusals = new FleetEvents(List.of(new FleetListener() {
        @Override
        public void commitRefused(String tenant) {
            refused.add(tenant);
        }
    }));
    private final AtomicInteger lapses = new AtomicInteger();

    private Database open(Lanes lanes, TenantFence fence) {
        return lanes.open(dir.resolve("t.db"),
                DatabaseOptions.builder().commitFence(fence).build());
    }

    @Test
    void everyCommitCarriesTheTokenAndCountsItsGroup() {
        clock.renewed(System.nanoTime(), 60);
        TenantFence fence = new TenantFence("t", "n1", 42, clock, refusals, lapses::incrementAndGet,
                null);
        try (Lanes lanes = Lanes.create()) {
            Database db = open(lanes, fence);
            db.execute("CREATE TABLE w (id INTEGER PRIMARY KEY)");
            db.execute("INSERT INTO w (id) VALUES (1)");
            db.execute("INSERT INTO w (id) VALUES (2)");
            var row = db.query("SELECT token, node, groups FROM lanes_fleet_fence").get(0);
            assertThat(row.getLong("token")).isEqualTo(42);
            assertThat(row.getString("node")).isEqualTo("n1");
            assertThat(row.getLong("groups")).isEqualTo(3);
        }
        assertThat(refusals.commitRefusals()).isZero();
        assertThat(refused).isEmpty();
        assertThat(lapses).hasValue(0);
    }

    @Test
    void aCommitAfterTheLeaseMayHaveExpiredIsRefusedAndWritesNothing() {
        clock.renewed(System.nanoTime(), 60);
        TenantFence fence = new TenantFence("t", "n1", 7, clock, refusals, lapses::incrementAndGet,
                null);
        try (Lanes lanes = Lanes.create()) {
            Database db = open(lanes, fence);
            db.execute("CREATE TABLE w (id INTEGER PRIMARY KEY)");
            clock.lose();
            assertThatThrownBy(() -> db.execute("INSERT INTO w (id) VALUES (1)"))
                    .isInstanceOfSatisfying(LanesException.class,
                            e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK));
            assertThat(db.query("SELECT count(*) AS n FROM w").get(0).getLong("n")).isZero();
            assertThat(refusals.commitRefusals()).isEqualTo(1);
            assertThat(refused).as("told to the listeners").containsExactly("t");
        }
    }

    @Test
    void aClosedEpochRefusesEvenWithTheLeaseHeld() {
        clock.renewed(System.nanoTime(), 60);
        TenantFence fence = new TenantFence("t", "n1", 7, clock, refusals, lapses::incrementAndGet,
                null);
        try (Lanes lanes = Lanes.create()) {
            Database db = open(lanes, fence);
            db.execute("CREATE TABLE w (id INTEGER PRIMARY KEY)");
            fence.close();
            assertThat(fence.held()).isFalse();
            assertThatThrownBy(() -> db.execute("INSERT INTO w (id) VALUES (1)"))
                    .isInstanceOfSatisfying(LanesException.class,
                            e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK));
        }
    }

    @Test
    void aCommitThatEndsPastTheDeadlineIsUnknownAndTheWriterRefusesLaterWrites() {
        clock.renewed(System.nanoTime(), 60);
        TenantFence fence = new TenantFence("t", "n1", 9, clock, refusals, lapses::incrementAndGet,
                null);
        // the lease lapses inside the commit: after the fence's check, before COMMIT returns (a
        // trigger on the fence's own row calls this function)
        org.sqlite.Function lapse = new org.sqlite.Function() {
            @Override
            protected void xFunc() throws java.sql.SQLException {
                clock.lose();
                result(0);
            }
        };
        try (Lanes lanes = Lanes.create()) {
            Database db = lanes.open(dir.resolve("t.db"), DatabaseOptions.builder()
                    .commitFence(fence)
                    // flagged so that the trigger may call it with trusted_schema off
                    .function("lapse", 0, org.sqlite.Function.FLAG_DETERMINISTIC, lapse).build());
            db.executeScript(TenantFence.CREATE + "; CREATE TABLE w (id INTEGER PRIMARY KEY);");
            db.execute("CREATE TRIGGER lapse_in_commit AFTER UPDATE ON lanes_fleet_fence"
                    + " WHEN (SELECT count(*) FROM w) > 0 BEGIN SELECT lapse(); END");
            assertThatThrownBy(() -> db.execute("INSERT INTO w (id) VALUES (1)"))
                    .isInstanceOfSatisfying(LanesException.class,
                            e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN));
            assertThat(lapses).as("the fleet is told to reopen or drop the tenant").hasValue(1);
            assertThatThrownBy(() -> db.execute("INSERT INTO w (id) VALUES (2)"))
                    .isInstanceOfSatisfying(LanesException.class,
                            e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED));
        }
    }

    @Test
    void aWriteReturnsOnlyAfterTheEpochsAcknowledgementAndCarriesItsFailure() {
        clock.renewed(System.nanoTime(), 60);
        AtomicInteger confirmations = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean confirm =
                new java.util.concurrent.atomic.AtomicBoolean(true);
        TenantFence fence = new TenantFence("t", "n1", 5, clock, refusals, lapses::incrementAndGet,
                () -> {
                    confirmations.incrementAndGet();
                    if (!confirm.get()) {
                        throw new dev.lanes.fleet.ReplicationUnconfirmedException("t", "unconfirmed");
                    }
                });
        try (Lanes lanes = Lanes.create()) {
            Database db = open(lanes, fence);
            db.execute("CREATE TABLE w (id INTEGER PRIMARY KEY)");
            assertThat(confirmations).hasValue(1);
            confirm.set(false);
            var e = org.assertj.core.api.Assertions.catchThrowableOfType(
                    dev.lanes.fleet.ReplicationUnconfirmedException.class,
                    () -> db.execute("INSERT INTO w (id) VALUES (1)"));
            assertThat(e.outcome()).isEqualTo(dev.lanes.WriteOutcome.UNKNOWN);
            assertThat(db.query("SELECT id FROM w")).as("committed, only unconfirmed").hasSize(1);
        }
    }
}
