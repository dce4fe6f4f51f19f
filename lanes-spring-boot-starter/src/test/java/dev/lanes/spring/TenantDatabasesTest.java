package dev.lanes.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.DefaultResourceLoader;

@Timeout(120)
class TenantDatabasesTest {
    @TempDir
    Path root;

    private final Lanes lanes = Lanes.builder().maxThreads(8).build();

    @AfterEach
    void close() {
        lanes.close();
    }

    private Path tenantsDir() {
        return root.resolve("tenants");
    }

    @Test
    void concurrentFirstGetsOfOneTenantOpenAndMigrateItOnce() throws Exception {
        AtomicInteger migrations = new AtomicInteger();
        CountDownLatch everyoneAsked = new CountDownLatch(1);
        TenantDatabases tenants = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), (tenant, db) -> {
                    migrations.incrementAndGet();
                    try {
                        // hold the first open while the other callers pile up behind it
                        everyoneAsked.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT)");
                });
        int threads = 32;
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Database>> got = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                got.add(pool.submit(() -> {
                    start.await();
                    return tenants.get("acme");
                }));
            }
            start.await();
            everyoneAsked.countDown();
            Set<Database> distinct = new HashSet<>();
            for (Future<Database> f : got) {
                distinct.add(f.get(60, TimeUnit.SECONDS));
            }
            assertThat(distinct).hasSize(1);
            assertThat(migrations).hasValue(1);
            Database acme = distinct.iterator().next();
            assertThat(acme.path()).isEqualTo(tenantsDir().toRealPath().resolve("acme.db"));
            assertThat(acme.query("SELECT count(*) AS n FROM note").get(0).getLong("n")).isZero();
        } finally {
            pool.shutdownNow();
        }
        // later gets take the open database and migrate nothing
        tenants.get("acme");
        assertThat(migrations).hasValue(1);
        assertThat(tenants.openCount()).isEqualTo(1);
    }

    @Test
    void sqlResourceMigrationsRunOnceAtFirstOpenAndOnlyTheNewOnesLater() throws Exception {
        DefaultResourceLoader resources = new DefaultResourceLoader();
        TenantMigrator v1 = TenantMigrations.from(List.of("classpath:tenant/V1.sql"), resources);
        TenantDatabases first = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), v1);
        Database acme = first.get("acme");
        acme.execute("INSERT INTO note(text) VALUES ('hello')");
        assertThat(acme.query("SELECT version FROM migration_log")).hasSize(1);
        acme.close();

        // a new release adds V2: the reopened tenant gets only V2, its rows stay
        TenantMigrator v2 = TenantMigrations.from(
                List.of("classpath:tenant/V1.sql", "classpath:tenant/V2.sql"), resources);
        TenantDatabases second = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), v2);
        Database again = second.get("acme");
        assertThat(again.query("SELECT version FROM migration_log ORDER BY version"))
                .extracting(r -> r.getLong("version")).containsExactly(1L, 2L);
        assertThat(again.query("SELECT text, created_at FROM note")).hasSize(1);
        assertThat(again.query("PRAGMA user_version").get(0).getLong(0)).isEqualTo(2);
    }

    @Test
    void aFailedMigrationFailsTheGetClosesTheDatabaseAndTheNextGetTriesAgain() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        TenantDatabases tenants = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), (tenant, db) -> {
                    if (attempts.incrementAndGet() == 1) {
                        throw new TenantMigrationException(tenant,
                                new IllegalStateException("disk on fire"));
                    }
                });
        assertThatThrownBy(() -> tenants.get("acme"))
                .isInstanceOf(TenantMigrationException.class)
                .hasMessageContaining("tenant 'acme'").hasMessageContaining("disk on fire");
        assertThat(tenants.find("acme")).isEmpty();
        Database acme = tenants.get("acme");
        assertThat(acme.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(attempts).hasValue(2);
    }

    @Test
    void aFailingSqlMigrationPersistsNothingOfItself() throws Exception {
        Path bad = root.resolve("bad.sql");
        Files.writeString(bad, "CREATE TABLE half(v INTEGER); INSERT INTO nowhere VALUES (1);");
        TenantMigrator migrator = TenantMigrations.from(List.of("file:" + bad),
                new DefaultResourceLoader());
        TenantDatabases tenants = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), migrator);
        assertThatThrownBy(() -> tenants.get("acme"))
                .isInstanceOf(TenantMigrationException.class)
                .hasMessageContaining("nowhere");
        TenantDatabases plain = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), null);
        assertThat(plain.get("acme").query("SELECT name FROM sqlite_master WHERE name = 'half'"))
                .isEmpty();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"../escape", "a/b", "a\\b", "..", ".hidden", "-dash", "_under",
            "Acme", "acme.db", "a b", "acme\u0000", "ümlaut", "tenant:1"})
    void aBadTenantIdIsRefusedBeforeAnyFileIsTouched(String id) throws Exception {
        TenantDatabases tenants = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), null);
        assertThatThrownBy(() -> tenants.get(id))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not valid: a tenant id is 1 to 64 characters");
        assertThatThrownBy(() -> tenants.pathOf(id)).isInstanceOf(IllegalArgumentException.class);
        try (Stream<Path> files = Files.list(root)) {
            assertThat(files).containsExactly(tenantsDir());
        }
        try (Stream<Path> files = Files.list(tenantsDir())) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void idsAreBoundedInLength() {
        TenantDatabases.checkId("a".repeat(TenantDatabases.MAX_ID_LENGTH));
        String tooLong = "a".repeat(TenantDatabases.MAX_ID_LENGTH + 1);
        assertThat(TenantDatabases.isValidId(tooLong)).isFalse();
        assertThatThrownBy(() -> TenantDatabases.checkId("x".repeat(10_000)))
                .isInstanceOf(IllegalArgumentException.class)
                // the message shows a bounded prefix of what it was given
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(300));
    }

    @Test
    void listShowsTheTenantsOnDiskAndMigrateAllOpensThemWithProgress() throws Exception {
        TenantDatabases tenants = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), TenantMigrations.from(
                        List.of("classpath:tenant/V1.sql"), new DefaultResourceLoader()));
        tenants.get("b-open");
        // tenants created by an earlier release, never opened by this one
        for (String id : List.of("a-cold", "c-cold")) {
            Files.createFile(tenantsDir().resolve(id + ".db"));
        }
        // not SQLite: its open fails, and migrateAll goes on
        Files.writeString(tenantsDir().resolve("d-broken.db"), "this is not a database file, "
                + "it is a text that is long enough to fill an SQLite header and then some more");
        // not tenants
        Files.writeString(tenantsDir().resolve("notes.txt"), "x");
        Files.createFile(tenantsDir().resolve("Upper.db"));
        Files.createFile(tenantsDir().resolve("a-cold.db-wal"));
        Files.createDirectories(tenantsDir().resolve("dir.db"));

        assertThat(tenants.list()).containsExactly("a-cold", "b-open", "c-cold", "d-broken");
        assertThat(tenants.exists("a-cold")).isTrue();
        assertThat(tenants.exists("z")).isFalse();

        List<TenantDatabases.TenantMigration> progress = new ArrayList<>();
        TenantDatabases.MigrationReport report = tenants.migrateAll(progress::add);
        assertThat(progress).extracting(TenantDatabases.TenantMigration::tenant)
                .containsExactly("a-cold", "b-open", "c-cold", "d-broken");
        assertThat(progress).extracting(TenantDatabases.TenantMigration::done)
                .containsExactly(1, 2, 3, 4);
        assertThat(progress.get(3).failure()).isPresent();
        assertThat(report.total()).isEqualTo(4);
        assertThat(report.succeeded()).isEqualTo(3);
        assertThat(report.failures()).containsOnlyKeys("d-broken");
        for (String id : List.of("a-cold", "c-cold")) {
            assertThat(tenants.find(id)).isPresent();
            assertThat(tenants.get(id).query("SELECT version FROM migration_log")).hasSize(1);
        }
    }

    @Test
    void aTenantClosedUnderneathIsOpenedAgainAndCloseRefusesNewGets() {
        TenantDatabases tenants = new TenantDatabases(lanes, tenantsDir(),
                DatabaseOptions.builder().build(), null);
        Database first = tenants.get("acme");
        first.close();
        Database second = tenants.get("acme");
        assertThat(second).isNotSameAs(first);
        assertThat(second.state()).isEqualTo(DatabaseState.RUNNING);
        tenants.close();
        assertThatThrownBy(() -> tenants.get("acme")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shutting down");
    }

    @Test
    void flywayLocationsMigrateEachTenantThroughItsDataSource() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LanesAutoConfiguration.class))
                .withPropertyValues("lanes.tenants.directory=" + tenantsDir(),
                        "lanes.tenants.migrations=classpath:db/tenant",
                        "lanes.tenants.readers=2")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    TenantDatabases tenants = context.getBean(TenantDatabases.class);
                    assertThat(tenants.options().readers()).isEqualTo(2);
                    for (String id : List.of("t1", "t2")) {
                        Database db = tenants.get(id);
                        db.execute("INSERT INTO note(text) VALUES (?)", id);
                        assertThat(db.query("SELECT count(*) AS n FROM flyway_schema_history "
                                + "WHERE success = 1 AND version = '1'").get(0).getLong("n"))
                                .isEqualTo(1);
                    }
                    assertThat(tenants.list()).containsExactly("t1", "t2");
                });
    }

    @Test
    void migrationPropertiesAreCheckedAtStartUp() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LanesAutoConfiguration.class));
        runner.withPropertyValues("lanes.tenants.directory=" + tenantsDir(),
                "lanes.tenants.migrations=classpath:tenant/missing.sql")
                .run(context -> assertThat(LanesAutoConfigurationTest.causes(
                        context.getStartupFailure()))
                        .contains("lanes.tenants.migrations[0]=classpath:tenant/missing.sql"));
        runner.withPropertyValues("lanes.tenants.directory=" + tenantsDir(),
                "lanes.tenants.migrations=classpath:tenant/V1.sql,classpath:db/tenant")
                .run(context -> assertThat(LanesAutoConfigurationTest.causes(
                        context.getStartupFailure())).contains("mixes SQL resources"));
    }
}
