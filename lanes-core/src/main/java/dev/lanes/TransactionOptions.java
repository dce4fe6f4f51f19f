package dev.lanes;

import java.time.Duration;
import java.util.Optional;

/** Per-transaction choices for {@link Database#begin(TransactionOptions)}. Immutable. */
public final class TransactionOptions {
    /** The database's idle timeout and enqueue timeout, no label. */
    public static final TransactionOptions DEFAULTS = builder().build();

    private final Duration idleTimeout;
    private final WriteOptions admission;

    private TransactionOptions(Builder b) {
        this.idleTimeout = b.idleTimeout;
        WriteOptions.Builder w = WriteOptions.builder().replayable(false);
        if (b.label != null) {
            w.label(b.label);
        }
        if (b.enqueueTimeout != null) {
            w.enqueueTimeout(b.enqueueTimeout);
        }
        this.admission = w.build();
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** How long the transaction may sit idle before it is rolled back; empty: the database's. */
    public Optional<Duration> idleTimeout() {
        return Optional.ofNullable(idleTimeout);
    }

    /** The label and enqueue timeout that govern the transaction's admission to the queue. */
    public WriteOptions admission() {
        return admission;
    }

    /** Builds {@link TransactionOptions}; each setter validates at once. */
    public static final class Builder {
        private Duration idleTimeout;
        private String label;
        private Duration enqueueTimeout;

        private Builder() {}

        /** Rolls the transaction back after it sat idle this long. Positive. */
        public Builder idleTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("idleTimeout must be positive, was " + timeout);
            }
            this.idleTimeout = timeout;
            return this;
        }

        /** Names the transaction in logs and diagnostics. Not blank. */
        public Builder label(String label) {
            if (label == null || label.isBlank()) {
                throw new IllegalArgumentException("label must not be blank, was '" + label + "'");
            }
            this.label = label;
            return this;
        }

        /**
         * Wait at most this long for room in a full write queue instead of the database's {@link
         * DatabaseOptions#writeQueueTimeout()}; 0 fails at once. See {@link WriteOptions}.
         */
        public Builder enqueueTimeout(Duration timeout) {
            this.enqueueTimeout = Checks.nonNegative("enqueueTimeout", timeout);
            return this;
        }

        /** The options. */
        public TransactionOptions build() {
            return new TransactionOptions(this);
        }
    }
}
