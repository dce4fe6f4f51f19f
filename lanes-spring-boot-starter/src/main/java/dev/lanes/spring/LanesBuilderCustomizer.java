package dev.lanes.spring;

import dev.lanes.Lanes;

/**
 * Changes the {@link Lanes.Builder} of the auto-configured runtime after the {@code lanes.*}
 * properties were applied (its thread names, stack size, a metrics listener of its own…).
 * Customizer beans run in their {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface LanesBuilderCustomizer {
    void customize(Lanes.Builder builder);
}
