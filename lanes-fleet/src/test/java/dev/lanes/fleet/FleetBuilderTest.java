package dev.lanes.fleet;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder's checks that need no engines: the snapshot interval's bounds. */
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
}
