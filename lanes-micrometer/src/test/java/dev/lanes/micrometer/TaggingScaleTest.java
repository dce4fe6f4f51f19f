package dev.lanes.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 10,000 real databases in one runtime, measured by two bindings side by side: the default
 * policy keeps the registry to a few hundred series, where tagging every database publishes
 * tens of meters per database.
 */
@Tag("slow")
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class TaggingScaleTest {
    private static final int DATABASES = Integer.getInteger("lanes.scale.databases", 10_000);
    /** Tenants as small as can be: durability is not what this test is about. */
    private static final DatabaseOptions SMALL = DatabaseOptions.builder()
            .synchronous(Synchronous.OFF).readers(1).build();
    private static final int HOT = DatabaseTagging.DEFAULT_BUSIEST;

    @TempDir
    Path dir;

    @Test
    void theDefaultPolicyKeepsTenThousandDatabasesToAFewHundredSeries() {
        PrometheusMeterRegistry bounded = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MeterRegistry everyDatabase = new SimpleMeterRegistry();
        MicrometerMetrics defaults = new MicrometerMetrics(bounded);
        MicrometerMetrics perDatabase = MicrometerMetrics.builder(everyDatabase)
                .tagging(DatabaseTagging.perDatabase()).percentiles().build();

        long start = System.nanoTime();
        List<Database> dbs = new ArrayList<>(DATABASES);
        // a connection budget bounds the descriptors: the databases share 256 lock files, and
        // only the most recently used keep their connections open
        try (Lanes lanes = Lanes.builder().name("scale").maxThreads(4).maxOpenConnections(256)
                .metrics(new FanOut(defaults, perDatabase)).build()) {
            for (int i = 0; i < DATABASES; i++) {
                Database db = lanes.open(dir.resolve("tenant-" + i + ".db"), SMALL);
                db.execute("CREATE TABLE IF NOT EXISTS t(v INTEGER)");
                dbs.add(db);
            }
            // the last databases opened are the busy ones: each far busier than the first,
            // which took the places as they opened
            List<String> hot = new ArrayList<>();
            for (int h = 0; h < HOT; h++) {
                Database db = dbs.get(DATABASES - 1 - h);
                for (int w = 0; w < 50; w++) {
                    db.execute("INSERT INTO t(v) VALUES (?)", w);
                }
                assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                        .isEqualTo(50);
                hot.add(db.path().getFileName().toString());
            }
            defaults.rank(); // the ranking a minute of this load would run from its events
            long setupMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            Set<String> boundedTags = dbTags(bounded);
            Set<String> everyTags = dbTags(everyDatabase);
            int series = series(bounded.scrape());
            System.out.printf("TaggingScaleTest: %,d databases open in %,d ms; default policy: "
                    + "%,d meters, %,d Prometheus series, db tags %s; perDatabase: %,d meters, "
                    + "%,d db tags%n", DATABASES, setupMillis, bounded.getMeters().size(), series,
                    boundedTags, everyDatabase.getMeters().size(), everyTags.size());

            assertThat(defaults.taggedDatabases()).containsExactlyInAnyOrderElementsOf(hot);
            assertThat(boundedTags).hasSize(HOT + 1).contains(DatabaseTagging.OTHER);
            assertThat(series).isLessThan(500);
            assertThat(everyTags).hasSize(DATABASES);
            assertThat(everyDatabase.getMeters().size())
                    .isGreaterThan(15 * DATABASES)
                    .isGreaterThan(100 * bounded.getMeters().size());
            // the folded gauges stand for the 9,995 others
            assertThat(bounded.get("lanes.writer.queue.depth").tag("db", "_other").gauge().value())
                    .isZero();
        }
        // closed: no database gauge is left in either registry
        assertThat(bounded.find("lanes.writer.queue.depth").gauges()).isEmpty();
        assertThat(everyDatabase.find("lanes.writer.queue.depth").gauges()).isEmpty();
    }

    private static Set<String> dbTags(MeterRegistry registry) {
        Set<String> tags = new TreeSet<>();
        for (Meter m : registry.getMeters()) {
            String db = m.getId().getTag("db");
            if (db != null) {
                tags.add(db);
            }
        }
        return tags;
    }

    /** The samples of a Prometheus scrape: its lines that are not comments. */
    static int series(String scrape) {
        int n = 0;
        for (String line : scrape.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                n++;
            }
        }
        return n;
    }
}
