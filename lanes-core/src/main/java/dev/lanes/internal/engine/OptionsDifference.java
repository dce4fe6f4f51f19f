package dev.lanes.internal.engine;

import dev.lanes.DatabaseOptions;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which setting two {@link DatabaseOptions} differ in, by name, for the refusal of a second open
 * of one file with other options. Every accessor of {@code DatabaseOptions} is listed here (the
 * parts of {@code connectionSetup()} by the builder methods that set them); {@code
 * OptionsDifferenceTest} holds the list against the class, so a new option cannot be forgotten.
 * Stateless.
 */
final class OptionsDifference {
    /** One setting: its name and how to read it. */
    record Setting(String name, Function<DatabaseOptions, Object> value) {}

    static final List<Setting> SETTINGS = List.of(
            new Setting("writeQueueCapacity", DatabaseOptions::writeQueueCapacity),
            new Setting("maxGroupSize", DatabaseOptions::maxGroupSize),
            new Setting("readers", DatabaseOptions::readers),
            new Setting("busyTimeout", DatabaseOptions::busyTimeout),
            new Setting("synchronous", DatabaseOptions::synchronous),
            new Setting("statementCacheSize", DatabaseOptions::statementCacheSize),
            new Setting("closeTimeout", DatabaseOptions::closeTimeout),
            new Setting("transactionIdleTimeout", DatabaseOptions::transactionIdleTimeout),
            new Setting("diskReserveBytes", DatabaseOptions::diskReserveBytes),
            new Setting("slowWriteThreshold", DatabaseOptions::slowWriteThreshold),
            new Setting("idleRelease", DatabaseOptions::idleRelease),
            new Setting("maxReadDuration", DatabaseOptions::maxReadDuration),
            new Setting("initializer", DatabaseOptions::initializer),
            new Setting("readerCheckoutTimeout", DatabaseOptions::readerCheckoutTimeout),
            new Setting("writeQueueTimeout", DatabaseOptions::writeQueueTimeout),
            new Setting("maxResultBytes", DatabaseOptions::maxResultBytes),
            new Setting("checkpointMode", DatabaseOptions::checkpointMode),
            new Setting("identityCheck", DatabaseOptions::identityCheck),
            new Setting("background", DatabaseOptions::background),
            new Setting("maxAttachedDatabases", DatabaseOptions::maxAttachedDatabases),
            new Setting("maxValueBytes", DatabaseOptions::maxValueBytes),
            // connectionSetup(), by the builder method that sets each part
            new Setting("pragma", o -> o.connectionSetup().pragmas()),
            new Setting("function", o -> o.connectionSetup().functions()),
            new Setting("aggregate", o -> o.connectionSetup().aggregates()),
            new Setting("collation", o -> o.connectionSetup().collations()),
            new Setting("extension", o -> o.connectionSetup().extensions()),
            new Setting("onConnect", o -> o.connectionSetup().onConnect()));

    private OptionsDifference() {}

    /**
     * The first setting in which {@code open} and {@code asked} differ, as {@code "name (open
     * with X, asked for Y)"}; null when they are equal.
     */
    static String between(DatabaseOptions open, DatabaseOptions asked) {
        for (Setting s : SETTINGS) {
            Object a = s.value().apply(open);
            Object b = s.value().apply(asked);
            if (!Objects.equals(a, b)) {
                return s.name() + " (open with " + a + ", asked for " + b + ")";
            }
        }
        return null;
    }
}
