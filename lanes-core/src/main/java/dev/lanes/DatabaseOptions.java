package dev.lanes;

import java.time.Duration;
import java.util.Objects;

/**
 * How one database is run. Immutable; built with {@link #builder()}, whose setters reject a bad
 * value at once with a message that names it.
 *
 * @param writeQueueCapacity writes that may wait in the queue (default 256)
 * @param maxGroupSize writes committed together in one transaction at most (default 64)
 * @param readers read-only connections per database (default 4)
 * @param busyTimeout how long a turn may wait, in all, for SQLite's write lock held by another
 *     connection (default 5 s)
 * @param synchronous the durability level of a commit (default {@link Synchronous#NORMAL})
 * @param statementCacheSize prepared statements kept per connection for {@link
 *     Database#execute} (default 64)
 * @param closeTimeout how long {@link Database#close()} waits for the drain (default 5 s)
 * @param transactionIdleTimeout how long an interactive {@link Transaction} may sit idle before
 *     it is rolled back (default 5 s)
 * @param diskReserveBytes free disk space below which write turns are refused with {@link
 *     CapacityFloorException} (default 64 MiB, or env {@value #DISK_RESERVE_ENV})
 * @param initializer runs once on the writer connection, in one transaction, before the
 *     database accepts work (schema set-up, {@link Migrations}); {@code null} for none
 */
public record DatabaseOptions(
        int writeQueueCapacity,
        int maxGroupSize,
        int readers,
        Duration busyTimeout,
        Synchronous synchronous,
        int statementCacheSize,
        Duration closeTimeout,
        Duration transactionIdleTimeout,
        long diskReserveBytes,
        SqlFunction<?> initializer) {

    /** Environment variable that overrides the default {@link #diskReserveBytes()}. */
    public static final String DISK_RESERVE_ENV = "LANES_DISK_RESERVE_BYTES";

    /** The options every database gets unless told otherwise. */
    public static final DatabaseOptions DEFAULTS = builder().build();

    public DatabaseOptions {
        Checks.positive("writeQueueCapacity", writeQueueCapacity);
        Checks.positive("maxGroupSize", maxGroupSize);
        Checks.positive("readers", readers);
        Checks.nonNegative("busyTimeout", busyTimeout);
        Objects.requireNonNull(synchronous, "synchronous");
        Checks.nonNegative("statementCacheSize", statementCacheSize);
        Checks.nonNegative("closeTimeout", closeTimeout);
        Checks.positive("transactionIdleTimeout", transactionIdleTimeout);
        Checks.nonNegative("diskReserveBytes", diskReserveBytes);
    }

    /**
     * The default reserve: 64 MiB, enough for SQLite to finish a checkpoint, run the deletes
     * that free space, and write its journals on a nearly full volume, and small against any
     * disk a server runs on. {@value #DISK_RESERVE_ENV} overrides it.
     */
    static long defaultDiskReserve() {
        String env = System.getenv(DISK_RESERVE_ENV);
        if (env == null || env.isBlank()) {
            return 64L * 1024 * 1024;
        }
        try {
            return Checks.nonNegative(DISK_RESERVE_ENV, Long.parseLong(env.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    DISK_RESERVE_ENV + " must be a whole number of bytes, was '" + env + "'", e);
        }
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link DatabaseOptions}; each setter validates its value at once. */
    public static final class Builder {
        private int writeQueueCapacity = 256;
        private int maxGroupSize = 64;
        private int readers = 4;
        private Duration busyTimeout = Duration.ofSeconds(5);
        private Synchronous synchronous = Synchronous.NORMAL;
        private int statementCacheSize = 64;
        private Duration closeTimeout = Duration.ofSeconds(5);
        private Duration transactionIdleTimeout = Duration.ofSeconds(5);
        private long diskReserveBytes = defaultDiskReserve();
        private SqlFunction<?> initializer;

        private Builder() {}

        private Builder(DatabaseOptions o) {
            writeQueueCapacity = o.writeQueueCapacity;
            maxGroupSize = o.maxGroupSize;
            readers = o.readers;
            busyTimeout = o.busyTimeout;
            synchronous = o.synchronous;
            statementCacheSize = o.statementCacheSize;
            closeTimeout = o.closeTimeout;
            transactionIdleTimeout = o.transactionIdleTimeout;
            diskReserveBytes = o.diskReserveBytes;
            initializer = o.initializer;
        }

        /** Writes that may wait in the queue; a write beyond it is refused. At least 1. */
        public Builder writeQueueCapacity(int capacity) {
            this.writeQueueCapacity = Checks.positive("writeQueueCapacity", capacity);
            return this;
        }

        /** Writes committed together in one transaction at most. At least 1. */
        public Builder maxGroupSize(int size) {
            this.maxGroupSize = Checks.positive("maxGroupSize", size);
            return this;
        }

        /** Read-only connections per database. At least 1. */
        public Builder readers(int readers) {
            this.readers = Checks.positive("readers", readers);
            return this;
        }

        /**
         * How long one write turn may wait, in all its attempts together, for SQLite's write lock
         * held by another connection before failing with {@link BusyException}.
         */
        public Builder busyTimeout(Duration timeout) {
            this.busyTimeout = Checks.nonNegative("busyTimeout", timeout);
            return this;
        }

        /** The durability level of a commit. */
        public Builder synchronous(Synchronous synchronous) {
            this.synchronous = Objects.requireNonNull(synchronous, "synchronous");
            return this;
        }

        /** Prepared statements kept per connection for {@link Database#execute}; 0 disables it. */
        public Builder statementCacheSize(int size) {
            this.statementCacheSize = Checks.nonNegative("statementCacheSize", size);
            return this;
        }

        /** How long {@link Database#close()} waits for accepted work to drain. */
        public Builder closeTimeout(Duration timeout) {
            this.closeTimeout = Checks.nonNegative("closeTimeout", timeout);
            return this;
        }

        /** How long an interactive transaction may sit idle before it is rolled back. Positive. */
        public Builder transactionIdleTimeout(Duration timeout) {
            this.transactionIdleTimeout = Checks.positive("transactionIdleTimeout", timeout);
            return this;
        }

        /**
         * Free disk space at or below which a write turn is refused with {@link
         * CapacityFloorException}, before SQLite could run out of space mid-transaction.
         * Checkpoints are exempt, and {@code VACUUM} needs the database's size on top. 0
         * disables the check.
         */
        public Builder diskReserveBytes(long bytes) {
            this.diskReserveBytes = Checks.nonNegative("diskReserveBytes", bytes);
            return this;
        }

        /**
         * Runs once on the writer connection when the database opens, inside one transaction,
         * before any request: schema set-up or {@link Migrations}. If it throws, nothing of it
         * persists and {@link Lanes#open(java.nio.file.Path, DatabaseOptions)} fails with {@link
         * DatabaseDeadException} carrying the cause. With an initializer, {@code open} waits
         * until it ran.
         */
        public Builder initializer(SqlFunction<?> initializer) {
            this.initializer = java.util.Objects.requireNonNull(initializer, "initializer");
            return this;
        }

        public DatabaseOptions build() {
            return new DatabaseOptions(
                    writeQueueCapacity,
                    maxGroupSize,
                    readers,
                    busyTimeout,
                    synchronous,
                    statementCacheSize,
                    closeTimeout,
                    transactionIdleTimeout,
                    diskReserveBytes,
                    initializer);
        }
    }
}
