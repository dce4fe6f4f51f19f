package dev.lanes.fleet;

import dev.lanes.apicheck.ApiSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API of lanes-fleet ({@code dev.lanes.fleet} and its test support)
 * against the committed {@code api/lanes-fleet.api}: see {@link ApiSnapshot}.
 */
class PublicApiSnapshotTest {
    @Test
    void publicApiMatchesTheCommittedSnapshot() throws Exception {
        ApiSnapshot.check("lanes-fleet", Fleet.class,
                List.of("dev.lanes.fleet", "dev.lanes.fleet.testing"));
    }
}
