package dev.lanes.spring;

import dev.lanes.Lanes;

/**
 * Changes the {@link Lanes.Builder} of the auto-configured runtime after the {@code lanes.*}
 * properties were applied (its thread names, stack size, a metrics listener of its own…).
 * Customizer beans run in their {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface LanesBuilderCustomizer {
    /**
     * Changes the builder; what it sets overrides the properties. Not called when the application
     * defines its own {@link Lanes} bean, nor with {@code lanes.enabled=false}.
     *
     * @param builder the runtime's builder, the {@code lanes.*} properties already applied
     */
    void customize(Lanes.Builder builder);
}
