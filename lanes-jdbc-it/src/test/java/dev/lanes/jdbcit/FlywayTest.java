package dev.lanes.jdbcit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Row;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Flyway (its SQLite support is in {@code flyway-core}) migrating through {@code
 * db.dataSource()} while other threads keep writing through the same data source: each
 * migration is one pinned transaction, the writers' statements queue behind it and commit.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FlywayTest {
    private static final int WRITERS = 4;

    @RegisterExtension final LanesFixture fixture = new LanesFixture();

    private static Flyway flyway(Database db) {
        return Flyway.configure()
                .dataSource(db.dataSource())
                .locations("classpath:db/migration")
                .load();
    }

    /** Flyway on a database that has tables already: a baseline at version 0, below V1. */
    private static Flyway baselined(Database db) {
        return Flyway.configure()
                .dataSource(db.dataSource())
                .locations("classpath:db/migration")
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load();
    }

    @Test
    void migratesOnceWhileOtherThreadsWriteAndLosesNoneOfTheirWrites() throws Exception {
        Database db = fixture.open("migrated.db");
        db.execute("CREATE TABLE events(id INTEGER PRIMARY KEY, writer INTEGER, seq INTEGER)");
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        fixture.closeAfter(pool::shutdownNow);
        AtomicBoolean migrated = new AtomicBoolean();
        CountDownLatch writing = new CountDownLatch(WRITERS);
        CompletableFuture<?>[] writers = new CompletableFuture<?>[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writers[w] = CompletableFuture.supplyAsync(() -> write(db, writer, writing, migrated),
                    pool);
        }
        assertThat(writing.await(LanesFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        MigrateResult first = baselined(db).migrate();
        migrated.set(true);
        long acknowledged = 0;
        for (CompletableFuture<?> f : writers) {
            acknowledged += (Long) f.get(LanesFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }

        assertThat(first.success).isTrue();
        assertThat(first.migrationsExecuted).isEqualTo(3);
        assertThat(baselined(db).migrate().migrationsExecuted).as("applied once").isZero();
        List<Row> history = db.query("SELECT version, success, type FROM flyway_schema_history"
                + " ORDER BY installed_rank");
        assertThat(history).extracting(r -> r.getString("version") + ":" + r.getString("type"))
                .containsExactly("0:BASELINE", "1:SQL", "2:SQL", "3:SQL");
        assertThat(history).allMatch(r -> r.getLong("success") == 1);
        assertThat(db.query("SELECT owner, currency FROM accounts ORDER BY id"))
                .extracting(r -> r.getString("owner") + ":" + r.getString("currency"))
                .containsExactly("ada:EUR", "grace:USD", "edsger:EUR");
        assertThat(db.query("SELECT count(*) AS n FROM events").get(0).getLong("n"))
                .as("every acknowledged concurrent write committed").isEqualTo(acknowledged);
        assertThat(acknowledged).isGreaterThanOrEqualTo(WRITERS);
        assertThat(db.isTransactionOpen()).isFalse();
    }

    /**
     * A Lanes database is never empty to Flyway: the first open installs {@code
     * _lanes_identity}, and Flyway's SQLite support counts every table of {@code sqlite_master}
     * (but {@code sqlite_sequence} and {@code android_metadata}) before it creates its history.
     * Either a baseline below the first migration, or a database without the identity table.
     */
    @Test
    void aFreshDatabaseMigratesWithABaselineOrWithoutTheIdentityTable() {
        Database guarded = fixture.open("guarded.db");
        assertThat(catchThrowable(() -> flyway(guarded).migrate()))
                .isInstanceOf(FlywayException.class)
                .hasMessageContaining("non-empty schema");
        assertThat(Flyway.configure().dataSource(guarded.dataSource())
                .locations("classpath:db/migration").baselineOnMigrate(true)
                .baselineVersion("0").load().migrate().migrationsExecuted).isEqualTo(3);

        Database unguarded = fixture.open("unguarded.db",
                DatabaseOptions.builder().identityCheck(false).build());
        assertThat(flyway(unguarded).migrate().migrationsExecuted).isEqualTo(3);
        assertThat(unguarded.query("SELECT version FROM flyway_schema_history"
                + " ORDER BY installed_rank")).extracting(r -> r.getString("version"))
                .containsExactly("1", "2", "3");
    }

    /** Inserts through the data source until the migration is done; returns how many. */
    private static long write(Database db, int writer, CountDownLatch writing,
            AtomicBoolean migrated) {
        long done = 0;
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO events(writer, seq) VALUES (?, ?)")) {
            do {
                insert.setInt(1, writer);
                insert.setLong(2, done);
                insert.executeUpdate();
                if (done++ == 0) {
                    writing.countDown();
                }
            } while (!migrated.get());
        } catch (Exception e) {
            throw new IllegalStateException("writer " + writer + " failed after " + done, e);
        }
        return done;
    }
}
