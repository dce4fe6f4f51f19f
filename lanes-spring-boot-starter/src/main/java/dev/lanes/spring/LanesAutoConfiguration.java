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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
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
 * defines itself (the databases then open on the application's runtime). The primary database
 * is not opened at all when the application configures another data source or excludes Boot's
 * ({@link PrimaryDataSourceCondition}). It is part of the JDBC test slices ({@code @JdbcTest},
 * {@code @DataJpaTest}, {@code @DataJdbcTest}), after Boot's test database, so that a test asking
 * {@code @AutoConfigureTestDatabase(replace = AUTO_CONFIGURED)} gets the embedded one. {@link
 * LanesBuilderCustomizer} beans change the runtime's builder after the properties; {@code
 * lanes.enabled=false} turns all of it off.
 */
@AutoConfiguration(before = DataSourceAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.jdbc.test.autoconfigure.TestDatabaseAutoConfiguration"})
@ConditionalOnClass(Lanes.class)
@ConditionalOnProperty(prefix = LanesProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LanesProperties.class)
@Import(NamedDatabasesRegistrar.class)
public class LanesAutoConfiguration {
    /** The bean name of the primary {@link Database}. */
    public static final String PRIMARY_DATABASE = "lanesDatabase";

    private static final Logger log = LoggerFactory.getLogger(LanesAutoConfiguration.class);

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
            ConfigurableListableBeanFactory beans, Environment environment,
            ObjectProvider<TenantDatabases> tenants) {
        Map<String, Long> reserves = new LinkedHashMap<>();
        Database primary = null;
        LanesProperties.DatabaseProperties datasource = properties.datasource();
        if (datasource != null && datasource.path() != null) {
            if (beans.containsBean(PRIMARY_DATABASE)) {
                primary = beans.getBean(PRIMARY_DATABASE, Database.class);
                reserves.put(LanesDatabases.PRIMARY, datasource.toOptionsBuilder(
                        LanesProperties.PREFIX + ".datasource").build().diskReserveBytes());
            } else {
                log.info("{} is set, but {}: Lanes opens no primary database and makes no "
                        + "DataSource",
                        PrimaryDataSourceCondition.PATH, PrimaryDataSourceCondition
                                .otherDataSource(environment, beans));
            }
        }
        Map<String, Database> named = new LinkedHashMap<>();
        properties.databases().forEach((name, db) -> {
            named.put(name, beans.getBean(name, Database.class));
            reserves.put(name, db.toOptionsBuilder(NamedDatabasesRegistrar.PREFIX + "." + name)
                    .build().diskReserveBytes());
        });
        return new LanesDatabases(lanes, primary, named, tenants.getIfAvailable(), reserves);
    }

    /**
     * {@code lanes.datasource.*}: the primary database and the application's DataSource, unless
     * the application configures another data source or excludes Boot's (see {@link
     * PrimaryDataSourceCondition}).
     */
    @Configuration(proxyBeanMethods = false)
    @Conditional(PrimaryDataSourceCondition.class)
    static class PrimaryDatabaseConfiguration {

        @Bean(PRIMARY_DATABASE)
        @Primary
        Database lanesDatabase(Lanes lanes, LanesProperties properties, BeanFactory beans) {
            return DatabaseOpener.open(beans, lanes, LanesProperties.PREFIX + ".datasource",
                    properties.datasource(), "datasource");
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
                ResourceLoader resources, BeanFactory beans) {
            LanesProperties.Tenants tenants = properties.tenants();
            String prefix = LanesProperties.PREFIX + ".tenants";
            Path directory = TestDatabaseDirectory.place(beans, prefix + ".directory",
                    tenants.directory(), "tenants");
            return new TenantDatabases(lanes, directory,
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
