package dev.lanes.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.LanesException;

/** Finds the guard's refusal in a failure, wherever a library's wrapping put it. */
final class Refusals {
    private Refusals() {}

    /**
     * The first {@code type} in {@code failure}'s cause chain, the failure itself included.
     * jOOQ wraps whatever its connection calls throw in a {@code DataAccessException}, so the
     * guard's {@code InvalidRequestException} may arrive as a cause rather than on top.
     */
    static <T extends LanesException> T refusalIn(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in the cause chain of "
                + failure, failure);
    }

    /** Asserts that {@code failure} is a Lanes failure carrying a refusal of {@code type}. */
    static <T extends LanesException> T assertRefused(Throwable failure, Class<T> type) {
        assertThat(failure).isInstanceOf(LanesException.class);
        return refusalIn(failure, type);
    }
}
