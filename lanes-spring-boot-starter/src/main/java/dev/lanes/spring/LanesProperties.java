package dev.lanes.spring;

import dev.lanes.CheckpointMode;
import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The {@code lanes.*} properties of the Spring Boot starter. Every database setting left unset
 * keeps the {@link dev.lanes.DatabaseOptions} default; durations take Boot's forms ({@code 5s},
 * {@code 250ms}), sizes Boot's ({@code 64MB}).
 *
 * @param maxThreads the cap on the runtime's pool threads, shared by every database (default: env
 *     {@code LANES_WORKER_THREADS}, else 64)
 * @param maxOpenConnections the cap on SQLite connections open across the runtime; past it idle
 *     databases lose their connections in LRU order and reopen them on next use (default: no cap)
 * @param sqliteSoftHeapLimit SQLite's process-wide soft heap limit (default: SQLite's own)
 * @param datasource the primary database: with {@code lanes.datasource.path} set it is the
 *     application's {@code DataSource}
 * @param databases further databases by name, each a {@code Database} bean qualified by its name
 * @param tenants one database per tenant in a directory, served by {@link TenantDatabases}
 * @param metrics how the runtime's meters are tagged in the application's {@code MeterRegistry}
 * @param test where the databases open in a Spring test context
 */
@ConfigurationProperties("lanes")
public record LanesProperties(
        Integer maxThreads,
        Integer maxOpenConnections,
        DataSize sqliteSoftHeapLimit,
        DatabaseProperties datasource,
        Map<String, DatabaseProperties> databases,
        Tenants tenants,
        @DefaultValue Metrics metrics,
        @DefaultValue Test test) {

    /** The prefix of the properties. */
    public static final String PREFIX = "lanes";

    /**
     * Checks every database setting as the options builder would, so that a bad value fails the
     * binding, naming its property, before anything opens.
     */
    public LanesProperties {
        databases = databases == null ? Map.of() : Map.copyOf(databases);
        if (datasource != null && datasource.path() != null) {
            datasource.toOptionsBuilder(PREFIX + ".datasource");
        }
        databases.forEach((name, db) -> {
            if (db.path() == null) {
                throw new IllegalArgumentException(PREFIX + ".databases." + name + ".path is "
                        + "required: the database file");
            }
            db.toOptionsBuilder(PREFIX + ".databases." + name);
        });
        if (tenants != null && tenants.directory() != null) {
            tenants.toOptionsBuilder(PREFIX + ".tenants");
        }
    }

    /**
     * One database: its file and its options.
     *
     * @param path the database file; created if missing (its directory too)
     * @param writeQueueCapacity writes that may wait in the queue; past it a write waits up to
     *     writeQueueTimeout for room (default 256)
     * @param maxGroupSize writes committed together in one transaction at most (default 64)
     * @param readers read-only connections (default 4)
     * @param busyTimeout how long a write turn may wait in all for a lock another process holds
     *     (default 5s)
     * @param synchronous the durability of a commit: OFF, NORMAL or FULL (default NORMAL)
     * @param statementCacheSize prepared statements kept per connection (default 64; 0 disables)
     * @param closeTimeout how long the close at context shutdown waits for accepted writes to drain
     *     (default 5s)
     * @param transactionIdleTimeout an interactive transaction idle this long is rolled back
     *     (default 5s)
     * @param diskReserve free space at or below which writes are refused (default 64MB, or env
     *     LANES_DISK_RESERVE_BYTES; 0 disables)
     * @param slowWriteThreshold writes slower than this log one WARN (default 2500ms)
     * @param idleRelease unused this long: shrink memory, close idle readers (default 30s)
     * @param maxReadDuration a read holding its snapshot longer is logged (default 30s)
     * @param readerCheckoutTimeout how long a read waits for a reader connection (default 5s)
     * @param writeQueueTimeout how long a write that finds the queue full waits for room before
     *     it fails with QueueFullException (default 5s; 0 refuses at once)
     * @param maxResultSize how large one query's rows may grow (default: no limit)
     * @param checkpointMode who checkpoints the WAL: DEDICATED, AUTO or EXTERNAL (default DEDICATED, AUTO at synchronous FULL)
     * @param identityCheck detect a database file swapped underneath (default true)
     * @param background run the database's work in the background class (default false)
     */
    public record DatabaseProperties(
            Path path,
            Integer writeQueueCapacity,
            Integer maxGroupSize,
            Integer readers,
            Duration busyTimeout,
            Synchronous synchronous,
            Integer statementCacheSize,
            Duration closeTimeout,
            Duration transactionIdleTimeout,
            DataSize diskReserve,
            Duration slowWriteThreshold,
            Duration idleRelease,
            Duration maxReadDuration,
            Duration readerCheckoutTimeout,
            Duration writeQueueTimeout,
            DataSize maxResultSize,
            CheckpointMode checkpointMode,
            Boolean identityCheck,
            Boolean background) implements DatabaseSettings {}

    /**
     * One database per tenant, {@code <directory>/<tenant>.db}, all with the same options.
     *
     * @param directory where the tenant databases live; created if missing
     * @param migrations what each tenant database gets at its first open: either SQL resources
     *     ({@code classpath:tenant/V1.sql}, each entry ending in {@code .sql}; entry {@code i}
     *     brings the schema to version {@code i + 1}, tracked in {@code PRAGMA user_version}), or
     *     Flyway locations ({@code classpath:db/tenant}; needs Flyway on the class path)
     * @param writeQueueCapacity writes that may wait in the queue; past it a write waits up to
     *     writeQueueTimeout for room (default 256)
     * @param maxGroupSize writes committed together in one transaction at most (default 64)
     * @param readers read-only connections (default 4)
     * @param busyTimeout how long a write turn may wait in all for a lock another process holds
     *     (default 5s)
     * @param synchronous the durability of a commit: OFF, NORMAL or FULL (default NORMAL)
     * @param statementCacheSize prepared statements kept per connection (default 64; 0 disables)
     * @param closeTimeout how long the close at context shutdown waits for accepted writes to drain
     *     (default 5s)
     * @param transactionIdleTimeout an interactive transaction idle this long is rolled back
     *     (default 5s)
     * @param diskReserve free space at or below which writes are refused (default 64MB, or env
     *     LANES_DISK_RESERVE_BYTES; 0 disables)
     * @param slowWriteThreshold writes slower than this log one WARN (default 2500ms)
     * @param idleRelease unused this long: shrink memory, close idle readers (default 30s)
     * @param maxReadDuration a read holding its snapshot longer is logged (default 30s)
     * @param readerCheckoutTimeout how long a read waits for a reader connection (default 5s)
     * @param writeQueueTimeout how long a write that finds the queue full waits for room before
     *     it fails with QueueFullException (default 5s; 0 refuses at once)
     * @param maxResultSize how large one query's rows may grow (default: no limit)
     * @param checkpointMode who checkpoints the WAL: DEDICATED, AUTO or EXTERNAL (default DEDICATED, AUTO at synchronous FULL)
     * @param identityCheck detect a database file swapped underneath (default true)
     * @param background run the database's work in the background class (default false)
     */
    public record Tenants(
            Path directory,
            List<String> migrations,
            Integer writeQueueCapacity,
            Integer maxGroupSize,
            Integer readers,
            Duration busyTimeout,
            Synchronous synchronous,
            Integer statementCacheSize,
            Duration closeTimeout,
            Duration transactionIdleTimeout,
            DataSize diskReserve,
            Duration slowWriteThreshold,
            Duration idleRelease,
            Duration maxReadDuration,
            Duration readerCheckoutTimeout,
            Duration writeQueueTimeout,
            DataSize maxResultSize,
            CheckpointMode checkpointMode,
            Boolean identityCheck,
            Boolean background) implements DatabaseSettings {

        public Tenants {
            migrations = migrations == null ? List.of() : List.copyOf(migrations);
        }
    }

    /**
     * Micrometer binding, when the application has a {@code MeterRegistry}.
     *
     * @param enabled whether the runtime reports to the registry
     * @param perDatabase whether every database gets meters of its own, tenants included; off, the
     *     primary and the named databases get their own and the tenants share one set ({@code
     *     db="_other"}), so that many tenants do not mean many series
     */
    public record Metrics(@DefaultValue("true") boolean enabled, boolean perDatabase) {}

    /**
     * The databases of a Spring test context.
     *
     * @param freshDatabases whether, in a Spring test context, each database whose path comes
     *     from the application's configuration (not from the test class itself) opens in a new
     *     temporary directory of the context's own, deleted when the context closes, so that
     *     cached test contexts and test JVMs side by side never share a file
     */
    public record Test(@DefaultValue("true") boolean freshDatabases) {}
}
