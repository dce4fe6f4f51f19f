package dev.lanes.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.lanes.fleet.Durability;
import dev.lanes.fleet.Fleet;
import dev.lanes.fleet.FleetStatus;
import dev.lanes.fleet.Member;
import dev.lanes.spring.fleet.FleetHealthIndicator;
import dev.lanes.spring.fleet.FleetMeters;
import dev.lanes.spring.fleet.FleetNode;
import dev.lanes.spring.fleet.FleetOwnerFilter;
import dev.lanes.spring.fleet.ForwardMode;
import dev.lanes.spring.fleet.LanesFleetNodeAutoConfiguration;
import dev.lanes.spring.fleet.TenantResolver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.AbstractApplicationContextRunner;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The fleet's auto-configuration without etcd: the {@code lanes.fleet.*} properties bind and are
 * checked, the starter backs off a {@link Fleet} the application defines, and for that node the
 * filter (servlet applications only), the {@code lanes-fleet} health contributor and the meters
 * are there. The application's Fleet is a Mockito mock ({@link Fleet} is a final class that
 * joins etcd when built); what the filter, the indicator and the meters do is tested on a stub
 * {@link FleetNode} in {@code dev.lanes.spring.fleet}.
 */
class LanesFleetAutoConfigurationTest {
    @TempDir Path dir;

    private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(
            LanesAutoConfiguration.class, LanesFleetAutoConfiguration.class,
            LanesFleetNodeAutoConfiguration.class,
            HealthContributorRegistryAutoConfiguration.class);

    private String[] nodeProperties() {
        return new String[] {"lanes.fleet.enabled=true", "lanes.fleet.node-id=n1",
            "lanes.fleet.address=http://10.0.0.5:8080",
            "lanes.fleet.etcd=http://10.0.0.1:2379,http://10.0.0.2:2379",
            "lanes.fleet.data-directory=" + dir.resolve("fleet"),
            "lanes.fleet.litestream=/usr/local/bin/litestream",
            "lanes.fleet.object-store.endpoint=http://127.0.0.1:9000",
            "lanes.fleet.object-store.bucket=replicas",
            "lanes.fleet.object-store.access-key-id=key",
            "lanes.fleet.object-store.secret-access-key=s3cret"};
    }

    private static <R extends AbstractApplicationContextRunner<R, ?, ?>> R configured(R runner) {
        return runner.withConfiguration(CONFIGURATIONS);
    }

    @Test
    void withoutLanesFleetEnabledNoNodeIsMadeAndNothingOfTheFleetIsThere() {
        configured(new WebApplicationContextRunner()).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(Fleet.class)
                    .doesNotHaveBean(FleetNode.class)
                    .doesNotHaveBean(LanesFleetNodeAutoConfiguration.FILTER)
                    .doesNotHaveBean(FleetHealthIndicator.class);
            assertThat(context.getBean(LanesFleetProperties.class).web().forward())
                    .isEqualTo(ForwardMode.REDIRECT);
        });
    }

    @Test
    void withoutLanesFleetOnTheClassPathTheStarterMakesNothingOfIt() {
        configured(new WebApplicationContextRunner())
                .withClassLoader(new FilteredClassLoader(Fleet.class))
                .withUserConfiguration(OwnFleetNode.class)
                .withPropertyValues("lanes.fleet.enabled=true")
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(LanesFleetProperties.class)
                        .doesNotHaveBean(LanesFleetNodeAutoConfiguration.FILTER)
                        .doesNotHaveBean(FleetHealthIndicator.class));
    }

    @Test
    void thePropertiesBind() {
        configured(new ApplicationContextRunner()).withUserConfiguration(OwnFleet.class)
                .withPropertyValues(nodeProperties())
                .withPropertyValues("lanes.fleet.lease-ttl=5s", "lanes.fleet.durability=replicated",
                        "lanes.fleet.name=eu", "lanes.fleet.workers=3",
                        "lanes.fleet.snapshot-interval=30s", "lanes.fleet.retention=2h",
                        "lanes.fleet.object-store.prefix=fleet/",
                        "lanes.fleet.web.forward=reject", "lanes.fleet.web.tenant-header=X-Org")
                .run(context -> {
                    LanesFleetProperties p = context.getBean(LanesFleetProperties.class);
                    assertThat(p.nodeId()).isEqualTo("n1");
                    assertThat(p.etcd()).containsExactly("http://10.0.0.1:2379",
                            "http://10.0.0.2:2379");
                    assertThat(p.leaseTtl()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(p.durability()).isEqualTo(Durability.REPLICATED);
                    assertThat(p.name()).isEqualTo("eu");
                    assertThat(p.workers()).isEqualTo(3);
                    assertThat(p.snapshotInterval()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(p.retention()).isEqualTo(Duration.ofHours(2));
                    assertThat(p.dataDirectory()).isEqualTo(dir.resolve("fleet"));
                    assertThat(p.objectStore().bucket()).isEqualTo("replicas");
                    assertThat(p.objectStore().prefix()).isEqualTo("fleet/");
                    assertThat(p.objectStore().toString()).doesNotContain("s3cret");
                    assertThat(p.web().forward()).isEqualTo(ForwardMode.REJECT);
                    assertThat(p.web().tenantHeader()).isEqualTo("X-Org");
                    assertThat(p.web().order()).isZero();
                    // every value reaches a builder that accepts it
                    assertThat(LanesFleetAutoConfiguration.builder(p)).isNotNull();
                });
    }

    @Test
    void aMissingRequiredPropertyFailsTheStartupNamingIt() {
        configured(new ApplicationContextRunner())
                .withPropertyValues("lanes.fleet.enabled=true", "lanes.fleet.node-id=n1")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("lanes.fleet.etcd is required"));
    }

    @Test
    void aValueTheBuilderRefusesFailsNamingItsProperty() {
        for (String refused : new String[] {"lanes.fleet.object-store.prefix=no-slash",
                "lanes.fleet.snapshot-interval=500ms", "lanes.fleet.retention=30s"}) {
            configured(new ApplicationContextRunner()).withUserConfiguration(OwnFleet.class)
                    .withPropertyValues(nodeProperties()).withPropertyValues(refused)
                    .run(context -> assertThatThrownBy(() -> LanesFleetAutoConfiguration.builder(
                            context.getBean(LanesFleetProperties.class)))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining(
                                    refused.substring(0, refused.indexOf('=') + 1)));
        }
    }

    @Test
    void theStarterBacksOffTheApplicationsFleetAndServesIt() {
        configured(new WebApplicationContextRunner()).withUserConfiguration(OwnFleet.class)
                .withPropertyValues(nodeProperties())
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Fleet.class);
                    assertThat(context.getBean(Fleet.class)).isSameAs(OwnFleet.FLEET);
                    FleetNode node = context.getBean(FleetNode.class);
                    assertThat(node.node()).isEqualTo(new Member("n1", "http://n1:8080"));
                    assertThat(node.ownerOf("t1")).contains(new Member("n2", "http://n2:8080"));
                    assertThat(node.leaseTtl()).isEqualTo(Duration.ofSeconds(2));

                    FilterRegistrationBean<?> filter = context.getBean(
                            LanesFleetNodeAutoConfiguration.FILTER, FilterRegistrationBean.class);
                    assertThat(filter.getFilter()).isInstanceOf(FleetOwnerFilter.class);
                    assertThat(filter.getOrder()).isZero();
                    assertThat(context).hasSingleBean(TenantResolver.class);

                    HealthContributorRegistry health = context.getBean(
                            HealthContributorRegistry.class);
                    assertThat(health.getContributor("lanes-fleet"))
                            .isInstanceOf(FleetHealthIndicator.class);
                });
    }

    @Test
    void theFilterIsOnlyInServletApplicationsAndCanBeTurnedOff() {
        configured(new ApplicationContextRunner()).withUserConfiguration(OwnFleet.class)
                .run(context -> assertThat(context).hasSingleBean(FleetNode.class)
                        .doesNotHaveBean(LanesFleetNodeAutoConfiguration.FILTER)
                        .doesNotHaveBean(TenantResolver.class));
        configured(new WebApplicationContextRunner()).withUserConfiguration(OwnFleet.class)
                .withPropertyValues("lanes.fleet.web.enabled=false")
                .run(context -> assertThat(context)
                        .doesNotHaveBean(LanesFleetNodeAutoConfiguration.FILTER));
    }

    @Test
    void anApplicationsTenantResolverReplacesTheHeader() {
        configured(new WebApplicationContextRunner())
                .withUserConfiguration(OwnFleet.class, OwnResolver.class)
                .run(context -> assertThat(context.getBean(TenantResolver.class))
                        .isSameAs(OwnResolver.RESOLVER));
    }

    @Test
    void theHealthIndicatorCanBeTurnedOff() {
        configured(new ApplicationContextRunner()).withUserConfiguration(OwnFleet.class)
                .withPropertyValues("management.health.lanes-fleet.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(FleetHealthIndicator.class));
    }

    @Test
    void withARegistryTheListenerAndTheStatusGaugesAreThere() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
                .withConfiguration(CONFIGURATIONS)
                .withUserConfiguration(OwnFleet.class, Registry.class)
                .withPropertyValues(nodeProperties())
                .run(context -> {
                    assertThat(context).hasSingleBean(FleetMeters.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(FleetMeters.TENANTS).gauge().value()).isEqualTo(4);
                    assertThat(registry.get(FleetMeters.REPLICATION_LAG).gauge().value())
                            .isEqualTo(512);
                    assertThat(registry.get(FleetMeters.OWNERSHIP_CHANGES)
                            .tag("change", "acquired").counter().count()).isZero();
                });
        configured(new ApplicationContextRunner()).withUserConfiguration(OwnFleet.class)
                .withPropertyValues(nodeProperties())
                .run(context -> assertThat(context).doesNotHaveBean(FleetMeters.class));
    }

    /** The application's own node: a mock, so that nothing joins etcd. */
    @Configuration(proxyBeanMethods = false)
    static class OwnFleet {
        static final Fleet FLEET = mockFleet();

        private static Fleet mockFleet() {
            Fleet fleet = mock(Fleet.class);
            Member self = new Member("n1", "http://n1:8080");
            when(fleet.node()).thenReturn(self);
            when(fleet.ownerOf("t1")).thenReturn(Optional.of(new Member("n2", "http://n2:8080")));
            when(fleet.leaseTtl()).thenReturn(Duration.ofSeconds(2));
            when(fleet.members()).thenReturn(List.of(self));
            when(fleet.status()).thenReturn(new FleetStatus(self, 9, Duration.ofSeconds(1), 4, 1,
                    512, 0, 0, 0));
            return fleet;
        }

        @Bean(destroyMethod = "")
        Fleet fleet() {
            return FLEET;
        }
    }

    /** A node without a Fleet: nothing of the starter's uses it then. */
    @Configuration(proxyBeanMethods = false)
    static class OwnFleetNode {
        @Bean
        FleetNode fleetNode() {
            return mock(FleetNode.class);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnResolver {
        static final TenantResolver RESOLVER = request -> request.getServerName();

        @Bean
        TenantResolver tenantResolver() {
            return RESOLVER;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Registry {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
