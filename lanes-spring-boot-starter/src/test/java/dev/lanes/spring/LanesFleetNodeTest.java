package dev.lanes.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanes.Database;
import dev.lanes.fleet.Fleet;
import dev.lanes.fleet.Member;
import dev.lanes.fleet.testing.Tools;
import dev.lanes.spring.fleet.FleetHealthIndicator;
import dev.lanes.spring.fleet.FleetMeters;
import dev.lanes.spring.fleet.FleetNode;
import dev.lanes.spring.fleet.LanesFleetNodeAutoConfiguration;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A node the starter builds from {@code lanes.fleet.*}, on real engines (etcd, s3proxy,
 * Litestream, found or installed as lanes-fleet's tests do; skipped with a message where one
 * cannot be had): it serves a tenant, its health shows the lease held and the tenant, its meters
 * count the tenant acquired, and closing the context hands the tenant back (released).
 */
@Tag("slow")
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LanesFleetNodeTest {
    @TempDir static Path dir;
    static FleetEngines engines;

    @BeforeAll
    static void engines() {
        try {
            engines = FleetEngines.start(dir);
        } catch (Tools.Unavailable e) {
            abort("fleet node test skipped: " + e.getMessage());
        }
    }

    @AfterAll
    static void stop() {
        if (engines != null) {
            engines.close();
        }
    }

    @Test
    void theStartersNodeServesATenantReportsItAndHandsItBackOnClose() {
        Counter[] released = new Counter[1];
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        LanesAutoConfiguration.class, LanesFleetAutoConfiguration.class,
                        LanesFleetNodeAutoConfiguration.class))
                .withUserConfiguration(Registry.class)
                .withPropertyValues(engines.nodeProperties("boot1", "http://127.0.0.1:8080",
                        "boot", dir.resolve("node")).toArray(String[]::new))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Fleet fleet = context.getBean(Fleet.class);
                    Database db = fleet.database("t1");
                    db.execute("CREATE TABLE t (v TEXT)");
                    db.execute("INSERT INTO t (v) VALUES ('x')");

                    Member self = new Member("boot1", "http://127.0.0.1:8080");
                    assertThat(context.getBean(FleetNode.class).ownerOf("t1")).contains(self);
                    Health health = context.getBean(FleetHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("node", "boot1")
                            .containsEntry("tenants", 1);
                    assertThat(((Map<?, ?>) health.getDetails().get("lease")).get("state"))
                            .isEqualTo("held");

                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(FleetMeters.OWNERSHIP_CHANGES)
                            .tag("change", "acquired").counter().count()).isEqualTo(1);
                    assertThat(registry.get(FleetMeters.TENANTS).gauge().value()).isEqualTo(1);
                    released[0] = registry.get(FleetMeters.OWNERSHIP_CHANGES)
                            .tag("change", "released").counter();
                    assertThat(released[0].count()).isZero();
                });
        assertThat(released[0].count()).as("released when the context closed").isEqualTo(1);
    }

    @Configuration(proxyBeanMethods = false)
    static class Registry {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
