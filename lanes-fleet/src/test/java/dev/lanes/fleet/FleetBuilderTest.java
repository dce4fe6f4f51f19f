package dev.lanes.fleet;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The builder's checks that need no engines: the snapshot interval's and retention's bounds. */
class FleetBuilderTest {
    @Test
    void theSnapshotIntervalIsBetweenOneSecondAndLitestreamsRetention() {
        for (Duration ok : new Duration[] {Duration.ofSeconds(1), Duration.ofMinutes(5),
                Duration.ofHours(24)}) {
            assertThatCode(() -> Fleet.builder().snapshotInterval(ok)).doesNotThrowAnyException();
        }
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1),
                Duration.ofMillis(999), Duration.ofHours(24).plusMillis(1)}) {
            assertThatThrownBy(() -> Fleet.builder().snapshotInterval(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("snapshotInterval between 1 s and 24 h");
        }
        assertThatThrownBy(() -> Fleet.builder().snapshotInterval(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void theRetentionIsAtLeastAMinuteAndTheSnapshotInterval() {
        assertThatCode(() -> Fleet.builder().retention(Duration.ofMinutes(1)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> Fleet.builder().retention(Duration.ofSeconds(59)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retention at least 1 min");
        Fleet.Builder b = Fleet.builder().nodeId("n1").etcd(List.of("http://127.0.0.1:1"))
                .dataDirectory(Path.of("unused")).litestream(Path.of("unused"))
                .objectStore(ObjectStore.builder().endpoint("http://127.0.0.1:1").bucket("b")
                        .accessKeyId("k").secretAccessKey("s").build())
                .snapshotInterval(Duration.ofMinutes(10)).retention(Duration.ofMinutes(5));
        assertThatThrownBy(b::build).as("checked before anything starts")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorter than the snapshot interval");
    }
}
