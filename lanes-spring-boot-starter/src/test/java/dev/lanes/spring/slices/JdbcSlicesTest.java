package dev.lanes.spring.slices;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import java.nio.file.Path;
import java.sql.Connection;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase.Replace;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.test.context.ActiveProfiles;

/**
 * Boot's JDBC test slices load the starter: with H2 on the class path (as here, and in most
 * applications), {@code @JdbcTest}, {@code @DataJpaTest} and {@code @DataJdbcTest} run on a Lanes
 * database, by default and with {@code replace = NONE}; a test that asks for Boot's embedded
 * database ({@code replace = ANY} or {@code AUTO_CONFIGURED}) gets it.
 */
@Tag("slow")
@Timeout(180)
class JdbcSlicesTest {
    static final Path CONFIGURED = Path.of("target/slices/app.db");

    @Test
    void jdbcTestRunsOnLanes() throws Exception {
        try (var loaded = TestContexts.load(Jdbc.class)) {
            Database db = onLanes(loaded);
            JdbcClient jdbc = loaded.test().jdbc;
            jdbc.sql("INSERT INTO pet(name) VALUES (?)").param("rex").update();
            assertThat(jdbc.sql("SELECT name FROM pet").query(String.class).list())
                    .containsExactly("rex");
            assertThat(db.query("SELECT count(*) AS n FROM pet").get(0).getLong("n")).isOne();
        }
    }

    @Test
    void dataJpaTestRunsOnLanesWithTheDetectedSqliteDialect() throws Exception {
        try (var loaded = TestContexts.load(Jpa.class)) {
            onLanes(loaded);
            PetRepository pets = loaded.test().pets;
            Pet saved = pets.saveAndFlush(new Pet("tom"));
            pets.saveAndFlush(new Pet("tom"));
            assertThat(saved.getId()).isNotNull();
            assertThat(pets.findByNameOrderById("tom")).hasSize(2).first()
                    .extracting(Pet::getId).isEqualTo(saved.getId());
            assertThat(loaded.context().getEnvironment()
                    .getProperty("spring.jpa.database-platform")).isNull();
        }
    }

    @Test
    void dataJdbcTestRunsOnLanesWithTheSqliteDialect() throws Exception {
        try (var loaded = TestContexts.load(DataJdbc.class)) {
            onLanes(loaded);
            LabelRepository labels = loaded.test().labels;
            Label saved = labels.save(new Label(null, "indoor"));
            assertThat(saved.id()).isNotNull();
            assertThat(labels.findById(saved.id())).contains(saved);
        }
    }

    @Test
    void replaceNoneKeepsLanesAsInSpringPetClinic() throws Exception {
        try (var loaded = TestContexts.load(JpaReplaceNone.class)) {
            onLanes(loaded);
            assertThat(loaded.test().pets.count()).isZero();
        }
    }

    @Test
    void replaceAnyOrAutoConfiguredGivesBootsEmbeddedDatabaseAsAsked() throws Exception {
        for (Class<?> test : new Class<?>[] {JdbcReplaceAny.class, JdbcReplaceAutoConfigured.class}) {
            try (var loaded = TestContexts.load(test)) {
                DataSource dataSource = loaded.context().getBean(DataSource.class);
                assertThat(dataSource).as(test.getSimpleName())
                        .isInstanceOf(EmbeddedDatabase.class);
                assertThat(dataSource.isWrapperFor(Database.class)).isFalse();
                try (Connection c = dataSource.getConnection()) {
                    assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("H2");
                }
            }
        }
    }

    /** The context's data source is a Lanes database of its own, not the configured file. */
    static Database onLanes(TestContexts<?> loaded) throws Exception {
        Database db = loaded.lanes();
        assertThat(db.query("SELECT sqlite_version() AS v").get(0).getString("v"))
                .matches("3\\.\\d+\\.\\d+");
        assertThat(db.path()).isNotEqualTo(CONFIGURED.toAbsolutePath());
        assertThat(db.path().getParent().getFileName()).hasToString("datasource");
        assertThat(db.path().getFileName()).hasToString("app.db");
        assertThat(CONFIGURED).doesNotExist();
        return db;
    }

    @JdbcTest
    @ActiveProfiles("slices")
    static class Jdbc {
        @Autowired
        JdbcClient jdbc;
    }

    @DataJpaTest
    @ActiveProfiles("slices")
    static class Jpa {
        @Autowired
        PetRepository pets;
    }

    @DataJpaTest
    @AutoConfigureTestDatabase(replace = Replace.NONE)
    @ActiveProfiles("slices")
    static class JpaReplaceNone {
        @Autowired
        PetRepository pets;
    }

    @DataJdbcTest
    @ActiveProfiles("slices")
    static class DataJdbc {
        @Autowired
        LabelRepository labels;
    }

    @JdbcTest
    @AutoConfigureTestDatabase(replace = Replace.ANY)
    @ActiveProfiles("slices")
    static class JdbcReplaceAny {}

    @JdbcTest
    @AutoConfigureTestDatabase(replace = Replace.AUTO_CONFIGURED)
    @ActiveProfiles("slices")
    static class JdbcReplaceAutoConfigured {}
}
