package dev.lanes.spring;

import dev.lanes.fleet.Fleet;

/**
 * Changes the {@link Fleet.Builder} of the auto-configured fleet node after the {@code
 * lanes.fleet.*} properties were applied (the tenants' database options, a listener of its
 * own…). Customizer beans run in their {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface LanesFleetBuilderCustomizer {
    /**
     * Changes the builder; what it sets overrides the properties. Not called when the application
     * defines its own {@link Fleet} bean.
     *
     * @param builder the node's builder, the {@code lanes.fleet.*} properties already applied
     */
    void customize(Fleet.Builder builder);
}
