package dev.lanes.spring;

import dev.lanes.Lanes;
import dev.lanes.fleet.Fleet;
import dev.lanes.fleet.FleetListener;
import dev.lanes.fleet.ObjectStore;
import dev.lanes.spring.fleet.FleetMeters;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * This application as a node of a fleet, when {@code lanes-fleet} is on the class path and
 * {@code lanes.fleet.enabled=true}: a {@link Fleet} bean from the {@code lanes.fleet.*}
 * properties ({@link LanesFleetProperties}), its tenants opened on the application's {@link
 * Lanes} runtime, told to every {@link FleetListener} bean, then changed by the {@link
 * LanesFleetBuilderCustomizer} beans; it leaves the fleet (hands its tenants over) when the
 * context closes. With a {@link MeterRegistry}, {@link FleetMeters} counts its ownership
 * changes, restores and refused commits.
 *
 * <p>It backs off a {@link Fleet} the application defines itself; the request filter, the
 * {@code lanes-fleet} health indicator and the status gauges ({@link
 * dev.lanes.spring.fleet.LanesFleetNodeAutoConfiguration}) serve either one. {@code
 * lanes.enabled=false} turns it off too.
 */
@AutoConfiguration(after = LanesAutoConfiguration.class, afterName =
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(Fleet.class)
@ConditionalOnProperty(prefix = LanesProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LanesFleetProperties.class)
public class LanesFleetAutoConfiguration {

    /** {@code lanes.fleet.enabled=true}: the node. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = LanesFleetProperties.PREFIX, name = "enabled")
    static class FleetConfiguration {

        /**
         * Joins the fleet; leaves it, handing its tenants over, when the context closes (before
         * the runtime, which it depends on, closes).
         */
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        Fleet lanesFleet(LanesFleetProperties properties, Lanes lanes,
                ObjectProvider<FleetListener> listeners,
                ObjectProvider<LanesFleetBuilderCustomizer> customizers) {
            Fleet.Builder builder = builder(properties).lanes(lanes);
            listeners.orderedStream().forEach(builder::listener);
            customizers.orderedStream().forEach(c -> c.customize(builder));
            return builder.build();
        }

        /** The fleet's counters, when the application has a registry. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(MeterRegistry.class)
        @ConditionalOnBean(MeterRegistry.class)
        @ConditionalOnProperty(prefix = LanesProperties.PREFIX + ".metrics", name = "enabled",
                matchIfMissing = true)
        static class MetricsConfiguration {

            @Bean
            @ConditionalOnMissingBean
            FleetMeters lanesFleetMeters(MeterRegistry registry) {
                return new FleetMeters(registry);
            }
        }
    }

    /**
     * A node's builder with the properties applied (each value the builder refuses fails naming
     * its property); the properties checked that the required ones are set.
     */
    static Fleet.Builder builder(LanesFleetProperties p) {
        String at = LanesFleetProperties.PREFIX + ".";
        Fleet.Builder b = Fleet.builder().etcd(p.etcd());
        Properties.set(at + "node-id", p.nodeId(), b::nodeId);
        Properties.set(at + "address", p.address(), b::address);
        Properties.set(at + "name", p.name(), b::fleetName);
        Properties.set(at + "lease-ttl", p.leaseTtl(), b::leaseTtl);
        Properties.set(at + "safety-margin", p.safetyMargin(), b::safetyMargin);
        Properties.set(at + "data-directory", p.dataDirectory(), b::dataDirectory);
        Properties.set(at + "litestream", p.litestream(), b::litestream);
        Properties.set(at + "replication-interval", p.replicationInterval(),
                b::replicationInterval);
        Properties.set(at + "snapshot-interval", p.snapshotInterval(), b::snapshotInterval);
        Properties.set(at + "retention", p.retention(), b::retention);
        Properties.set(at + "litestream-processes", p.litestreamProcesses(),
                b::litestreamProcesses);
        Properties.set(at + "durability", p.durability(), b::durability);
        Properties.set(at + "auto-rebalance", p.autoRebalance(), b::autoRebalance);
        Properties.set(at + "acquire-timeout", p.acquireTimeout(), b::acquireTimeout);
        Properties.set(at + "move-hold", p.moveHold(), b::moveHold);
        Properties.set(at + "replicated-timeout", p.replicatedTimeout(), b::replicatedTimeout);
        Properties.set(at + "workers", p.workers(), b::workers);
        b.objectStore(objectStore(p.objectStore()));
        return b;
    }

    private static ObjectStore objectStore(LanesFleetProperties.ObjectStoreProperties p) {
        String at = LanesFleetProperties.PREFIX + ".object-store.";
        ObjectStore.Builder b = ObjectStore.builder().bucket(p.bucket())
                .accessKeyId(p.accessKeyId()).secretAccessKey(p.secretAccessKey());
        Properties.set(at + "endpoint", p.endpoint(), b::endpoint);
        Properties.set(at + "region", p.region(), b::region);
        // the store checks its prefix when it is built
        Properties.set(at + "prefix", p.prefix(), prefix -> b.prefix(prefix).build());
        return b.build();
    }
}
