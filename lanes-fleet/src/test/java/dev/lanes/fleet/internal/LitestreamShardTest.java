package dev.lanes.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.fleet.ObjectStore;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Litestream configuration a shard writes: each tenant's database, its replica at its
 * epoch's path, shipped every sync interval, snapshotted every snapshot interval and
 * checkpointed (a new WAL index) at least as often.
 */
class LitestreamShardTest {
    @Test
    void eachReplicaIsSyncedAndSnapshottedAtTheConfiguredIntervals() {
        ObjectStore store = ObjectStore.builder().endpoint("http://127.0.0.1:9000")
                .bucket("replicas").accessKeyId("key").secretAccessKey("secret").build();
        LitestreamShard shard = new LitestreamShard("litestream-0", Path.of("litestream"),
                Path.of("dir"), store, new LitestreamShard.Intervals(Duration.ofMillis(150),
                        Duration.ofMinutes(5), Duration.ofMinutes(30)), HttpClient.newHttpClient());
        List<String> yaml = shard.yaml(4000, Map.of(
                "a", new LitestreamShard.Entry(Path.of("/data/a.db"), "tenants/a/7"),
                "b", new LitestreamShard.Entry(Path.of("/data/b.db"), "tenants/b/9")))
                .lines().toList();

        assertThat(yaml).contains("addr: \"127.0.0.1:4000\"", "  - path: /data/a.db",
                "        path: tenants/a/7", "  - path: /data/b.db", "        path: tenants/b/9");
        assertThat(yaml).filteredOn(l -> l.equals("    monitor-interval: 150ms")).hasSize(2);
        assertThat(yaml).filteredOn(l -> l.equals("        sync-interval: 150ms")).hasSize(2);
        assertThat(yaml).filteredOn(l -> l.equals("        snapshot-interval: 300000ms"))
                .hasSize(2);
        assertThat(yaml).as("Litestream's default checkpoint interval, below the snapshots'")
                .filteredOn(l -> l.equals("    checkpoint-interval: 60000ms")).hasSize(2);
        assertThat(yaml).filteredOn(l -> l.equals("        retention: 1800000ms")).hasSize(2);
        assertThat(yaml).as("checked as often as the retention, when under Litestream's 1 h")
                .filteredOn(l -> l.equals("        retention-check-interval: 1800000ms"))
                .hasSize(2);
    }

    @Test
    void aWalIndexBeginsAtLeastAsOftenAsASnapshotIsTaken() {
        LitestreamShard.Intervals often = new LitestreamShard.Intervals(Duration.ofMillis(100),
                Duration.ofSeconds(5), Duration.ofDays(1));
        assertThat(often.checkpoint()).isEqualTo(Duration.ofSeconds(5));
        LitestreamShard.Intervals rarely = new LitestreamShard.Intervals(Duration.ofMillis(100),
                Duration.ofHours(1), Duration.ofDays(1));
        assertThat(rarely.checkpoint()).isEqualTo(Duration.ofMinutes(1));
        assertThat(rarely.retentionCheck()).as("Litestream's default check under a longer one")
                .isEqualTo(Duration.ofHours(1));
    }
}
