package dev.lanes.spring;

import dev.lanes.CheckpointMode;
import dev.lanes.DatabaseOptions;
import dev.lanes.Synchronous;
import java.time.Duration;
import org.springframework.util.unit.DataSize;

/**
 * The {@link DatabaseOptions} settings one group of properties holds ({@code lanes.datasource.*},
 * {@code lanes.databases.<name>.*}, {@code lanes.tenants.*}), each {@code null} when the property
 * is not set, so that the builder's default (and its environment variables, such as {@value
 * DatabaseOptions#DISK_RESERVE_ENV}) stays in force. The property records implement it, so the
 * options are built from properties in one place.
 */
public interface DatabaseSettings {

    /** {@link DatabaseOptions#writeQueueCapacity()}. */
    Integer writeQueueCapacity();

    /** {@link DatabaseOptions#maxGroupSize()}. */
    Integer maxGroupSize();

    /** {@link DatabaseOptions#readers()}. */
    Integer readers();

    /** {@link DatabaseOptions#busyTimeout()}. */
    Duration busyTimeout();

    /** {@link DatabaseOptions#synchronous()}. */
    Synchronous synchronous();

    /** {@link DatabaseOptions#statementCacheSize()}. */
    Integer statementCacheSize();

    /** {@link DatabaseOptions#closeTimeout()}: how long the context's close waits for the drain. */
    Duration closeTimeout();

    /** {@link DatabaseOptions#transactionIdleTimeout()}. */
    Duration transactionIdleTimeout();

    /** {@link DatabaseOptions#diskReserveBytes()}. */
    DataSize diskReserve();

    /** {@link DatabaseOptions#slowWriteThreshold()}. */
    Duration slowWriteThreshold();

    /** {@link DatabaseOptions#idleRelease()}. */
    Duration idleRelease();

    /** {@link DatabaseOptions#maxReadDuration()}. */
    Duration maxReadDuration();

    /** {@link DatabaseOptions#readerCheckoutTimeout()}. */
    Duration readerCheckoutTimeout();

    /** {@link DatabaseOptions#writeQueueTimeout()}. */
    Duration writeQueueTimeout();

    /** {@link DatabaseOptions#maxResultBytes()}. */
    DataSize maxResultSize();

    /** {@link DatabaseOptions#checkpointMode()}. */
    CheckpointMode checkpointMode();

    /** {@link DatabaseOptions#identityCheck()}. */
    Boolean identityCheck();

    /** {@link DatabaseOptions#background()}. */
    Boolean background();

    /**
     * A builder holding the defaults with every setting given here applied, checked as the
     * builder checks it.
     *
     * @param prefix the properties' prefix ({@code lanes.datasource}), named in the message of a
     *     bad value
     * @throws IllegalArgumentException naming the property, when a value is out of range
     */
    default DatabaseOptions.Builder toOptionsBuilder(String prefix) {
        DatabaseOptions.Builder b;
        try {
            b = DatabaseOptions.builder();
        } catch (IllegalArgumentException e) {
            // the environment's defaults (LANES_DISK_RESERVE_BYTES) are checked here
            throw new IllegalArgumentException(prefix + ": " + e.getMessage(), e);
        }
        String p = prefix + ".";
        Properties.set(p + "write-queue-capacity", writeQueueCapacity(), b::writeQueueCapacity);
        Properties.set(p + "max-group-size", maxGroupSize(), b::maxGroupSize);
        Properties.set(p + "readers", readers(), b::readers);
        Properties.set(p + "busy-timeout", busyTimeout(), b::busyTimeout);
        Properties.set(p + "synchronous", synchronous(), b::synchronous);
        Properties.set(p + "statement-cache-size", statementCacheSize(), b::statementCacheSize);
        Properties.set(p + "close-timeout", closeTimeout(), b::closeTimeout);
        Properties.set(p + "transaction-idle-timeout", transactionIdleTimeout(),
                b::transactionIdleTimeout);
        Properties.set(p + "disk-reserve", diskReserve(), v -> b.diskReserveBytes(v.toBytes()));
        Properties.set(p + "slow-write-threshold", slowWriteThreshold(), b::slowWriteThreshold);
        Properties.set(p + "idle-release", idleRelease(), b::idleRelease);
        Properties.set(p + "max-read-duration", maxReadDuration(), b::maxReadDuration);
        Properties.set(p + "reader-checkout-timeout", readerCheckoutTimeout(),
                b::readerCheckoutTimeout);
        Properties.set(p + "write-queue-timeout", writeQueueTimeout(), b::writeQueueTimeout);
        Properties.set(p + "max-result-size", maxResultSize(), v -> b.maxResultBytes(v.toBytes()));
        Properties.set(p + "checkpoint-mode", checkpointMode(), b::checkpointMode);
        Properties.set(p + "identity-check", identityCheck(), b::identityCheck);
        Properties.set(p + "background", background(), b::background);
        return b;
    }
}
