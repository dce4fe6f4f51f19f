package dev.lanes.spring;

import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.MetricsListener;
import dev.lanes.micrometer.DatabaseTagging;
import dev.lanes.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.core.io.ResourceLoader;

/**
 * Lanes for a Spring Boot application: the {@link Lanes} runtime ({@code lanes.max-threads},
 * {@code lanes.max-open-connections}, {@code lanes.sqlite-soft-heap-limit}), closed with the
 * context; with {@code lanes.datasource.path} the primary {@link Database} and the application's
 * {@link DataSource} on it ({@link Database#dataSource()}), so that {@code JdbcTemplate}, {@code
 * JdbcClient}, {@code @Transactional}, Spring Data, JPA and Flyway run on the lanes; a {@link
 * Database} bean per {@code lanes.databases.<name>}; with {@code lanes.tenants.directory} a {@link
 * TenantDatabases}; and with a {@link MeterRegistry}, the runtime's meters in it.
 *
 * <p>It runs before Boot's {@code DataSourceAutoConfiguration}, so no connection pool is made for
 * the primary database; it backs off a {@link Lanes} or a {@link DataSource} the application
 * defines itself (the databases then open on the application's runtime).
 */
@AutoConfiguration(before = DataSourceAutoConfiguration.class, afterName =
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(Lanes.class)
@ConditionalOnProperty(prefix = LanesProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LanesProperties.class)
@Import(NamedDatabasesRegistrar.class)
public class LanesAutoConfiguration {
    /** The bean name of the primary {@link Database}. */
    public static final String PRIMARY_DATABASE = "lanesDatabase";

    /** The runtime, configured from {@code lanes.*}, then by the customizers in their order. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Lanes lanes(LanesProperties properties, ObjectProvider<MetricsListener> metrics,
            ObjectProvider<LanesBuilderCustomizer> customizers) {
        Lanes.Builder builder = Lanes.builder();
        String p = LanesProperties.PREFIX + ".";
        Properties.set(p + "max-threads", properties.maxThreads(), builder::maxThreads);
        Properties.set(p + "max-open-connections", properties.maxOpenConnections(),
                builder::maxOpenConnections);
        Properties.set(p + "sqlite-soft-heap-limit", properties.sqliteSoftHeapLimit(),
                size -> builder.sqliteSoftHeapLimit(size.toBytes()));
        metrics.ifAvailable(builder::metrics);
        customizers.orderedStream().forEach(c -> c.customize(builder));
        return builder.build();
    }

    /** What the health indicator and the {@code lanes} endpoint look at. */
    @Bean
    @ConditionalOnMissingBean
    public LanesDatabases lanesDatabases(Lanes lanes, LanesProperties properties,
            ListableBeanFactory beans, ObjectProvider<TenantDatabases> tenants) {
        Map<String, Long> reserves = new LinkedHashMap<>();
        Database primary = null;
        LanesProperties.DatabaseProperties datasource = properties.datasource();
        if (datasource != null && datasource.path() != null) {
            primary = beans.getBean(PRIMARY_DATABASE, Database.class);
            reserves.put(LanesDatabases.PRIMARY, datasource.toOptionsBuilder(
                    LanesProperties.PREFIX + ".datasource").build().diskReserveBytes());
        }
        Map<String, Database> named = new LinkedHashMap<>();
        properties.databases().forEach((name, db) -> {
            named.put(name, beans.getBean(name, Database.class));
            reserves.put(name, db.toOptionsBuilder(NamedDatabasesRegistrar.PREFIX + "." + name)
                    .build().diskReserveBytes());
        });
        return new LanesDatabases(lanes, primary, named, tenants.getIfAvailable(), reserves);
    }

    /** {@code lanes.datasource.*}: the primary database and the application's DataSource. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = LanesProperties.PREFIX + ".datasource", name = "path")
    static class PrimaryDatabaseConfiguration {

        @Bean(PRIMARY_DATABASE)
        @Primary
        Database lanesDatabase(Lanes lanes, LanesProperties properties) {
            return DatabaseOpener.open(lanes, LanesProperties.PREFIX + ".datasource",
                    properties.datasource());
        }

        @Bean
        @ConditionalOnMissingBean(DataSource.class)
        DataSource dataSource(@Qualifier(PRIMARY_DATABASE) Database database) {
            return database.dataSource();
        }
    }

    /** {@code lanes.tenants.*}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = LanesProperties.PREFIX + ".tenants", name = "directory")
    static class TenantsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        TenantDatabases tenantDatabases(Lanes lanes, LanesProperties properties,
                ResourceLoader resources) {
            LanesProperties.Tenants tenants = properties.tenants();
            String prefix = LanesProperties.PREFIX + ".tenants";
            return new TenantDatabases(lanes, tenants.directory(),
                    tenants.toOptionsBuilder(prefix).build(),
                    TenantMigrations.from(tenants.migrations(), resources));
        }
    }

    /**
     * Boot's Flyway on the primary database: a database that holds only Lanes' identity table is
     * baselined at version 0, so that the migrations run on it (see {@link LanesFlyway}).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.flywaydb.core.Flyway",
            "org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer"})
    static class FlywayConfiguration {

        @Bean
        FlywayConfigurationCustomizer lanesFlywayBaseline() {
            return LanesFlyway::baselineFresh;
        }
    }

    /**
     * The runtime's meters in the application's registry. The primary and the named databases
     * get meters of their own; tenants share one set unless {@code lanes.metrics.per-database}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({MeterRegistry.class, MicrometerMetrics.class})
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnProperty(prefix = LanesProperties.PREFIX + ".metrics", name = "enabled",
            matchIfMissing = true)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean(MetricsListener.class)
        MicrometerMetrics lanesMicrometerMetrics(MeterRegistry registry,
                LanesProperties properties) {
            return MicrometerMetrics.builder(registry).tagging(tagging(properties)).build();
        }

        static DatabaseTagging tagging(LanesProperties properties) {
            if (properties.metrics().perDatabase()) {
                return DatabaseTagging.perDatabase();
            }
            // the runtime names a database by its file name (see MicrometerMetrics)
            Set<String> names = new LinkedHashSet<>();
            if (properties.datasource() != null && properties.datasource().path() != null) {
                names.add(fileName(properties.datasource().path()));
            }
            for (LanesProperties.DatabaseProperties db : properties.databases().values()) {
                if (db.path() != null) {
                    names.add(fileName(db.path()));
                }
            }
            return DatabaseTagging.allowList(names);
        }

        private static String fileName(Path path) {
            Path name = path.toAbsolutePath().normalize().getFileName();
            return name == null ? path.toString() : name.toString();
        }
    }
}
