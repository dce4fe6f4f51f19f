package dev.lanes.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.spring.TenantDatabases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** The example application over real HTTP on a random port, on files of its own. */
@Tag("slow")
@Timeout(300)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ExampleApplicationTest {
    static final Path DATA = temp();

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        registry.add("lanes.datasource.path", () -> DATA.resolve("app.db").toString());
        registry.add("lanes.tenants.directory", () -> DATA.resolve("tenants").toString());
    }

    static Path temp() {
        try {
            return Files.createTempDirectory("lanes-example-app");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Database db;

    @Autowired
    TenantDatabases tenants;

    @Test
    void thirtyTwoClientsIncrementingInTransactionsLoseNothing() throws Exception {
        Http http = new Http(port);
        long busyBefore = db.diagnostics().writer().counters().busyRefusals();
        long failedBefore = db.diagnostics().writer().counters().failed();
        int clients = 32;
        int each = 20;
        CyclicBarrier start = new CyclicBarrier(clients);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        statuses.add(http.post("/counters/hits/increment", null).status());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(240, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(statuses).hasSize(clients * each).allMatch(s -> s >= 200 && s < 300);
        Http.Answer counter = http.get("/counters/hits");
        assertThat(counter.status()).isEqualTo(200);
        assertThat(counter.json().get("value").asLong()).isEqualTo(clients * each);
        // the transactions held the writer lane: no busy refusal, no failed write
        assertThat(db.diagnostics().writer().counters().busyRefusals()).isEqualTo(busyBefore);
        assertThat(db.diagnostics().writer().counters().failed()).isEqualTo(failedBefore);
    }

    @Test
    void itemsOverJdbcClient() throws Exception {
        Http http = new Http(port);
        Http.Answer created = http.post("/items", "{\"name\":\"pear\",\"quantity\":3}");
        assertThat(created.status()).isEqualTo(201);
        long id = created.json().get("id").asLong();
        assertThat(http.get("/items/" + id).json().get("name").asString()).isEqualTo("pear");
        assertThat(http.post("/items", "{\"name\":\"plum\",\"quantity\":-1}").status())
                .as("the CHECK constraint refuses it").isEqualTo(500);
        assertThat(http.post("/items", "{\"quantity\":1}").status()).isEqualTo(400);
        assertThat(http.get("/items/999999").status()).isEqualTo(404);
    }

    @Test
    void twoHundredTenantsEachSeeOnlyTheirOwnNotes() throws Exception {
        Http http = new Http(port);
        int count = 200;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < count; t++) {
                String tenant = "tenant-" + t;
                done.add(pool.submit(() -> {
                    for (int n = 0; n < 2; n++) {
                        Http.Answer added = http.post("/tenants/" + tenant + "/notes",
                                "{\"text\":\"" + tenant + " note " + n + "\"}");
                        assertThat(added.status()).as(added.body()).isEqualTo(201);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(240, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int t = 0; t < count; t++) {
            String tenant = "tenant-" + t;
            Http.Answer notes = http.get("/tenants/" + tenant + "/notes");
            assertThat(notes.status()).isEqualTo(200);
            List<String> texts = new ArrayList<>();
            notes.json().forEach(note -> texts.add(note.get("text").asString()));
            assertThat(texts).containsExactly(tenant + " note 0", tenant + " note 1");
        }
        assertThat(tenants.list()).hasSizeGreaterThanOrEqualTo(count);
        assertThat(Files.isRegularFile(DATA.resolve("tenants/tenant-199.db"))).isTrue();
        // a tenant id that is not a safe file name: 400, and no file
        Http.Answer bad = http.post("/tenants/Not_Lower/notes", "{\"text\":\"x\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("detail").asString()).contains("is not valid");
        assertThat(Files.exists(DATA.resolve("tenants/Not_Lower.db"))).isFalse();
    }

    @Test
    void healthShowsLanesUpWithCounts() throws Exception {
        Http.Answer health = new Http(port).get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        JsonNode lanes = health.json().get("components").get("lanes");
        assertThat(lanes.get("status").asString()).isEqualTo("UP");
        assertThat(lanes.get("details").get("databases").asInt()).isEqualTo(1);
        assertThat(lanes.get("details").get("runtime").get("maxThreads").asInt()).isPositive();
    }

    @Test
    void theLanesEndpointServesTheRuntimeFiguresAndOneDatabase() throws Exception {
        Http http = new Http(port);
        http.post("/tenants/endpoint-check/notes", "{\"text\":\"x\"}");
        Http.Answer lanes = http.get("/actuator/lanes");
        assertThat(lanes.status()).isEqualTo(200);
        JsonNode runtime = lanes.json().get("runtime");
        assertThat(runtime.get("maxThreads").asInt()).isPositive();
        assertThat(runtime.get("openDatabases").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(runtime.has("openConnections")).isTrue();
        assertThat(lanes.json().get("byQueueDepth").isArray()).isTrue();
        assertThat(lanes.json().get("byWalBytes").size()).isBetween(2, 20);

        Http.Answer primary = http.get("/actuator/lanes/primary");
        assertThat(primary.status()).isEqualTo(200);
        assertThat(primary.json().get("state").asString()).isEqualTo("RUNNING");
        assertThat(primary.json().get("path").asString()).endsWith("app.db");
        Http.Answer tenant = http.get("/actuator/lanes/tenants/endpoint-check");
        assertThat(tenant.status()).isEqualTo(200);
        assertThat(tenant.json().get("kind").asString()).isEqualTo("tenant");
        assertThat(http.get("/actuator/lanes/nothing-here").status()).isEqualTo(404);
    }

    @Test
    void theCommandMeterIsPublished() throws Exception {
        Http http = new Http(port);
        http.post("/counters/metered/increment", null);
        Http.Answer meter = http.get("/actuator/metrics/lanes.command.duration");
        assertThat(meter.status()).isEqualTo(200);
        assertThat(meter.json().get("name").asString()).isEqualTo("lanes.command.duration");
        List<String> dbs = new ArrayList<>();
        meter.json().get("availableTags").forEach(tag -> {
            if (tag.get("tag").asString().equals("db")) {
                tag.get("values").forEach(v -> dbs.add(v.asString()));
            }
        });
        // the primary by name; tenants fold into one series
        assertThat(dbs).contains("app.db").allMatch(db -> db.equals("app.db")
                || db.equals("_other"));
    }

    @Test
    void flywayMigratedThePrimaryDatabaseAtStartUp() {
        assertThat(jdbc.sql("SELECT version FROM flyway_schema_history WHERE success = 1 "
                + "AND version = '1'").query(String.class).list()).containsExactly("1");
        assertThat(jdbc.sql("SELECT count(*) FROM sqlite_master WHERE name IN ('item', "
                + "'counter')").query(Integer.class).single()).isEqualTo(2);
    }
}
