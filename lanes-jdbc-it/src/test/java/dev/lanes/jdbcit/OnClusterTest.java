package dev.lanes.jdbcit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.dqlite.testing.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Flyway, Spring JDBC and Hibernate through {@code db.dataSource()} of a database on a real
 * 3-node dqlite cluster ({@link LocalCluster}; skipped, saying why, where libdqlite cannot be
 * had): the same calls as on a local file, with the cluster's read-only transactions (a read
 * session's snapshot) and metadata (a copy of the committed schema).
 */
@Tag("slow")
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OnClusterTest {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 10;
    private static LocalCluster cluster;
    private static Lanes lanes;

    @RegisterExtension final LanesFixture fixture = new LanesFixture();

    @BeforeAll
    static void start() {
        try {
            cluster = LocalCluster.start(3, Path.of("target", "dqlite-it").toAbsolutePath());
        } catch (LocalCluster.Unavailable e) {
            abort("cluster tests of the JDBC libraries skipped: " + e.getMessage());
        }
        lanes = Lanes.builder().name("jdbc-it-cluster").build();
    }

    @AfterAll
    static void stop() {
        if (lanes != null) {
            lanes.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Database open(String name) {
        return lanes.openCluster(cluster.client(), name, DatabaseOptions.builder()
                .busyTimeout(Duration.ofSeconds(10)).build());
    }

    @Test
    void flywayMigratesOnceOnTheCluster() {
        Database db = open("flyway");
        // a cluster database is never empty: the lane's ledger of group ids is a table of it,
        // so Flyway needs a baseline below V1, as on any database that has tables already
        Flyway flyway = Flyway.configure().dataSource(db.dataSource())
                .locations("classpath:db/migration").baselineOnMigrate(true).baselineVersion("0")
                .load();

        MigrateResult first = flyway.migrate();

        assertThat(first.success).isTrue();
        assertThat(first.migrationsExecuted).isEqualTo(3);
        assertThat(flyway.migrate().migrationsExecuted).as("applied once").isZero();
        assertThat(db.query("SELECT owner, balance, currency FROM accounts ORDER BY id").stream()
                .map(r -> r.getString("owner") + " " + r.getLong("balance") + " "
                        + r.getString("currency")).toList())
                .containsExactly("ada 100 EUR", "grace 250 USD", "edsger 75 EUR");
        assertThat(db.query("SELECT version FROM flyway_schema_history WHERE success = 1 AND "
                + "type = 'SQL' ORDER BY installed_rank").stream()
                .map(r -> r.getString("version")).toList()).containsExactly("1", "2", "3");
    }

    @Test
    void springTransactionsReadThenWriteWithoutALostUpdateAndReadOnlyOnesReadASnapshot()
            throws Exception {
        Database db = open("spring");
        db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
        db.execute("INSERT INTO counter(id, n) VALUES (1, 0)");
        JdbcTemplate jdbc = new JdbcTemplate(db.dataSource());
        DataSourceTransactionManager manager = new DataSourceTransactionManager(db.dataSource());
        TransactionTemplate tx = new TransactionTemplate(manager);

        fixture.onThreads(THREADS, thread -> {
            for (int i = 0; i < PER_THREAD; i++) {
                tx.executeWithoutResult(status -> {
                    long n = jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class);
                    jdbc.update("UPDATE counter SET n = ? WHERE id = 1", n + 1);
                });
            }
            return null;
        });
        assertThat(jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class))
                .isEqualTo((long) THREADS * PER_THREAD);

        TransactionTemplate readOnly = new TransactionTemplate(manager);
        readOnly.setReadOnly(true);
        List<Long> seen = readOnly.execute(status -> {
            long before = jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class);
            db.execute("UPDATE counter SET n = n + 1 WHERE id = 1"); // the lane is not held
            long after = jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class);
            return List.of(before, after);
        });
        assertThat(seen).containsExactly((long) THREADS * PER_THREAD, (long) THREADS * PER_THREAD);

        TransactionTemplate nested = new TransactionTemplate(manager);
        nested.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
        tx.executeWithoutResult(outer -> {
            jdbc.update("UPDATE counter SET n = 0 WHERE id = 1");
            nested.executeWithoutResult(inner -> {
                jdbc.update("UPDATE counter SET n = -1 WHERE id = 1");
                inner.setRollbackOnly(); // back to the savepoint
            });
        });
        assertThat(jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class))
                .isZero();
    }

    @Test
    void hibernateSavesQueriesAndUpdatesFromThreadsOnTheCluster() throws Exception {
        Database db = open("hibernate");
        HibernateTest.SCHEMA.forEach(db::execute);
        SessionFactory sf = HibernateTest.sessionFactory(fixture, db.dataSource());
        sf.inTransaction(s -> s.persist(new HibernateTest.Tally(1)));

        List<List<Long>> ids = fixture.onThreads(THREADS / 2, thread -> {
            List<Long> mine = new java.util.ArrayList<>();
            for (int i = 0; i < PER_THREAD; i++) {
                int round = i;
                mine.add(sf.fromTransaction(s -> {
                    HibernateTest.Item item = new HibernateTest.Item("c" + thread + "-" + round,
                            thread);
                    s.persist(item);
                    long own = s.createSelectionQuery(HibernateTest.OWN_ITEMS, Long.class)
                            .setParameter("o", thread).getSingleResult();
                    assertThat(own).isEqualTo(round + 1);
                    s.find(HibernateTest.Tally.class, 1L).n++;
                    return item.id;
                }));
            }
            return mine;
        });

        Set<Long> all = new HashSet<>();
        ids.forEach(all::addAll);
        int expected = THREADS / 2 * PER_THREAD;
        assertThat(all).as("every item got its own id").hasSize(expected);
        assertThat(db.query("SELECT count(*) AS n FROM item").get(0).getLong("n"))
                .isEqualTo(expected);
        long tally = sf.fromTransaction(s -> s.find(HibernateTest.Tally.class, 1L).n);
        assertThat(tally).as("no update lost").isEqualTo(expected);
    }
}
