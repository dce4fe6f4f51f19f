package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder fails fast on bad settings, naming the value, and seals what it was given. */
class DqliteClusterBuilderTest {
    @Test
    void ofKeepsTheAddressesInOrderWithoutDuplicates() {
        DqliteCluster cluster = DqliteCluster.of("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9001");
        assertThat(cluster.seeds()).containsExactly("127.0.0.1:9001", "127.0.0.1:9002");
        assertThat(cluster.knownNodes()).containsExactly("127.0.0.1:9001", "127.0.0.1:9002");
        assertThat(cluster.connectTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(cluster.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(cluster.leaderTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void badSettingsAreRefusedAtOnce() {
        assertThatThrownBy(DqliteCluster::of).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one node");
        assertThatThrownBy(() -> DqliteCluster.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at least one node");
        assertThatThrownBy(() -> DqliteCluster.of("localhost")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'localhost' is not host:port");
        assertThatThrownBy(() -> DqliteCluster.builder().requestTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestTimeout PT0S");
        assertThatThrownBy(() -> DqliteCluster.builder().connectTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connectTimeout");
        assertThatThrownBy(() -> DqliteCluster.builder().backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backoff base PT2S");
        assertThatThrownBy(() -> DqliteCluster.builder().maxMessageBytes(1000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxMessageBytes 1000");
        assertThatThrownBy(() -> DqliteCluster.builder().clientId(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clientId 0");
    }

    @Test
    void badCallsAreRefusedBeforeAnyNodeIsAsked() {
        DqliteCluster cluster = DqliteCluster.of("127.0.0.1:1");
        assertThatThrownBy(() -> cluster.connect("")).isInstanceOf(DqliteInvalidRequestException.class);
        assertThatThrownBy(() -> cluster.remove(0)).isInstanceOf(DqliteInvalidRequestException.class)
                .hasMessageContaining("node id 0");
        assertThatThrownBy(() -> cluster.add(4, "nowhere")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void noReachableNodeEndsInNoLeaderAtTheDeadline() {
        DqliteCluster cluster = DqliteCluster.builder().nodes("127.0.0.1:1")
                .leaderTimeout(Duration.ofMillis(200)).backoff(Duration.ofMillis(5), Duration.ofMillis(20))
                .build();
        assertThatThrownBy(() -> cluster.connect("app")).isInstanceOf(DqliteNoLeaderException.class)
                .hasMessageContaining("127.0.0.1:1").hasMessageContaining("nothing was run")
                .satisfies(e -> assertThat(((DqliteException) e).mayHaveRun()).isFalse());
    }
}
