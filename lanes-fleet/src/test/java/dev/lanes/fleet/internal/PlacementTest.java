package dev.lanes.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rendezvous placement: stable, spread, and a joining node takes only what it wins. */
class PlacementTest {
    @Test
    void aJoiningNodeTakesOnlyTenantsItWinsAndTheRestStay() {
        List<String> three = List.of("n1", "n2", "n3");
        List<String> four = List.of("n1", "n2", "n3", "n4");
        Map<String, Integer> counts = new HashMap<>();
        int moved = 0;
        for (int i = 0; i < 3000; i++) {
            String t = "t" + i;
            String before = Placement.pick(t, three).orElseThrow();
            String after = Placement.pick(t, four).orElseThrow();
            counts.merge(before, 1, Integer::sum);
            if (!before.equals(after)) {
                assertThat(after).as("a moved tenant goes to the new node").isEqualTo("n4");
                moved++;
            }
            assertThat(Placement.pick(t, List.of("n3", "n1", "n2"))).contains(before);
        }
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(850, 1150));
        assertThat(moved).isBetween(600, 900);
        assertThat(Placement.pick("t", List.of())).isEmpty();
    }
}
