package dev.lanes.dqlite;

import dev.lanes.apicheck.ApiSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API of lanes-dqlite ({@code dev.lanes.dqlite} and its test support)
 * against the committed {@code api/lanes-dqlite.api}: see {@link ApiSnapshot}.
 */
class PublicApiSnapshotTest {
    @Test
    void publicApiMatchesTheCommittedSnapshot() throws Exception {
        ApiSnapshot.check("lanes-dqlite", DqliteCluster.class,
                List.of("dev.lanes.dqlite", "dev.lanes.dqlite.testing"));
    }
}
