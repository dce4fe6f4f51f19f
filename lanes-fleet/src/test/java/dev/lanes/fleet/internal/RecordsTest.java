package dev.lanes.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The texts the fleet reads back: replica records in etcd, Litestream's metrics, the lease clock. */
class RecordsTest {
    @Test
    void aReplicaRecordReadsBackAsWritten() {
        ReplicaRecord r = new ReplicaRecord(1234, true, "node-a");
        assertThat(ReplicaRecord.decode(r.encode())).isEqualTo(r);
        assertThat(ReplicaRecord.decode("epoch=7 clean=0 node=b"))
                .isEqualTo(new ReplicaRecord(7, false, "b"));
        assertThatThrownBy(() -> ReplicaRecord.decode("clean=1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void litestreamMetricsGivePositionsByDatabase() {
        String text = String.join("\n",
                "# HELP litestream_sync_count Number of sync operations",
                "litestream_sync_count{db=\"/d/a.db\"} 21",
                "litestream_shadow_wal_index{db=\"/d/a.db\"} 1",
                "litestream_shadow_wal_size{db=\"/d/a.db\"} 16512",
                "litestream_replica_wal_index{db=\"/d/a.db\",name=\"s3\"} 1",
                "litestream_replica_wal_offset{db=\"/d/a.db\",name=\"s3\"} 8272",
                "litestream_sync_count{db=\"/d/b.db\"} 3",
                "litestream_shadow_wal_size{db=\"/d/b.db\"} 4152",
                "litestream_sync_count{db=\"/d/c.db\"} 2",
                "litestream_shadow_wal_index{db=\"/d/c.db\"} 0",
                "litestream_shadow_wal_size{db=\"/d/c.db\"} 4152",
                "");
        LitestreamMetrics m = LitestreamMetrics.parse(text);
        LitestreamMetrics.Position a = m.of("/d/a.db");
        assertThat(a).isEqualTo(new LitestreamMetrics.Position(21, 1, 16512, 1, 8272));
        assertThat(a.replicaCovers(1, 8272)).isTrue();
        assertThat(a.replicaCovers(1, 16512)).isFalse();
        assertThat(a.replicaCovers(0, 99999)).isTrue();
        assertThat(m.of("/d/b.db")).as("no shadow position reported yet").isNull();
        LitestreamMetrics.Position c = m.of("/d/c.db");
        assertThat(c).as("synced, no replica position reported yet")
                .isEqualTo(new LitestreamMetrics.Position(2, 0, 4152, -1, -1));
        assertThat(c.replicaReported()).isFalse();
        assertThat(c.replicaCovers(0, 32)).isFalse();
        assertThat(a.replicaReported()).isTrue();
    }

    @Test
    void theLeaseClockStopsAMarginShortOfEachRenewalAndALostOneStaysLost() {
        LeaseClock clock = new LeaseClock(500_000_000L);
        assertThat(clock.held()).as("before any renewal").isFalse();
        long sent = System.nanoTime();
        clock.renewed(sent, 2);
        assertThat(clock.held()).isTrue();
        assertThat(clock.remainingNanos()).isLessThanOrEqualTo(1_500_000_000L);
        clock.renewed(sent - 10_000_000_000L, 2); // an older answer never moves it back
        assertThat(clock.held()).isTrue();
        clock.lose();
        assertThat(clock.held()).isFalse();
        assertThat(clock.remainingNanos()).isZero();
        clock.renewed(sent - 10_000_000_000L, 2); // renewed into the past: still not held
        assertThat(clock.held()).isFalse();
    }
}
