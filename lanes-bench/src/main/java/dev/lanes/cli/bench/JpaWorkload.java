package dev.lanes.cli.bench;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.hibernate.FlushMode;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.community.dialect.SQLiteDialect;

/**
 * The jdbc scenario's {@value #VARIANT} part: the unit of work a Spring PetClinic-shaped service
 * runs for "add a visit", through Hibernate ORM on a {@link DataSource}, as a
 * {@code @Transactional} method runs it. One transaction ({@code setAutoCommit(false)} ...
 * {@code commit()}, Hibernate's own JDBC transaction): find the pet by id, count its visits with
 * a JPQL query, persist a new visit (an {@code INSERT} with an identity id), commit. The same
 * code runs on {@code db.dataSource()} and on its baseline; the visits table is checked against
 * the acknowledged transactions afterwards.
 *
 * <p>The {@value #MIX_VARIANT} part mixes in the read-only units PetClinic's pages run, as a
 * {@code @Transactional(readOnly = true)} method runs them ({@link #readOnly}): of every four
 * units, at random, one adds a visit (kind {@value #WRITE_KIND}), two find the owners whose last
 * name starts with a given prefix with their pets (a JPQL query with a {@code join fetch}; about
 * {@value #OWNERS_PER_NAME} owners and twice as many pets) and one lists the vets (kind {@value
 * #READ_ONLY_KIND}, both).
 */
final class JpaWorkload {
    static final String VARIANT = "jpa";
    /** The PetClinic-shaped mix of read-only units and "add a visit". */
    static final String MIX_VARIANT = "jpa-mix";
    /** The mix's write units' kind. */
    static final String WRITE_KIND = "write";
    /** The mix's read-only units' kind. */
    static final String READ_ONLY_KIND = "read-only";
    /** Owners share a last name by this many, so a search finds about as many (a page). */
    static final int OWNERS_PER_NAME = 5;
    /** Pets the units pick from at random. */
    static final int PETS = 1_000;
    static final String COUNT_VISITS = "SELECT count(*) FROM visit";

    private static final String VISITS_OF_PET = "select count(v) from Visit v where v.petId = :p";
    /** Pets' owners, as the pets' {@code owner_id} spread them. */
    private static final int OWNERS = 1 + PETS / 2;
    private static final int LAST_NAMES = OWNERS / OWNERS_PER_NAME;
    private static final String OWNERS_BY_LAST_NAME = "select distinct o from Owner o"
            + " left join fetch o.pets where o.lastName like :prefix order by o.id";
    private static final String VETS = "select v from Vet v order by v.lastName";

    /** A pet; only read. */
    @Entity(name = "Pet")
    @Table(name = "pet")
    public static class Pet {
        @Id Long id;
        String name;

        @Column(name = "owner_id")
        long ownerId;

        protected Pet() {}
    }

    /** An owner and its pets; only read. */
    @Entity(name = "Owner")
    @Table(name = "owner")
    public static class Owner {
        @Id Long id;

        @Column(name = "last_name")
        String lastName;

        @OneToMany
        @JoinColumn(name = "owner_id", insertable = false, updatable = false)
        List<Pet> pets = new ArrayList<>();

        protected Owner() {}
    }

    /** A vet; only read. */
    @Entity(name = "Vet")
    @Table(name = "vet")
    public static class Vet {
        @Id Long id;

        @Column(name = "first_name")
        String firstName;

        @Column(name = "last_name")
        String lastName;

        protected Vet() {}
    }

    /** A visit; one inserted per unit, its id assigned by SQLite. */
    @Entity(name = "Visit")
    @Table(name = "visit")
    public static class Visit {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;

        @Column(name = "pet_id")
        long petId;

        String description;

        protected Visit() {}

        Visit(long petId, String description) {
            this.petId = petId;
            this.description = description;
        }
    }

    private JpaWorkload() {}

    /**
     * Creates the tables, as an application's migrations would (the dialect's schema export
     * writes an identity column without a type, which is no alias of the rowid), and the pets.
     */
    static void createSchema(DataSource ds) throws SQLException {
        JdbcScenario.execute(ds, "CREATE TABLE pet(id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                + "owner_id INTEGER NOT NULL)");
        JdbcScenario.execute(ds, "CREATE TABLE visit(id INTEGER PRIMARY KEY, "
                + "pet_id INTEGER NOT NULL REFERENCES pet(id), description TEXT NOT NULL)");
        JdbcScenario.execute(ds, "CREATE INDEX visit_pet ON visit(pet_id)");
        JdbcScenario.execute(ds, "INSERT INTO pet(id, name, owner_id) WITH RECURSIVE n(i) AS "
                + "(SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + PETS + ") "
                + "SELECT i, 'pet ' || i, 1 + i / 2 FROM n");
        // PetClinic's owners table has its last-name index for this search
        JdbcScenario.execute(ds, "CREATE TABLE owner(id INTEGER PRIMARY KEY, "
                + "last_name TEXT NOT NULL COLLATE NOCASE)");
        JdbcScenario.execute(ds, "CREATE INDEX owner_last_name ON owner(last_name)");
        JdbcScenario.execute(ds, "INSERT INTO owner(id, last_name) WITH RECURSIVE n(i) AS "
                + "(SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + OWNERS + ") "
                + "SELECT i, printf('Name%03d', i % " + LAST_NAMES + ") FROM n");
        JdbcScenario.execute(ds, "CREATE TABLE vet(id INTEGER PRIMARY KEY, "
                + "first_name TEXT NOT NULL, last_name TEXT NOT NULL)");
        JdbcScenario.execute(ds, "INSERT INTO vet(id, first_name, last_name) VALUES "
                + "(1, 'James', 'Carter'), (2, 'Helen', 'Leary'), (3, 'Linda', 'Douglas'), "
                + "(4, 'Rafael', 'Ortega'), (5, 'Henry', 'Stevens'), (6, 'Sharon', 'Jenkins')");
    }

    /** Hibernate on {@code ds}, the schema left alone; the caller closes it. */
    static SessionFactory sessionFactory(DataSource ds) {
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, ds)
                .applySetting(AvailableSettings.DIALECT, SQLiteDialect.class.getName())
                .applySetting(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, "none")
                .build();
        try {
            return new MetadataSources(registry)
                    .addAnnotatedClass(Pet.class)
                    .addAnnotatedClass(Visit.class)
                    .addAnnotatedClass(Owner.class)
                    .addAnnotatedClass(Vet.class)
                    .buildMetadata()
                    .buildSessionFactory();
        } catch (RuntimeException e) {
            StandardServiceRegistryBuilder.destroy(registry);
            throw e;
        }
    }

    /**
     * Compiles the unit's query once, outside the measured run, as an application has done by
     * the time it is under load (Hibernate's first compile can take seconds).
     */
    static void prime(SessionFactory sf) {
        sf.inTransaction(s -> {
            s.createSelectionQuery(VISITS_OF_PET, Long.class).setParameter("p", -1L)
                    .getSingleResult();
            s.createSelectionQuery(OWNERS_BY_LAST_NAME, Owner.class).setParameter("prefix", "-")
                    .getResultList();
            s.createSelectionQuery(VETS, Vet.class).getResultList();
        });
    }

    /**
     * One thread's units of work, on pets it picks with {@code random}; each counted in {@code
     * visitsAdded} once its transaction has committed.
     */
    static Operation unit(SessionFactory sf, SplittableRandom random, LongAdder visitsAdded) {
        return () -> {
            addVisit(sf, random);
            visitsAdded.increment();
            return VARIANT;
        };
    }

    /**
     * One thread's units of the {@value #MIX_VARIANT} part: of every four, at random, one adds
     * a visit, two find owners by last name with their pets and one lists the vets. Each visit
     * added is counted in {@code visitsAdded} once its transaction has committed, warm-up
     * included, for the check of the visits table.
     */
    static Operation mixedUnit(SessionFactory sf, SplittableRandom random, LongAdder visitsAdded) {
        return () -> {
            int pick = random.nextInt(4);
            if (pick == 0) {
                addVisit(sf, random);
                visitsAdded.increment();
                return WRITE_KIND;
            }
            if (pick == 3) {
                readOnly(sf, s -> s.createSelectionQuery(VETS, Vet.class).getResultList());
            } else {
                String prefix = String.format(Locale.ROOT, "Name%03d", random.nextInt(LAST_NAMES));
                readOnly(sf, s -> findOwners(s, prefix));
            }
            return READ_ONLY_KIND;
        };
    }

    /** The "add a visit" unit: find the pet, count its visits, persist one, commit. */
    private static void addVisit(SessionFactory sf, SplittableRandom random) {
        long petId = 1 + random.nextInt(PETS);
        sf.inTransaction(s -> {
            Pet pet = s.find(Pet.class, petId);
            if (pet == null) {
                throw new IllegalStateException("pet " + petId + " not found");
            }
            long visits = s.createSelectionQuery(VISITS_OF_PET, Long.class)
                    .setParameter("p", petId).getSingleResult();
            s.persist(new Visit(pet.id, "visit " + (visits + 1) + " of " + pet.name));
        });
    }

    private static void findOwners(Session s, String prefix) {
        List<Owner> owners = s.createSelectionQuery(OWNERS_BY_LAST_NAME, Owner.class)
                .setParameter("prefix", prefix + "%").getResultList();
        if (owners.isEmpty() || owners.get(0).pets.isEmpty()) {
            throw new IllegalStateException("no owner with pets named " + prefix);
        }
    }

    /**
     * Runs {@code work} in a read-only transaction as Spring's {@code @Transactional(readOnly =
     * true)} runs it on Hibernate: the session read-only with manual flushing, and the connection
     * {@code setReadOnly(true)} before the transaction's first statement, which routes it to a
     * reader on {@code db.dataSource()}. A driver that refuses the flag (sqlite-jdbc on an open
     * connection) keeps the transaction read-write, as Spring's {@code DataSourceUtils} does.
     */
    private static void readOnly(SessionFactory sf, Consumer<Session> work) {
        try (Session s = sf.openSession()) {
            s.setDefaultReadOnly(true);
            s.setHibernateFlushMode(FlushMode.MANUAL);
            Transaction tx = s.beginTransaction();
            try {
                s.doWork(JpaWorkload::markReadOnly);
                work.accept(s);
                tx.commit();
            } catch (RuntimeException | Error e) {
                if (tx.isActive()) {
                    try {
                        tx.rollback();
                    } catch (RuntimeException r) {
                        e.addSuppressed(r);
                    }
                }
                throw e;
            }
        }
    }

    private static void markReadOnly(Connection c) {
        try {
            c.setReadOnly(true);
        } catch (SQLException e) {
            // Spring ignores it too: the transaction runs, read-write
        }
    }
}
