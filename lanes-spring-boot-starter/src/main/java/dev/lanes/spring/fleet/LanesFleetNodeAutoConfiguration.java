package dev.lanes.spring.fleet;

import dev.lanes.fleet.Fleet;
import dev.lanes.spring.LanesFleetAutoConfiguration;
import dev.lanes.spring.LanesFleetProperties;
import dev.lanes.spring.LanesProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * What serves the application's {@link Fleet} node, its own or the starter's: the {@link
 * FleetNode} they read, and with the modules for each, the {@link FleetOwnerFilter} of a servlet
 * application ({@code lanes.fleet.web.*}), the {@code lanes-fleet} health indicator ({@link
 * FleetHealthIndicator}) and the status gauges of {@link FleetMeters}.
 */
@AutoConfiguration(after = LanesFleetAutoConfiguration.class, afterName =
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(Fleet.class)
@ConditionalOnBean(Fleet.class)
@ConditionalOnProperty(prefix = LanesProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LanesFleetProperties.class)
public class LanesFleetNodeAutoConfiguration {
    /** The bean name of the filter's registration. */
    public static final String FILTER = "lanesFleetFilter";

    /** The node as the filter, the health indicator and the gauges read it. */
    @Bean
    @ConditionalOnMissingBean
    public FleetNode lanesFleetNode(Fleet fleet) {
        return FleetNode.of(fleet);
    }

    /** {@code lanes.fleet.web.*}: the request filter of a servlet application. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass({OncePerRequestFilter.class, FilterRegistrationBean.class})
    @ConditionalOnProperty(prefix = LanesFleetProperties.PREFIX + ".web", name = "enabled",
            matchIfMissing = true)
    static class WebConfiguration {

        @Bean
        @ConditionalOnMissingBean
        TenantResolver lanesTenantResolver(LanesFleetProperties properties) {
            return TenantResolver.header(properties.web().tenantHeader());
        }

        @Bean(FILTER)
        @ConditionalOnMissingBean(name = FILTER)
        FilterRegistrationBean<FleetOwnerFilter> lanesFleetFilter(FleetNode fleet,
                TenantResolver tenants, LanesFleetProperties properties) {
            FilterRegistrationBean<FleetOwnerFilter> registration = new FilterRegistrationBean<>(
                    new FleetOwnerFilter(fleet, tenants, properties.web().forward()));
            registration.setOrder(properties.web().order());
            return registration;
        }
    }

    /** The {@code lanes-fleet} health indicator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("lanes-fleet")
    static class HealthConfiguration {

        @Bean("lanes-fleetHealthIndicator")
        @ConditionalOnMissingBean(name = "lanes-fleetHealthIndicator")
        FleetHealthIndicator lanesFleetHealthIndicator(FleetNode fleet) {
            return new FleetHealthIndicator(fleet);
        }
    }

    /** The status gauges, when the application has a registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnProperty(prefix = LanesProperties.PREFIX + ".metrics", name = "enabled",
            matchIfMissing = true)
    static class MetricsConfiguration {

        @Bean
        MeterBinder lanesFleetStatusMeters(FleetNode fleet) {
            return registry -> FleetMeters.bindStatus(registry, fleet);
        }
    }
}
