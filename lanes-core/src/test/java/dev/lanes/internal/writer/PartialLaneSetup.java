package dev.lanes.internal.writer;

import dev.lanes.DatabaseOptions;
import dev.lanes.MetricsListener;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A {@link LaneSetup} with only the parts a test of one lane part needs; the others are null, so
 * a part that reaches for one fails at once instead of working on something made up.
 */
final class PartialLaneSetup {
    private PartialLaneSetup() {}

    /**
     * What {@link WriteTelemetry} reads: the name, the options' {@code slowWriteThreshold}, the
     * clock and a metrics reporter with no listener.
     */
    static LaneSetup forTelemetry(String name, Duration slowWriteThreshold, Clock clock) {
        return new LaneSetup(name, Path.of(name),
                DatabaseOptions.builder().slowWriteThreshold(slowWriteThreshold).build(), null,
                clock, null, null, new MetricsReporter(name, MetricsListener.NONE), null, null,
                null, null, null);
    }
}
