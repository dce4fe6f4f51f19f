package dev.lanes.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The IDE metadata that {@code spring-boot-configuration-processor} writes for the {@code lanes.*}
 * properties: every property of {@link LanesProperties} is there with its type and a description
 * (taken from the record's Javadoc), merged with the hand-written additional metadata; so is every
 * {@code lanes.fleet.*} property of {@link LanesFleetProperties}.
 */
class ConfigurationMetadataTest {
    private static final Map<String, Map<String, Object>> properties = new HashMap<>();

    @BeforeAll
    static void read() throws Exception {
        // the starter's own class output, not a jar of Boot's that carries metadata too
        Path classes = Path.of(LanesProperties.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI());
        Path file = classes.resolve("META-INF/spring-configuration-metadata.json");
        assertThat(file).as("written by spring-boot-configuration-processor at compile time")
                .isRegularFile();
        List<Map<String, Object>> all = JsonPath.read(Files.readString(file), "$.properties");
        for (Map<String, Object> property : all) {
            properties.put((String) property.get("name"), property);
        }
    }

    @Test
    void everyDatabaseSettingIsDescribedForTheDatasourceAndTheTenants() {
        for (RecordComponent c : LanesProperties.DatabaseProperties.class.getRecordComponents()) {
            assertDescribed("lanes.datasource." + kebab(c.getName()));
        }
        for (RecordComponent c : LanesProperties.Tenants.class.getRecordComponents()) {
            assertDescribed("lanes.tenants." + kebab(c.getName()));
        }
        assertThat(properties.get("lanes.datasource.path").get("type"))
                .isEqualTo("java.nio.file.Path");
        assertThat(properties.get("lanes.datasource.synchronous").get("type"))
                .isEqualTo("dev.lanes.Synchronous");
        assertThat(properties.get("lanes.datasource.disk-reserve").get("type"))
                .isEqualTo("org.springframework.util.unit.DataSize");
        assertThat((String) properties.get("lanes.datasource.path").get("description"))
                .contains("database file");
    }

    @Test
    void theRuntimeTheNamedDatabasesTheMetricsAndTheSwitchesAreThere() {
        for (String name : new String[] {"lanes.max-threads", "lanes.max-open-connections",
                "lanes.sqlite-soft-heap-limit", "lanes.databases", "lanes.metrics.enabled",
                "lanes.metrics.per-database", "lanes.enabled", "lanes.test.fresh-databases",
                "management.health.lanes.enabled"}) {
            assertDescribed(name);
        }
        assertThat((String) properties.get("lanes.databases").get("type"))
                .startsWith("java.util.Map<java.lang.String,");
        assertThat(properties.get("lanes.metrics.enabled").get("defaultValue"))
                .isEqualTo(true);
        assertThat(properties.get("lanes.enabled").get("defaultValue")).isEqualTo(true);
        assertThat(properties.get("lanes.test.fresh-databases").get("defaultValue"))
                .isEqualTo(true);
    }

    @Test
    void everyFleetPropertyIsDescribed() {
        for (RecordComponent c : LanesFleetProperties.class.getRecordComponents()) {
            if (c.getType().isRecord()) {
                for (RecordComponent n : c.getType().getRecordComponents()) {
                    assertDescribed("lanes.fleet." + kebab(c.getName()) + "."
                            + kebab(n.getName()));
                }
            } else {
                assertDescribed("lanes.fleet." + kebab(c.getName()));
            }
        }
        assertDescribed("management.health.lanes-fleet.enabled");
        assertThat(properties.get("lanes.fleet.enabled").get("defaultValue")).isEqualTo(false);
        assertThat(properties.get("lanes.fleet.web.forward").get("type"))
                .isEqualTo("dev.lanes.spring.fleet.ForwardMode");
        assertThat(properties.get("lanes.fleet.web.tenant-header").get("defaultValue"))
                .isEqualTo("X-Lanes-Tenant");
        assertThat(properties.get("lanes.fleet.durability").get("type"))
                .isEqualTo("dev.lanes.fleet.Durability");
    }

    private static void assertDescribed(String name) {
        assertThat(properties).as("metadata of %s", name).containsKey(name);
        assertThat((String) properties.get(name).get("description"))
                .as("description of %s", name).isNotBlank();
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
