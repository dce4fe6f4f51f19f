package dev.lanes.spring;

import dev.lanes.apicheck.ApiSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API of lanes-spring-boot-starter ({@code dev.lanes.spring} and its sub-packages)
 * against the committed {@code api/lanes-spring-boot-starter.api}: see {@link ApiSnapshot}.
 */
class PublicApiSnapshotTest {
    @Test
    void publicApiMatchesTheCommittedSnapshot() throws Exception {
        ApiSnapshot.check("lanes-spring-boot-starter", LanesAutoConfiguration.class,
                List.of("dev.lanes.spring", "dev.lanes.spring.actuate",
                        "dev.lanes.spring.data", "dev.lanes.spring.fleet"));
    }
}
