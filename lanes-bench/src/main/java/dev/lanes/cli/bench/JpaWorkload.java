package dev.lanes.cli.bench;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.sql.SQLException;
import java.util.SplittableRandom;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
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
 */
final class JpaWorkload {
    static final String VARIANT = "jpa";
    /** Pets the units pick from at random. */
    static final int PETS = 1_000;
    static final String COUNT_VISITS = "SELECT count(*) FROM visit";

    private static final String VISITS_OF_PET = "select count(v) from Visit v where v.petId = :p";

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
        sf.inTransaction(s -> s.createSelectionQuery(VISITS_OF_PET, Long.class)
                .setParameter("p", -1L).getSingleResult());
    }

    /** One thread's units of work, on pets it picks with {@code random}. */
    static Operation unit(SessionFactory sf, SplittableRandom random) {
        return () -> {
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
            return VARIANT;
        };
    }
}
