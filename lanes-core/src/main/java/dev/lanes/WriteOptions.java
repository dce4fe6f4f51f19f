package dev.lanes;

import java.time.Duration;
import java.util.Optional;

/**
 * Per-write choices. Immutable; built with {@link #builder()}.
 *
 * <p>A write that finds the queue full waits for room at most its enqueue timeout, or without one
 * the database's {@link DatabaseOptions#writeQueueTimeout()} (default 5 s), and then fails with
 * {@link QueueFullException}; it never ran. A timeout of 0 fails it at once with {@link
 * OverloadedException} instead. The timeout covers admission only: once accepted, a write is
 * never reported as failed because it was slow.
 */
public final class WriteOptions {
    /** No label, the database's enqueue timeout, replayable. */
    public static final WriteOptions DEFAULTS = builder().build();

    private final String label;
    private final Duration enqueueTimeout;
    private final boolean replayable;

    private WriteOptions(Builder b) {
        this.label = b.label;
        this.enqueueTimeout = b.enqueueTimeout;
        this.replayable = b.replayable;
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Shorthand for {@code builder().enqueueTimeout(timeout).build()}. */
    public static WriteOptions enqueueTimeout(Duration timeout) {
        return builder().enqueueTimeout(timeout).build();
    }

    /** The name given to this write in logs and diagnostics, if any. */
    public Optional<String> label() {
        return Optional.ofNullable(label);
    }

    /**
     * How long the write may wait for room in a full queue; empty: the database's {@link
     * DatabaseOptions#writeQueueTimeout()}.
     */
    public Optional<Duration> enqueueTimeout() {
        return Optional.ofNullable(enqueueTimeout);
    }

    /**
     * Whether the body may run again in a fresh group when a neighbour ended the shared
     * transaction (a conflict clause {@code OR ROLLBACK}, {@code RAISE(ROLLBACK)}, an I/O error).
     * Nothing of the first run persisted in that case. When {@code false}, the write fails with
     * {@link WriteOutcome#ROLLED_BACK} instead, naming the request that ended the group.
     */
    public boolean replayable() {
        return replayable;
    }

    @Override
    public String toString() {
        return "WriteOptions[label=" + label + ", enqueueTimeout=" + enqueueTimeout
                + ", replayable=" + replayable + "]";
    }

    /** Builds {@link WriteOptions}. */
    public static final class Builder {
        private String label;
        private Duration enqueueTimeout;
        private boolean replayable = true;

        private Builder() {}

        /** Names the write in slow-write logs and diagnostics. Not blank. */
        public Builder label(String label) {
            if (label == null || label.isBlank()) {
                throw new IllegalArgumentException("label must not be blank, was '" + label + "'");
            }
            this.label = label;
            return this;
        }

        /**
         * Wait at most this long for room in a full queue; 0 fails at once with {@link
         * OverloadedException}. Not negative.
         */
        public Builder enqueueTimeout(Duration timeout) {
            this.enqueueTimeout = Checks.nonNegative("enqueueTimeout", timeout);
            return this;
        }

        /** See {@link WriteOptions#replayable()}; default {@code true}. */
        public Builder replayable(boolean replayable) {
            this.replayable = replayable;
            return this;
        }

        /** The options. */
        public WriteOptions build() {
            return new WriteOptions(this);
        }
    }
}
