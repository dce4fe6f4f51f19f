package dev.lanes.cli.bench;

import dev.lanes.Lanes;
import java.util.List;
import java.util.Map;

/**
 * The child JVM of {@link SoakSamplerTest}: takes one soak sample of an empty runtime and prints
 * its heap after GC, so that the test can start it with the JVM flags it needs.
 */
public final class SoakSampleChild {
    private SoakSampleChild() {}

    public static void main(String[] args) throws Exception {
        try (Lanes lanes = Lanes.builder().name("child").build();
                PeakSampler connections = new PeakSampler("child-connections", () -> 0,
                        60_000)) {
            SoakSample sample = new SoakSampler(lanes, List.of(), connections)
                    .sample(0, 0, new SoakLoad.Window(0, 0, Map.of()));
            System.out.println("heapAfterGcBytes=" + sample.heapAfterGcBytes());
        }
    }
}
