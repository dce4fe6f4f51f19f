package dev.lanes.spring.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Boot's Flyway, JPA (Hibernate with the community SQLite dialect) and Spring Data JDBC on the
 * primary Lanes database, unchanged: whole applications started with {@link SpringApplication}.
 */
@Tag("slow")
@Timeout(300)
class PersistenceTest {
    @TempDir
    Path dir;

    private ConfigurableApplicationContext start(Class<?> app, String... extra) {
        SpringApplication application = new SpringApplication(app);
        String[] args = new String[extra.length + 2];
        args[0] = "--lanes.datasource.path=" + dir.resolve("app.db");
        args[1] = "--spring.main.banner-mode=off";
        System.arraycopy(extra, 0, args, 2, extra.length);
        return application.run(args);
    }

    @Test
    void flywayMigratesOnceAtStartUpThroughTheWriterLane() {
        long writesAtStart;
        try (ConfigurableApplicationContext context = start(JdbcApp.class)) {
            Database db = context.getBean(Database.class);
            JdbcClient jdbc = context.getBean(JdbcClient.class);
            assertThat(jdbc.sql("SELECT name FROM item").query(String.class).list())
                    .containsExactly("seeded by flyway");
            assertThat(jdbc.sql("SELECT version FROM flyway_schema_history WHERE success = 1 "
                    + "AND version <> '0' ORDER BY installed_rank").query(String.class).list())
                    .containsExactly("1", "2");
            // every write of the migration went through the lane
            writesAtStart = db.diagnostics().writer().counters().committed();
            assertThat(writesAtStart).isPositive();
        }
        // a restart finds the schema up to date and runs nothing again
        try (ConfigurableApplicationContext context = start(JdbcApp.class)) {
            JdbcClient jdbc = context.getBean(JdbcClient.class);
            assertThat(jdbc.sql("SELECT count(*) FROM item").query(Integer.class).single())
                    .isEqualTo(1);
            assertThat(jdbc.sql("SELECT count(*) FROM flyway_schema_history")
                    .query(Integer.class).single()).isEqualTo(3);
        }
    }

    @Test
    void jpaRepositoriesAndTransactionsRunOnTheLanes() {
        try (ConfigurableApplicationContext context = start(JpaApp.class,
                "--spring.jpa.database-platform=org.hibernate.community.dialect.SQLiteDialect",
                "--spring.jpa.hibernate.ddl-auto=none", "--spring.jpa.open-in-view=false")) {
            ItemRepository items = context.getBean(ItemRepository.class);
            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
            tx.executeWithoutResult(status -> {
                items.save(new Item("apple"));
                items.save(new Item("apple"));
                items.save(new Item("pear"));
            });
            assertThat(items.findByNameOrderById("apple")).hasSize(2);
            // a rolled-back transaction leaves nothing
            tx.executeWithoutResult(status -> {
                items.save(new Item("plum"));
                status.setRollbackOnly();
            });
            assertThat(items.count()).isEqualTo(4); // three saved and Flyway's seed
            Database db = context.getBean(Database.class);
            assertThat(db.query("SELECT count(*) AS n FROM item WHERE name = 'plum'").get(0)
                    .getLong("n")).isZero();
        }
    }

    @Test
    void springDataJdbcRepositoriesRunOnTheLanesWithTheSqliteDialect() {
        try (ConfigurableApplicationContext context = start(DataJdbcApp.class)) {
            NoteRepository notes = context.getBean(NoteRepository.class);
            Note saved = notes.save(new Note(null, "first"));
            assertThat(saved.id()).isNotNull();
            notes.saveAll(List.of(new Note(null, "fine"), new Note(null, "other")));
            assertThat(notes.findById(saved.id())).contains(saved);
            assertThat(notes.findByTextStartingWith("f", PageRequest.of(0, 1, Sort.by("id"))))
                    .extracting(Note::text).containsExactly("first");
            assertThat(notes.findAll(PageRequest.of(1, 2, Sort.by("id"))))
                    .extracting(Note::text).containsExactly("other");
            notes.deleteById(saved.id());
            assertThat(notes.count()).isEqualTo(2);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = {HibernateJpaAutoConfiguration.class,
            DataJpaRepositoriesAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class})
    static class JdbcApp {}

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = DataJdbcRepositoriesAutoConfiguration.class)
    @EnableJpaRepositories(basePackageClasses = ItemRepository.class,
            includeFilters = @org.springframework.context.annotation.ComponentScan.Filter(
                    type = org.springframework.context.annotation.FilterType.ASSIGNABLE_TYPE,
                    classes = ItemRepository.class))
    @org.springframework.boot.persistence.autoconfigure.EntityScan(basePackageClasses = Item.class)
    static class JpaApp {}

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = {HibernateJpaAutoConfiguration.class,
            DataJpaRepositoriesAutoConfiguration.class})
    @EnableJdbcRepositories(basePackageClasses = NoteRepository.class,
            includeFilters = @org.springframework.context.annotation.ComponentScan.Filter(
                    type = org.springframework.context.annotation.FilterType.ASSIGNABLE_TYPE,
                    classes = NoteRepository.class))
    static class DataJdbcApp {}
}
