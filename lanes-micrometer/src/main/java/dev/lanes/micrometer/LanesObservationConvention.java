package dev.lanes.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * A convention for the observations of Lanes requests; give one to {@link
 * MicrometerMetrics.Builder#observationConvention(LanesObservationConvention)} to rename them or
 * change their key values. {@link DefaultLanesObservationConvention} is the default.
 */
public interface LanesObservationConvention extends ObservationConvention<LanesObservationContext> {
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof LanesObservationContext;
    }
}
