package dev.lanes.jdbcit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.community.dialect.SQLiteDialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code db.dataSource()} under Hibernate ORM with the community {@code SQLiteDialect},
 * bootstrapped programmatically (no Spring Boot): schema export, identity ids, queries and
 * updates from many threads in transactions.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HibernateTest {
    private static final int THREADS = 16;
    private static final int PER_THREAD = 20;

    @RegisterExtension final LanesFixture fixture = new LanesFixture();

    /**
     * An entity whose id SQLite assigns: {@code INTEGER PRIMARY KEY}, an alias of the rowid. The
     * schema is created by {@link #SCHEMA}, as an application's migrations would: the schema
     * export of SQLiteDialect 7.4.15 writes an IDENTITY column with no type ({@code create table
     * item (…, id, …, primary key (id))}, with plain sqlite-jdbc too, and whatever {@code
     * columnDefinition} says), and an untyped column is no alias of the rowid: every id stays
     * NULL while Hibernate reads the rowid as the id.
     */
    @Entity(name = "Item")
    @Table(name = "item")
    public static class Item {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;
        String name;
        int owner;

        protected Item() {}

        Item(String name, int owner) {
            this.name = name;
            this.owner = owner;
        }
    }

    /** A row every thread reads and updates. */
    @Entity(name = "Tally")
    @Table(name = "tally")
    public static class Tally {
        @Id
        Long id;
        long n;

        protected Tally() {}

        Tally(long id) {
            this.id = id;
        }
    }

    static final String OWN_ITEMS = "select count(i) from Item i where i.owner = :o";
    static final List<String> SCHEMA = List.of(
            "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, owner INTEGER NOT NULL)",
            "CREATE TABLE tally(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");

    private Database open(String name) {
        Database db = fixture.open(name);
        SCHEMA.forEach(db::execute);
        return db;
    }

    private SessionFactory sessionFactory(DataSource ds) {
        return sessionFactory(fixture, ds);
    }

    /** Hibernate on {@code ds} with {@link Item} and {@link Tally}, closed after the test. */
    static SessionFactory sessionFactory(LanesFixture fixture, DataSource ds) {
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, ds)
                .applySetting(AvailableSettings.DIALECT, SQLiteDialect.class.getName())
                .applySetting(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, "none")
                .build();
        try {
            SessionFactory sf = new MetadataSources(registry)
                    .addAnnotatedClass(Item.class)
                    .addAnnotatedClass(Tally.class)
                    .buildMetadata()
                    .buildSessionFactory();
            return fixture.closeAfter(sf);
        } catch (RuntimeException e) {
            StandardServiceRegistryBuilder.destroy(registry);
            throw e;
        }
    }

    @Test
    void sixteenThreadsSaveQueryAndUpdateInTransactionsWithoutBusy() throws Exception {
        Database db = open("orm.db");
        SessionFactory sf = sessionFactory(db.dataSource());
        sf.inTransaction(s -> s.persist(new Tally(1)));
        // Hibernate compiles a query the first time it runs; that took seconds here, inside the
        // first transaction, past transactionIdleTimeout. An application has done it once by the
        // time it is under load.
        sf.inTransaction(s -> s.createSelectionQuery(OWN_ITEMS, Long.class)
                .setParameter("o", -1).getSingleResult());

        List<List<Long>> ids = fixture.onThreads(THREADS, thread -> {
            List<Long> mine = new ArrayList<>();
            for (int i = 0; i < PER_THREAD; i++) {
                int round = i;
                Long id = sf.fromTransaction(s -> {
                    Item item = new Item("t" + thread + "-" + round, thread);
                    s.persist(item);
                    long own = s.createSelectionQuery(OWN_ITEMS, Long.class)
                            .setParameter("o", thread).getSingleResult();
                    assertThat(own).as("the transaction sees its own insert")
                            .isEqualTo(round + 1);
                    Tally tally = s.find(Tally.class, 1L);
                    tally.n++;
                    return item.id;
                });
                mine.add(id);
            }
            return mine;
        });

        Set<Long> all = new HashSet<>();
        ids.forEach(all::addAll);
        assertThat(all).as("every persisted item got its own id").hasSize(THREADS * PER_THREAD);
        assertThat(db.query("SELECT count(*) AS n FROM item").get(0).getLong("n"))
                .isEqualTo(THREADS * PER_THREAD);
        long tally = sf.fromTransaction(s -> s.find(Tally.class, 1L).n);
        assertThat(tally)
                .as("read-then-write through the entity: no update lost")
                .isEqualTo((long) THREADS * PER_THREAD);
        for (List<Long> mine : ids) {
            for (Long id : mine) {
                assertThat(db.query("SELECT owner FROM item WHERE id = ?", id)).hasSize(1);
            }
        }
    }

    @Test
    void identityIdsComeFromTheInsertsOwnTransaction() throws Exception {
        Database db = open("identity.db");
        RecordingDataSource recording = new RecordingDataSource(db.dataSource());
        SessionFactory sf = sessionFactory(recording.dataSource());
        List<Long> ids = sf.fromTransaction(s -> {
            List<Long> in = new ArrayList<>();
            for (String name : List.of("a", "b", "c")) {
                Item item = new Item(name, 0);
                s.persist(item);
                in.add(item.id);
            }
            return in;
        });
        assertThat(ids).containsExactly(1L, 2L, 3L);
        for (int i = 0; i < ids.size(); i++) {
            assertThat(db.query("SELECT name FROM item WHERE id = ?", ids.get(i)).get(0)
                    .getString("name")).isEqualTo(List.of("a", "b", "c").get(i));
        }
        // SQLiteDialect fetches the id with a second statement, select last_insert_rowid(),
        // which must run on the insert's own connection: here, in its pinned transaction
        List<RecordingDataSource.Executed> log = recording.log();
        List<RecordingDataSource.Executed> inserts = log.stream()
                .filter(e -> e.sql().startsWith("insert into item")).toList();
        assertThat(inserts).hasSize(3).allMatch(RecordingDataSource.Executed::inTransaction);
        for (RecordingDataSource.Executed insert : inserts) {
            RecordingDataSource.Executed next = log.get(log.indexOf(insert) + 1);
            assertThat(next.sql()).isEqualTo("select last_insert_rowid()");
            assertThat(next.connection()).isEqualTo(insert.connection());
            assertThat(next.inTransaction()).isTrue();
        }
    }

    @Test
    void aStatelessInsertOutsideATransactionGetsItsOwnId() throws Exception {
        Database db = open("stateless.db");
        SessionFactory sf = sessionFactory(db.dataSource());
        db.execute("INSERT INTO item(id, name, owner) VALUES (41, 'before', 0)");
        // no transaction: each statement is auto-commit, the id comes from the next statement
        List<Long> ids = new ArrayList<>();
        try (StatelessSession s = sf.openStatelessSession()) {
            for (String name : List.of("x", "y")) {
                Item item = new Item(name, 1);
                s.insert(item);
                ids.add(item.id);
            }
        }
        assertThat(ids).containsExactly(42L, 43L);
        assertThat(db.query("SELECT name FROM item WHERE id = 43").get(0).getString("name"))
                .isEqualTo("y");
    }
}
