package dev.lanes.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import dev.lanes.IdentityMismatchException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A second application context, whose primary database file is swapped underneath it (as a
 * restore under a running application would): {@code lanes} health goes from UP to DOWN.
 */
@Tag("slow")
@Timeout(300)
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HealthDownTest {
    static final Path DATA = ExampleApplicationTest.temp();

    @DynamicPropertySource
    static void files(DynamicPropertyRegistry registry) {
        registry.add("lanes.datasource.path", () -> DATA.resolve("app.db").toString());
        registry.add("lanes.tenants.directory", () -> DATA.resolve("tenants").toString());
    }

    @LocalServerPort
    int port;

    @Autowired
    Database db;

    @Test
    void healthGoesDownWhenThePrimaryDatabaseFileIsSwappedUnderneath() throws Exception {
        Http http = new Http(port);
        assertThat(http.post("/counters/before/increment", null).ok()).isTrue();
        Http.Answer up = http.get("/actuator/health");
        assertThat(up.status()).isEqualTo(200);
        assertThat(up.json().get("components").get("lanes").get("status").asString())
                .isEqualTo("UP");

        // another database moved over the file; the next connection (a backup's) finds it
        Path impostor = DATA.resolve("impostor.db");
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + impostor);
                Statement s = raw.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("CREATE TABLE counter(name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
        }
        db.maintenance(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            }
            return null;
        });
        Files.move(impostor, db.path(), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        assertThatThrownBy(() -> db.backup(DATA.resolve("copy.db")))
                .isInstanceOf(IdentityMismatchException.class);

        Http.Answer down = http.get("/actuator/health");
        assertThat(down.status()).isEqualTo(503);
        JsonNode lanes = down.json().get("components").get("lanes");
        assertThat(lanes.get("status").asString()).isEqualTo("DOWN");
        JsonNode unhealthy = lanes.get("details").get("unhealthy").get(0);
        assertThat(unhealthy.get("name").asString()).isEqualTo("primary");
        assertThat(unhealthy.get("state").asString()).isEqualTo("DEAD");
        // requests fail, and say so, instead of writing into the other file
        assertThat(http.post("/counters/after/increment", null).status()).isEqualTo(500);
    }
}
