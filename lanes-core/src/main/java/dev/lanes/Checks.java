package dev.lanes;

import java.time.Duration;

/** Argument checks shared by the option builders; messages name the option and the value. */
final class Checks {
    private Checks() {}

    static int positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
        return value;
    }

    static int nonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }

    /** {@code value} within {@code [min, max]}; {@code why} tells where the bounds come from. */
    static int between(String name, int value, int min, int max, String why) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max
                    + " (" + why + "), was " + value);
        }
        return value;
    }

    static long positive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
        return value;
    }

    static long nonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }

    static Duration nonNegative(String name, Duration value) {
        if (value == null) {
            throw new NullPointerException(name);
        }
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }

    static Duration positive(String name, Duration value) {
        nonNegative(name, value);
        if (value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
