package dev.lanes.dqlite.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final long MS = 1_000_000;

    @Test
    void pausesDoubleUpToTheCapWithJitterInTheUpperHalf() {
        Backoff lowest = new Backoff(Duration.ofMillis(20), Duration.ofMillis(1000), () -> 0.0);
        Backoff highest = new Backoff(Duration.ofMillis(20), Duration.ofMillis(1000), () -> 0.999_999);
        long[] ceilings = {20, 40, 80, 160, 320, 640, 1000, 1000};
        for (int round = 0; round < ceilings.length; round++) {
            assertThat(lowest.pauseNanos(round)).as("round %d", round).isEqualTo(ceilings[round] * MS / 2);
            assertThat(highest.pauseNanos(round)).as("round %d", round)
                    .isBetween(ceilings[round] * MS * 99 / 100, ceilings[round] * MS);
        }
        assertThat(highest.pauseNanos(10_000)).isLessThanOrEqualTo(1000 * MS);
    }
}
