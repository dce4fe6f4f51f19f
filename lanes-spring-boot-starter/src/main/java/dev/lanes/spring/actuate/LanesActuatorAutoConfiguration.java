package dev.lanes.spring.actuate;

import dev.lanes.spring.LanesAutoConfiguration;
import dev.lanes.spring.LanesDatabases;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code lanes} health indicator ({@code management.health.lanes.enabled}) and the {@code
 * lanes} actuator endpoint ({@code management.endpoints.web.exposure.include=lanes}), when the
 * application has Spring Boot's health and actuator modules.
 */
@AutoConfiguration(after = LanesAutoConfiguration.class)
@ConditionalOnBean(LanesDatabases.class)
public class LanesActuatorAutoConfiguration {

    /** The {@code lanes} health indicator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("lanes")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "lanesHealthIndicator")
        LanesHealthIndicator lanesHealthIndicator(LanesDatabases databases) {
            return new LanesHealthIndicator(databases);
        }
    }

    /** The {@code lanes} endpoint. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint(LanesEndpoint.class)
        LanesEndpoint lanesEndpoint(LanesDatabases databases) {
            return new LanesEndpoint(databases);
        }
    }
}
