package dev.lanes.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.MetricsListener;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The tagging policies: which databases get meters of their own, and that none leak. */
class DatabaseTaggingTest {
    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aggregatedPutsEveryDatabaseInOneSetOfMetersThatFoldsTheGauges() {
        MicrometerMetrics metrics = build(DatabaseTagging.aggregated());
        FakeCore.Db a = new FakeCore.Db();
        FakeCore.Db b = new FakeCore.Db();
        metrics.databaseOpened("a.db", a);
        metrics.databaseOpened("b.db", b);
        a.queue = 3;
        b.queue = 4;
        a.wal = 10;
        b.wal = 70;
        a.free = 500;
        b.free = 200;
        b.poisoned = true;
        a.readers = 1;
        b.readers = 2;

        command(metrics, "a.db", 5);
        command(metrics, "b.db", 7);

        assertThat(dbTags()).containsExactly("_all");
        assertThat(gauge("lanes.writer.queue.depth", "_all")).isEqualTo(7);
        assertThat(gauge("lanes.wal.size", "_all")).as("the largest WAL").isEqualTo(70);
        assertThat(gauge("lanes.disk.free", "_all")).as("the fullest volume").isEqualTo(200);
        assertThat(gauge("lanes.writer.poisoned", "_all")).isEqualTo(1);
        assertThat(gauge("lanes.readers.active", "_all")).isEqualTo(3);
        assertThat(registry.get("lanes.command.duration").tag("db", "_all").timer().count())
                .isEqualTo(12);

        metrics.databaseClosed("b.db", 1, false);
        assertThat(gauge("lanes.writer.queue.depth", "_all")).as("b left the fold").isEqualTo(3);
    }

    @Test
    void anAllowListTagsTheNamedDatabasesAndFoldsTheRest() {
        MicrometerMetrics metrics = build(DatabaseTagging.allowList(Set.of("vip.db")));
        for (String db : List.of("vip.db", "x.db", "y.db")) {
            metrics.databaseOpened(db, new FakeCore.Db());
            command(metrics, db, 1);
        }

        assertThat(dbTags()).containsExactly("_other", "vip.db");
        assertThat(registry.get("lanes.command.duration").tag("db", "_other").timer().count())
                .isEqualTo(2);
        assertThat(metrics.taggedDatabases()).containsExactly("vip.db");
    }

    @Test
    void perDatabaseTagsEveryDatabase() {
        MicrometerMetrics metrics = build(DatabaseTagging.perDatabase());
        for (int i = 0; i < 20; i++) {
            metrics.databaseOpened("t" + i + ".db", new FakeCore.Db());
        }
        assertThat(dbTags()).hasSize(20).doesNotContain("_other", "_all");
    }

    @Test
    void busiestTagsTheFirstDatabasesAtOnceThenFoldsTheRest() {
        MicrometerMetrics metrics = build(DatabaseTagging.busiest(2, Duration.ofDays(1)));
        metrics.databaseOpened("a.db", new FakeCore.Db());
        metrics.databaseOpened("b.db", new FakeCore.Db());
        metrics.databaseOpened("c.db", new FakeCore.Db());

        assertThat(metrics.taggedDatabases()).containsExactly("a.db", "b.db");
        assertThat(dbTags()).containsExactly("_other", "a.db", "b.db");
    }

    @Test
    void aBusierDatabaseTakesAPlaceOnlyWhenClearlyBusierAndTheLoserLeavesNoMeters() {
        MicrometerMetrics metrics = build(DatabaseTagging.busiest(2, Duration.ofDays(1)));
        for (String db : List.of("a.db", "b.db", "c.db", "d.db")) {
            metrics.databaseOpened(db, new FakeCore.Db());
        }
        metrics.readerCheckout("b.db", 1, true); // a meter registered on first use
        int metersOfA = metersOf("a.db");
        assertThat(metersOfA).isPositive();

        // c is busier than b, but not twice as busy: nothing moves
        command(metrics, "a.db", 100);
        command(metrics, "b.db", 30);
        command(metrics, "c.db", 50);
        metrics.rank();
        assertThat(metrics.taggedDatabases()).containsExactly("a.db", "b.db");

        // d becomes far busier than b: it takes b's place; b's meters leave the registry
        command(metrics, "a.db", 100);
        command(metrics, "b.db", 10);
        command(metrics, "d.db", 400);
        metrics.rank();
        assertThat(metrics.taggedDatabases()).containsExactly("a.db", "d.db");
        assertThat(metersOf("b.db")).isZero();
        assertThat(metersOf("d.db")).isEqualTo(metersOfA);
        assertThat(dbTags()).containsExactly("_other", "a.db", "d.db");

        // b's later events count in _other
        long before = registry.get("lanes.command.duration").tag("db", "_other").timer().count();
        command(metrics, "b.db", 3);
        assertThat(registry.get("lanes.command.duration").tag("db", "_other").timer().count())
                .isEqualTo(before + 3);
    }

    @Test
    void aClosedTaggedDatabaseKeepsItsHistoryUntilTheNextRankingGivesItsPlaceAway() {
        MicrometerMetrics metrics = build(DatabaseTagging.busiest(1, Duration.ofDays(1)));
        metrics.databaseOpened("gone.db", new FakeCore.Db());
        metrics.databaseOpened("next.db", new FakeCore.Db());
        command(metrics, "gone.db", 5);
        metrics.databaseClosed("gone.db", 1_000, false);

        assertThat(registry.get("lanes.close.duration").tag("db", "gone.db").timer().count())
                .isEqualTo(1);
        assertThat(registry.find("lanes.writer.queue.depth").tag("db", "gone.db").gauge())
                .as("gauges leave at close").isNull();

        command(metrics, "next.db", 1);
        metrics.rank();

        assertThat(metersOf("gone.db")).isZero();
        assertThat(metrics.taggedDatabases()).containsExactly("next.db");
    }

    @Test
    void rankingRunsFromTheEventsOncePerPeriod() {
        // a period of one nanosecond: every event finds a ranking due
        MicrometerMetrics metrics = build(DatabaseTagging.busiest(1, Duration.ofNanos(1)));
        metrics.databaseOpened("idle.db", new FakeCore.Db());
        metrics.databaseOpened("hot.db", new FakeCore.Db());
        assertThat(metrics.taggedDatabases()).containsExactly("idle.db");

        command(metrics, "hot.db", 10);

        assertThat(metrics.taggedDatabases()).containsExactly("hot.db");
        assertThat(metersOf("idle.db")).isZero();
    }

    @Test
    void theMetersStayBoundedHoweverManyDatabasesComeAndGo() {
        MicrometerMetrics metrics = build(DatabaseTagging.busiest(3, Duration.ofDays(1)));
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 50; i++) {
                String db = "r" + round + "-" + i + ".db";
                metrics.databaseOpened(db, new FakeCore.Db());
                command(metrics, db, 1 + i);
                metrics.readerCheckout(db, 1, true);
            }
            metrics.rank();
            for (int i = 0; i < 50; i++) {
                metrics.databaseClosed("r" + round + "-" + i + ".db", 1, false);
            }
        }
        metrics.rank();
        // the last ranking found every database closed: only the shared meters are left
        assertThat(dbTags()).containsExactly("_other");
    }

    @Test
    void theRankingPromotesIntoFreePlacesAndSwapsOnlyPastTheHysteresis() {
        record C(String name, double score, boolean tagged) implements BusiestRanking.Candidate {}
        C a = new C("a", 10, true);
        C b = new C("b", 4, true);
        C c = new C("c", 7, false);
        C d = new C("d", 9, false);
        C idle = new C("idle", 0, false);

        // two places, both taken: d (9) is not more than twice b (4)... it is: 9 > 8
        BusiestRanking.Decision<C> swap = BusiestRanking.rank(List.of(a, b, c, d, idle), 2);
        assertThat(swap.promote()).containsExactly(d);
        assertThat(swap.demote()).containsExactly(b);

        // with b at 5, neither challenger is more than twice as busy
        C b5 = new C("b", 5, true);
        BusiestRanking.Decision<C> stay = BusiestRanking.rank(List.of(a, b5, c, d), 2);
        assertThat(stay.promote()).isEmpty();
        assertThat(stay.demote()).isEmpty();

        // free places go to the busiest others, never to an idle one
        BusiestRanking.Decision<C> fill = BusiestRanking.rank(List.of(a, c, d, idle), 4);
        assertThat(fill.promote()).containsExactly(d, c);
        assertThat(fill.demote()).isEmpty();
    }

    private MicrometerMetrics build(DatabaseTagging tagging) {
        return MicrometerMetrics.builder(registry).tagging(tagging).foldRefresh(Duration.ZERO)
                .build();
    }

    private static void command(MicrometerMetrics metrics, String db, int times) {
        for (int i = 0; i < times; i++) {
            metrics.command(db, MetricsListener.Operation.WRITE, true, "INSERT", 1000, true);
        }
    }

    private Set<String> dbTags() {
        return registry.getMeters().stream().map(m -> m.getId().getTag("db"))
                .filter(t -> t != null).collect(Collectors.toCollection(TreeSet::new));
    }

    private int metersOf(String db) {
        int n = 0;
        for (Meter m : registry.getMeters()) {
            if (db.equals(m.getId().getTag("db"))) {
                n++;
            }
        }
        return n;
    }

    private double gauge(String name, String db) {
        return registry.get(name).tag("db", db).gauge().value();
    }
}
