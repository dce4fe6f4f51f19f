package com.example.counter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import jakarta.persistence.EntityManagerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.hibernate.community.dialect.SQLiteDialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.client.RestClient;
import org.sqlite.SQLiteJDBCLoader;

@Timeout(180)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CounterApplicationTests {
    @LocalServerPort
    int port;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    BookRepository books;

    @Autowired
    EntityManagerFactory entityManagerFactory;

    private RestClient http() {
        return RestClient.create("http://localhost:" + port);
    }

    @Test
    void itRunsOnLanesWithTheDriverBootManages() throws Exception {
        Database db = dataSource.unwrap(Database.class);
        assertThat(db.path()).exists();
        assertThat(SQLiteJDBCLoader.getVersion())
                .isEqualTo(System.getProperty("expected.sqlite-jdbc.version"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthShowsLanesUp() {
        Map<String, Object> health = http().get().uri("/actuator/health").retrieve()
                .body(Map.class);
        Map<String, Object> lanes = (Map<String, Object>) ((Map<String, Object>) health
                .get("components")).get("lanes");
        assertThat(lanes).containsEntry("status", "UP");
    }

    @Test
    void flywayMigratedTheDatabase() {
        assertThat(jdbc.sql("SELECT version FROM flyway_schema_history WHERE success = 1 "
                + "AND version <> '0'").query(String.class).list()).containsExactly("1");
    }

    @Test
    void jpaWithHibernatesSqliteDialectSavesAndReads() {
        assertThat(entityManagerFactory.unwrap(SessionFactoryImplementor.class).getJdbcServices()
                .getDialect()).isInstanceOf(SQLiteDialect.class);
        Book saved = books.save(new Book("Lanes on Boot"));
        assertThat(saved.getId()).isNotNull();
        assertThat(books.findById(saved.getId())).get().extracting(Book::getTitle)
                .isEqualTo("Lanes on Boot");
        assertThat(books.findByTitleContaining("on Boot")).extracting(Book::getId)
                .contains(saved.getId());
    }

    /**
     * 32 clients start together; each inserts entries and increments one counter through HTTP.
     * Every acknowledged insert is there, and the counter equals the acknowledged increments.
     */
    @Test
    void concurrentClientsLoseNoAcknowledgedWriteAndNoUpdate() throws Exception {
        int clients = 32;
        int each = 10;
        long before = jdbc.sql("SELECT value FROM counter WHERE name = 'hits'")
                .query(Long.class).single();
        CyclicBarrier start = new CyclicBarrier(clients);
        ConcurrentLinkedQueue<int[]> inserted = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> incremented = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) {
                int client = c;
                done.add(pool.submit(() -> {
                    RestClient http = http();
                    start.await(60, TimeUnit.SECONDS);
                    for (int seq = 0; seq < each; seq++) {
                        try {
                            http.post().uri("/entries?client={c}&seq={s}", client, seq)
                                    .retrieve().toBodilessEntity();
                            inserted.add(new int[] {client, seq});
                        } catch (RuntimeException e) {
                            failures.add("insert " + client + "/" + seq + ": " + e);
                        }
                        try {
                            incremented.add(http.post().uri("/counters/hits/increment")
                                    .retrieve().body(Long.class));
                        } catch (RuntimeException e) {
                            failures.add("increment by " + client + ": " + e);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(failures).as("requests that failed").isEmpty();
        assertThat(inserted).hasSize(clients * each);
        for (int[] entry : inserted) {
            assertThat(jdbc.sql("SELECT count(*) FROM entry WHERE client = ? AND seq = ?")
                    .params(entry[0], entry[1]).query(Integer.class).single())
                    .as("entry %d/%d", entry[0], entry[1]).isOne();
        }
        assertThat(jdbc.sql("SELECT count(*) FROM entry").query(Integer.class).single())
                .isEqualTo(inserted.size());
        long after = jdbc.sql("SELECT value FROM counter WHERE name = 'hits'")
                .query(Long.class).single();
        assertThat(after - before).as("no lost update").isEqualTo(incremented.size());
        // each increment saw a value of its own
        assertThat(incremented).doesNotHaveDuplicates();
    }
}
