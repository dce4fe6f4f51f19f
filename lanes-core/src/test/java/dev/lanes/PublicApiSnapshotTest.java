package dev.lanes;

import dev.lanes.apicheck.ApiSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API of lanes-core ({@code dev.lanes}, {@code dev.lanes.jmx}, {@code dev.lanes.spi})
 * against the committed {@code api/lanes-core.api}: see {@link ApiSnapshot}.
 */
class PublicApiSnapshotTest {
    @Test
    void publicApiMatchesTheCommittedSnapshot() throws Exception {
        ApiSnapshot.check("lanes-core", Lanes.class,
                List.of("dev.lanes", "dev.lanes.jmx", "dev.lanes.spi"));
    }
}
