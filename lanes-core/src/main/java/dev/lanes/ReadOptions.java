package dev.lanes;

import java.time.Duration;
import java.util.Optional;

/**
 * Per-read choices, applied to every read of {@link Database#reading(ReadOptions)}: {@code
 * db.reading(ReadOptions.timeout(Duration.ofMillis(250))).query(sql, args)}. Immutable; built
 * with {@link #builder()}, whose setters reject a bad value at once.
 *
 * <p><b>Timeout.</b> A read with a timeout has a deadline: the moment of the call plus the
 * timeout. It covers the whole read — waiting for a reader connection, waiting for a pool thread,
 * and running. SQLite work still under way at the deadline is stopped inside SQLite (through the
 * connection's progress handler) and the read fails with {@link DeadlineExceededException}; the
 * connection is cleaned and reused. A deadline that passes while the read still waits for a
 * reader fails it with {@link DeadlineExceededException} too, {@link WriteOutcome#NOT_STARTED};
 * the database's {@link DatabaseOptions#readerCheckoutTimeout()} still bounds that wait on its
 * own. The body's own Java code is never interrupted: a body that returns after its deadline fails
 * then, and its result is discarded.
 */
public final class ReadOptions {
    /** No timeout. */
    public static final ReadOptions DEFAULTS = builder().build();

    private final Duration timeout;

    private ReadOptions(Builder b) {
        this.timeout = b.timeout;
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Shorthand for {@code builder().timeout(timeout).build()}. */
    public static ReadOptions timeout(Duration timeout) {
        return builder().timeout(timeout).build();
    }

    /** How long the read may take in all, from the call to its result; empty means no limit. */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    @Override
    public String toString() {
        return "ReadOptions[timeout=" + timeout + "]";
    }

    /** Builds {@link ReadOptions}. */
    public static final class Builder {
        private Duration timeout;

        private Builder() {}

        /** The read's time limit, from the call to its result. Positive. */
        public Builder timeout(Duration timeout) {
            if (timeout == null) {
                throw new NullPointerException("timeout");
            }
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /** The options. */
        public ReadOptions build() {
            return new ReadOptions(this);
        }
    }
}
