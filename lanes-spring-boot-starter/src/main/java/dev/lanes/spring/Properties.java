package dev.lanes.spring;

import java.util.function.Consumer;

/** Applies bound property values to the Lanes builders, naming the property of a bad value. */
final class Properties {
    private Properties() {}

    /**
     * Hands {@code value} to {@code setter} unless it is {@code null} (the property is not set).
     *
     * @throws IllegalArgumentException naming {@code property} and the value, with the builder's
     *     reason, when the builder refuses it
     */
    static <T> void set(String property, T value, Consumer<T> setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + "=" + value + " is not valid: "
                    + e.getMessage(), e);
        }
    }
}
