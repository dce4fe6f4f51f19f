package dev.lanes.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.ReadOptions;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteOptions;
import dev.lanes.micrometer.MicrometerMetrics;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is the one table of every option: each setter of the runtime's, a
 * database's, a request's and the Micrometer binding's builder, and each property of the Spring
 * Boot starter's configuration metadata, has its row; and the defaults the table states for a
 * database are the ones {@link DatabaseOptions#DEFAULTS} has.
 */
class ConfigurationDocTest {
    private final String page = Docs.page("configuration.md");

    @Test
    void everyRuntimeAndDatabaseOptionHasARow() {
        assertThat(missing("Lanes.Builder", Lanes.Builder.class)).isEmpty();
        assertThat(missing("DatabaseOptions.Builder", DatabaseOptions.Builder.class)).isEmpty();
    }

    @Test
    void everyPerRequestAndMetricsOptionHasARow() {
        assertThat(missing("WriteOptions.Builder", WriteOptions.Builder.class)).isEmpty();
        assertThat(missing("ReadOptions.Builder", ReadOptions.Builder.class)).isEmpty();
        assertThat(missing("TransactionOptions.Builder", TransactionOptions.Builder.class)).isEmpty();
        assertThat(missing("MicrometerMetrics.Builder", MicrometerMetrics.Builder.class)).isEmpty();
    }

    @Test
    void everySpringBootPropertyHasARow() throws Exception {
        TreeSet<String> properties = new TreeSet<>();
        ObjectMapper json = new ObjectMapper();
        for (String resource : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            for (URL url : Collections.list(getClass().getClassLoader().getResources(resource))) {
                if (!url.toString().contains("lanes-spring-boot-starter")) {
                    continue;
                }
                try (InputStream in = url.openStream()) {
                    for (JsonNode p : json.readTree(in).path("properties")) {
                        properties.add(p.get("name").asText());
                    }
                }
            }
        }
        assertThat(properties).as("the starter's metadata is on the class path")
                .contains("lanes.datasource.path", "lanes.tenants.directory", "lanes.enabled");

        List<String> missing = properties.stream().filter(p -> !page.contains("`" + p + "`"))
                .toList();

        assertThat(missing).as("Boot properties without a row in docs/configuration.md").isEmpty();
    }

    @Test
    void theEnvironmentVariablesAreNamed() {
        assertThat(page).contains("`" + Lanes.WORKER_THREADS_ENV + "`",
                "`" + DatabaseOptions.DISK_RESERVE_ENV + "`");
    }

    @Test
    void theDefaultsInTheTableAreTheDatabaseDefaults() {
        DatabaseOptions d = DatabaseOptions.DEFAULTS;
        assertThat(defaultOf("writeQueueCapacity")).isEqualTo(String.valueOf(d.writeQueueCapacity()));
        assertThat(defaultOf("maxGroupSize")).isEqualTo(String.valueOf(d.maxGroupSize()));
        assertThat(defaultOf("readers")).isEqualTo(String.valueOf(d.readers()));
        assertThat(defaultOf("statementCacheSize")).isEqualTo(String.valueOf(d.statementCacheSize()));
        assertThat(defaultOf("busyTimeout")).isEqualTo(seconds(d.busyTimeout()));
        assertThat(defaultOf("closeTimeout")).isEqualTo(seconds(d.closeTimeout()));
        assertThat(defaultOf("transactionIdleTimeout")).isEqualTo(seconds(d.transactionIdleTimeout()));
        assertThat(defaultOf("idleRelease")).isEqualTo(seconds(d.idleRelease()));
        assertThat(defaultOf("maxReadDuration")).isEqualTo(seconds(d.maxReadDuration()));
        assertThat(defaultOf("slowWriteThreshold")).isEqualTo(seconds(d.slowWriteThreshold()));
        assertThat(defaultOf("readerCheckoutTimeout")).isEqualTo(seconds(d.readerCheckoutTimeout()));
        assertThat(defaultOf("writeQueueTimeout")).isEqualTo(seconds(d.writeQueueTimeout()));
        assertThat(defaultOf("synchronous")).isEqualTo("`" + d.synchronous() + "`");
        assertThat(defaultOf("identityCheck")).isEqualTo(String.valueOf(d.identityCheck()));
        assertThat(defaultOf("background")).isEqualTo(String.valueOf(d.background()));
        assertThat(defaultOf("maxAttachedDatabases")).startsWith(d.maxAttachedDatabases() + " ");
        assertThat(defaultOf("maxValueBytes")).isEqualTo(String.format("%,d", d.maxValueBytes()));
        assertThat(defaultOf("checkpointMode")).startsWith("`" + d.checkpointMode() + "`");
        assertThat((d.maxResultBytes() >> 20) + " MiB").isEqualTo(defaultOf("maxResultBytes"));
        if (System.getenv(DatabaseOptions.DISK_RESERVE_ENV) == null) {
            assertThat((d.diskReserveBytes() >> 20) + " MiB").isEqualTo(defaultOf("diskReserveBytes"));
        }
    }

    /** The builder's setters that have no row naming them as {@code Type.name(}. */
    private List<String> missing(String prefix, Class<?> builder) {
        List<String> missing = new ArrayList<>();
        for (Method m : builder.getMethods()) {
            boolean setter = Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                    && m.getDeclaringClass() != Object.class && !m.getName().equals("build")
                    && !m.isSynthetic() && !m.isBridge();
            if (setter && !page.contains("`" + prefix + "." + m.getName() + "(")) {
                missing.add(prefix + "." + m.getName());
            }
        }
        return missing;
    }

    /** The default column of the row of {@code DatabaseOptions.Builder.option}. */
    private String defaultOf(String option) {
        Optional<String> row = page.lines()
                .filter(l -> l.startsWith("| `DatabaseOptions.Builder." + option + "("))
                .findFirst();
        assertThat(row).as("the row of " + option).isPresent();
        return row.get().split("\\|")[3].strip();
    }

    /** 5 s, 2.5 s: how the table writes a duration. */
    private static String seconds(Duration d) {
        double s = d.toMillis() / 1000.0;
        return (s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s)) + " s";
    }
}
