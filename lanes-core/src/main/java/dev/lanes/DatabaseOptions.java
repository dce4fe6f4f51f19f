package dev.lanes;

import dev.lanes.spi.CommitFence;
import java.time.Duration;
import java.util.Objects;

/**
 * How one database is run. Immutable; built with {@link #builder()}, whose setters reject a bad
 * value at once with a message that names it. Two options are equal when every setting is: a
 * second {@link Lanes#open(java.nio.file.Path, DatabaseOptions) open} of the same file must pass
 * equal options (or none).
 */
public final class DatabaseOptions {
    private final int writeQueueCapacity;
    private final int maxGroupSize;
    private final int readers;
    private final Duration busyTimeout;
    private final Synchronous synchronous;
    private final int statementCacheSize;
    private final Duration closeTimeout;
    private final Duration transactionIdleTimeout;
    private final long diskReserveBytes;
    private final Duration slowWriteThreshold;
    private final Duration idleRelease;
    private final Duration maxReadDuration;
    private final SqlFunction<?> initializer;
    private final Duration readerCheckoutTimeout;
    private final Duration writeQueueTimeout;
    private final long maxResultBytes;
    private final CheckpointMode checkpointMode;
    /** The mode set on the builder; null when the default, which follows synchronous, applies. */
    private final CheckpointMode checkpointModeSet;
    private final boolean identityCheck;
    private final boolean background;
    private final ConnectionSetup connectionSetup;
    private final int maxAttachedDatabases;
    private final int maxValueBytes;
    private final CommitFence commitFence;

    /**
     * The default {@link #maxResultBytes()}: 64 MiB as counted (8 bytes a number, a byte a
     * character, a blob's length). Rows held as Java objects take several times what is counted
     * (about 5 times for short values), so a runaway {@code query} ends typed while a few hundred
     * MB of heap at most are taken, and results this large belong to {@link Reading#stream}
     * anyway, which holds one row at a time.
     */
    private static final long MAX_RESULT_BYTES = 64L * 1024 * 1024;

    /** SQLite's ceiling of {@code SQLITE_LIMIT_LENGTH}, the default {@link #maxValueBytes()}. */
    private static final int MAX_VALUE_BYTES = 1_000_000_000;

    /** Environment variable that overrides the default {@link #diskReserveBytes()}. */
    public static final String DISK_RESERVE_ENV = "LANES_DISK_RESERVE_BYTES";

    /** The options every database gets unless told otherwise. */
    public static final DatabaseOptions DEFAULTS =
            new Builder(OptionDefaults.diskReserveOrFallback()).build();

    private DatabaseOptions(Builder b) {
        this.writeQueueCapacity = b.writeQueueCapacity;
        this.maxGroupSize = b.maxGroupSize;
        this.readers = b.readers;
        this.busyTimeout = b.busyTimeout;
        this.synchronous = b.synchronous;
        this.statementCacheSize = b.statementCacheSize;
        this.closeTimeout = b.closeTimeout;
        this.transactionIdleTimeout = b.transactionIdleTimeout;
        this.diskReserveBytes = b.diskReserveBytes;
        this.slowWriteThreshold = b.slowWriteThreshold;
        this.idleRelease = b.idleRelease;
        this.maxReadDuration = b.maxReadDuration;
        this.initializer = b.initializer;
        this.readerCheckoutTimeout = b.readerCheckoutTimeout;
        this.writeQueueTimeout = b.writeQueueTimeout;
        this.maxResultBytes = b.maxResultBytes;
        this.checkpointModeSet = b.checkpointMode;
        this.checkpointMode = b.checkpointMode != null ? b.checkpointMode
                : OptionDefaults.checkpointMode(b.synchronous);
        this.identityCheck = b.identityCheck;
        this.background = b.background;
        this.connectionSetup = b.buildSetup(checkpointMode);
        this.maxAttachedDatabases = b.maxAttachedDatabases;
        this.maxValueBytes = b.maxValueBytes;
        this.commitFence = b.commitFence;
    }

    /** Writes that may wait in the queue (default 256). */
    public int writeQueueCapacity() {
        return writeQueueCapacity;
    }

    /** Writes committed together in one transaction at most (default 64). */
    public int maxGroupSize() {
        return maxGroupSize;
    }

    /** Read-only connections per database (default 4). */
    public int readers() {
        return readers;
    }

    /**
     * How long a turn may wait, in all, for SQLite's write lock held by another connection
     * (default 5 s).
     */
    public Duration busyTimeout() {
        return busyTimeout;
    }

    /** The durability level of a commit (default {@link Synchronous#NORMAL}). */
    public Synchronous synchronous() {
        return synchronous;
    }

    /** Prepared statements kept per connection for {@link Database#execute} (default 64). */
    public int statementCacheSize() {
        return statementCacheSize;
    }

    /** How long {@link Database#close()} waits for the drain (default 5 s). */
    public Duration closeTimeout() {
        return closeTimeout;
    }

    /**
     * How long an interactive {@link Transaction} may sit idle before it is rolled back (default
     * 5 s).
     */
    public Duration transactionIdleTimeout() {
        return transactionIdleTimeout;
    }

    /**
     * Free disk space below which write turns are refused with {@link CapacityFloorException}
     * (default 64 MiB, or env {@value #DISK_RESERVE_ENV}).
     */
    public long diskReserveBytes() {
        return diskReserveBytes;
    }

    /**
     * Writes slower than this, from submission to outcome, log one WARN with their labels
     * (default 2.5 s).
     */
    public Duration slowWriteThreshold() {
        return slowWriteThreshold;
    }

    /**
     * A database unused this long releases memory and idle reader connections (default 30 s).
     */
    public Duration idleRelease() {
        return idleRelease;
    }

    /**
     * A read that holds its snapshot longer is logged, since it keeps checkpoints from resetting
     * the WAL (default 30 s).
     */
    public Duration maxReadDuration() {
        return maxReadDuration;
    }

    /**
     * Runs once on the writer connection, in one transaction, before the database accepts work
     * (schema set-up, {@link Migrations}); {@code null} for none.
     */
    public SqlFunction<?> initializer() {
        return initializer;
    }

    /**
     * How long a read waits for a free reader connection before it fails with {@link
     * AdmissionTimeoutException} (default 5 s).
     */
    public Duration readerCheckoutTimeout() {
        return readerCheckoutTimeout;
    }

    /**
     * How long a write that finds the write queue full waits for room, unless its {@link
     * WriteOptions#enqueueTimeout()} says otherwise (default 5 s; 0: refused at once).
     */
    public Duration writeQueueTimeout() {
        return writeQueueTimeout;
    }

    /**
     * How large the rows of one {@link Queries#query} may grow before it fails with {@link
     * ResultTooLargeException} (default 64 MiB; {@link Long#MAX_VALUE}: no limit).
     */
    public long maxResultBytes() {
        return maxResultBytes;
    }

    /**
     * Who checkpoints the WAL: the mode chosen, or by default {@link CheckpointMode#DEDICATED},
     * but {@link CheckpointMode#AUTO} at {@link Synchronous#FULL}.
     */
    public CheckpointMode checkpointMode() {
        return checkpointMode;
    }

    /**
     * Whether every new connection checks that the file is still the one first opened, failing
     * with {@link IdentityMismatchException} otherwise (default true).
     */
    public boolean identityCheck() {
        return identityCheck;
    }

    /**
     * Whether the database's work is background work (default false): while foreground work
     * waits, background work gets one pool turn in four, so it always progresses but never
     * crowds others out.
     */
    public boolean background() {
        return background;
    }

    /** What every connection gets besides Lanes' own set-up (default {@link ConnectionSetup#NONE}). */
    public ConnectionSetup connectionSetup() {
        return connectionSetup;
    }

    /**
     * How many databases a writer connection may {@code ATTACH} (default 0: {@code ATTACH} is
     * refused on every connection). Readers never attach.
     */
    public int maxAttachedDatabases() {
        return maxAttachedDatabases;
    }

    /**
     * The largest string, blob or row SQLite builds or stores on this database's connections, in
     * bytes (SQLite's {@code SQLITE_LIMIT_LENGTH}; default 1,000,000,000, SQLite's own).
     */
    public int maxValueBytes() {
        return maxValueBytes;
    }

    /**
     * The check every writer transaction passes at its commit (see {@link CommitFence}); {@code
     * null} for none, the default.
     */
    public CommitFence commitFence() {
        return commitFence;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DatabaseOptions)) {
            return false;
        }
        DatabaseOptions other = (DatabaseOptions) o;
        return writeQueueCapacity == other.writeQueueCapacity && maxGroupSize == other.maxGroupSize
                && readers == other.readers && Objects.equals(busyTimeout, other.busyTimeout)
                && Objects.equals(synchronous, other.synchronous)
                && statementCacheSize == other.statementCacheSize
                && Objects.equals(closeTimeout, other.closeTimeout)
                && Objects.equals(transactionIdleTimeout, other.transactionIdleTimeout)
                && diskReserveBytes == other.diskReserveBytes
                && Objects.equals(slowWriteThreshold, other.slowWriteThreshold)
                && Objects.equals(idleRelease, other.idleRelease)
                && Objects.equals(maxReadDuration, other.maxReadDuration)
                && Objects.equals(initializer, other.initializer)
                && Objects.equals(readerCheckoutTimeout, other.readerCheckoutTimeout)
                && Objects.equals(writeQueueTimeout, other.writeQueueTimeout)
                && maxResultBytes == other.maxResultBytes
                && Objects.equals(checkpointMode, other.checkpointMode)
                && Objects.equals(checkpointModeSet, other.checkpointModeSet)
                && identityCheck == other.identityCheck && background == other.background
                && maxAttachedDatabases == other.maxAttachedDatabases
                && maxValueBytes == other.maxValueBytes && commitFence == other.commitFence
                && connectionSetup.equals(other.connectionSetup);
    }

    @Override
    public int hashCode() {
        return Objects.hash(writeQueueCapacity, maxGroupSize, readers, busyTimeout, synchronous,
                statementCacheSize, closeTimeout, transactionIdleTimeout, diskReserveBytes,
                slowWriteThreshold, idleRelease, maxReadDuration, initializer,
                readerCheckoutTimeout, writeQueueTimeout, maxResultBytes, checkpointMode, identityCheck, background,
                maxAttachedDatabases, maxValueBytes, connectionSetup,
                System.identityHashCode(commitFence));
    }

    @Override
    public String toString() {
        return "DatabaseOptions[writeQueueCapacity=" + writeQueueCapacity + ", maxGroupSize="
                + maxGroupSize + ", readers=" + readers + ", busyTimeout=" + busyTimeout
                + ", synchronous=" + synchronous + ", statementCacheSize=" + statementCacheSize
                + ", closeTimeout=" + closeTimeout + ", transactionIdleTimeout="
                + transactionIdleTimeout + ", diskReserveBytes=" + diskReserveBytes
                + ", slowWriteThreshold=" + slowWriteThreshold + ", idleRelease=" + idleRelease
                + ", maxReadDuration=" + maxReadDuration + ", initializer=" + initializer
                + ", readerCheckoutTimeout=" + readerCheckoutTimeout + ", writeQueueTimeout="
                + writeQueueTimeout + ", maxResultBytes="
                + maxResultBytes + ", checkpointMode=" + checkpointMode + ", identityCheck="
                + identityCheck + ", background=" + background + ", maxAttachedDatabases="
                + maxAttachedDatabases + ", maxValueBytes=" + maxValueBytes + ", connectionSetup="
                + connectionSetup + ", commitFence=" + commitFence + "]";
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
    public static final class Builder extends ConnectionSetupBuilder<Builder> {
        private int writeQueueCapacity = 256;
        private int maxGroupSize = 64;
        private int readers = 4;
        private Duration busyTimeout = Duration.ofSeconds(5);
        private Synchronous synchronous = Synchronous.NORMAL;
        private int statementCacheSize = 64;
        private Duration closeTimeout = Duration.ofSeconds(5);
        private Duration transactionIdleTimeout = Duration.ofSeconds(5);
        private long diskReserveBytes;
        private Duration slowWriteThreshold = Duration.ofMillis(2500);
        private Duration idleRelease = Duration.ofSeconds(30);
        private Duration maxReadDuration = Duration.ofSeconds(30);
        private SqlFunction<?> initializer;
        private Duration readerCheckoutTimeout = Duration.ofSeconds(5);
        private Duration writeQueueTimeout = Duration.ofSeconds(5);
        private long maxResultBytes = MAX_RESULT_BYTES;
        /** Null: the default, which follows {@link #synchronous}. */
        private CheckpointMode checkpointMode;
        private boolean identityCheck = true;
        private boolean background;
        private int maxAttachedDatabases;
        private int maxValueBytes = MAX_VALUE_BYTES;
        private CommitFence commitFence;

        private Builder() {
            this(OptionDefaults.diskReserve());
        }

        private Builder(long diskReserveBytes) {
            this.diskReserveBytes = diskReserveBytes;
        }

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
            slowWriteThreshold = o.slowWriteThreshold;
            idleRelease = o.idleRelease;
            maxReadDuration = o.maxReadDuration;
            initializer = o.initializer;
            readerCheckoutTimeout = o.readerCheckoutTimeout;
            writeQueueTimeout = o.writeQueueTimeout;
            maxResultBytes = o.maxResultBytes;
            checkpointMode = o.checkpointModeSet;
            identityCheck = o.identityCheck;
            background = o.background;
            copySetup(o.connectionSetup);
            maxAttachedDatabases = o.maxAttachedDatabases;
            maxValueBytes = o.maxValueBytes;
            commitFence = o.commitFence;
        }

        /**
         * Writes that may wait in the queue; a write beyond it waits for room up to {@link
         * #writeQueueTimeout(Duration)}. At least 1.
         */
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
         * A database unused this long releases memory ({@code PRAGMA shrink_memory}) and closes
         * its idle reader connections, unless a transaction is open or it is corked. Positive.
         */
        public Builder idleRelease(Duration idle) {
            this.idleRelease = Checks.positive("idleRelease", idle);
            return this;
        }

        /**
         * A read holding its snapshot longer than this logs a warning: long readers keep
         * checkpoints from resetting the WAL. Positive.
         */
        public Builder maxReadDuration(Duration duration) {
            this.maxReadDuration = Checks.positive("maxReadDuration", duration);
            return this;
        }

        /** Writes slower than this log one WARN carrying their labels. Positive. */
        public Builder slowWriteThreshold(Duration threshold) {
            this.slowWriteThreshold = Checks.positive("slowWriteThreshold", threshold);
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

        /**
         * How long a read waits for a free reader connection (all {@link #readers(int)} busy)
         * before it fails with {@link AdmissionTimeoutException}, a retryable failure; reads are
         * admitted in arrival order. 0 fails at once when none is free. Not negative.
         */
        public Builder readerCheckoutTimeout(Duration timeout) {
            this.readerCheckoutTimeout = Checks.nonNegative("readerCheckoutTimeout", timeout);
            return this;
        }

        /**
         * How long a write (or {@link Database#begin}) that finds the write queue full waits for
         * room before it fails with {@link QueueFullException}, a retryable failure that never
         * ran; a request's own {@link WriteOptions#enqueueTimeout()} takes precedence. 0 refuses
         * it at once with {@link OverloadedException}. Not negative. The default, 5 s like {@link
         * #readerCheckoutTimeout(Duration)} and a pool's {@code connectionTimeout}, lets a burst
         * wait instead of failing: a waiting caller costs little (a virtual thread parks, on
         * {@code java.util.concurrent} locks that do not pin it), while the queue's capacity
         * still bounds the memory and latency of the writes accepted.
         */
        public Builder writeQueueTimeout(Duration timeout) {
            this.writeQueueTimeout = Checks.nonNegative("writeQueueTimeout", timeout);
            return this;
        }

        /**
         * How large the rows of one {@link Queries#query} may grow, counting 8 bytes per number,
         * one per character of text and a blob's length; past it the query stops and fails with
         * {@link ResultTooLargeException} before the rest is read. Positive; the default is 64
         * MiB, and {@link Long#MAX_VALUE} sets no limit. A streamed read holds one row at a time, so this does
         * not apply to {@link Reading#stream}; a JDBC result set streams in pages, and this
         * bounds each page instead of refusing the result (see {@link Database#dataSource()}).
         */
        public Builder maxResultBytes(long bytes) {
            this.maxResultBytes = Checks.positive("maxResultBytes", bytes);
            return this;
        }

        /**
         * Who checkpoints the WAL: a background checkpointer on the runtime's pool, active only
         * while the database is written ({@link CheckpointMode#DEDICATED}), SQLite's bounded
         * autocheckpoint inside the commits ({@link CheckpointMode#AUTO}), or another tool such
         * as a replicator ({@link CheckpointMode#EXTERNAL}; Lanes then never checkpoints). Not
         * set, it is {@code DEDICATED}, or {@code AUTO} when {@link #synchronous} is {@code
         * FULL}, whichever order the two are set in; see {@link
         * DatabaseOptions#checkpointMode()}.
         */
        public Builder checkpointMode(CheckpointMode mode) {
            this.checkpointMode = Objects.requireNonNull(mode, "checkpointMode");
            return this;
        }

        /**
         * Whether every new connection checks the database's identity (default true): the first
         * writable open installs a table {@code _lanes_identity} holding one UUID, and each
         * connection opened later checks that UUID and the file's device and inode against the
         * ones pinned at first open. A file swapped underneath fails with {@link
         * IdentityMismatchException} and the database goes {@link DatabaseState#DEAD}. With
         * false, nothing is installed or checked.
         */
        public Builder identityCheck(boolean check) {
            this.identityCheck = check;
            return this;
        }

        /**
         * Whether the database's work is background work; see {@link
         * DatabaseOptions#background()}.
         */
        public Builder background(boolean background) {
            this.background = background;
            return this;
        }

        /**
         * How many databases the writer connection may {@code ATTACH}, from 0 (the default) to
         * 125 (SQLite's ceiling). At 0 an {@code ATTACH} in a write or maintenance body, or
         * through {@link Database#execute}, is refused with {@link InvalidRequestException}
         * before SQLite runs it, and SQLite's own limit refuses any {@code ATTACH} the text hid:
         * by default no SQL reaches a file outside the database. Readers refuse {@code ATTACH}
         * whatever this says. An attached database stays attached to the writer connection for
         * later requests until a body detaches it.
         */
        public Builder maxAttachedDatabases(int count) {
            this.maxAttachedDatabases = Checks.between("maxAttachedDatabases", count, 0, 125,
                    "SQLite's ceiling");
            return this;
        }

        /**
         * The largest string, blob or row SQLite builds or stores on this database's
         * connections, writer and readers, in bytes: {@code SQLITE_LIMIT_LENGTH}. A larger value
         * bound to a statement, or built by SQL ({@code zeroblob}, {@code ||}, {@code
         * printf}), fails in SQLite ({@code SQLITE_TOOBIG}, "string or blob too big") and the
         * request fails with a typed error, writing nothing. From 1024 to 1,000,000,000 (the
         * default, SQLite's own ceiling); lower it to bound what one request can make SQLite
         * and the JVM hold in memory.
         */
        public Builder maxValueBytes(int bytes) {
            this.maxValueBytes = Checks.between("maxValueBytes", bytes, 1024, MAX_VALUE_BYTES,
                    "SQLite's ceiling");
            return this;
        }

        /**
         * A check every writer transaction must pass at its commit; see {@link CommitFence}.
         * Options with fences are equal only when they hold the same fence instance.
         */
        public Builder commitFence(CommitFence fence) {
            this.commitFence = Objects.requireNonNull(fence, "commitFence");
            return this;
        }

        @Override
        Builder self() {
            return this;
        }

        /** The options; a pragma that conflicts with the checkpoint mode is refused here. */
        public DatabaseOptions build() {
            return new DatabaseOptions(this);
        }
    }
}
