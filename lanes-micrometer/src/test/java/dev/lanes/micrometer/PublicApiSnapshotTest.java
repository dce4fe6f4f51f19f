package dev.lanes.micrometer;

import dev.lanes.apicheck.ApiSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API of lanes-micrometer ({@code dev.lanes.micrometer})
 * against the committed {@code api/lanes-micrometer.api}: see {@link ApiSnapshot}.
 */
class PublicApiSnapshotTest {
    @Test
    void publicApiMatchesTheCommittedSnapshot() throws Exception {
        ApiSnapshot.check("lanes-micrometer", MicrometerMetrics.class,
                List.of("dev.lanes.micrometer"));
    }
}
