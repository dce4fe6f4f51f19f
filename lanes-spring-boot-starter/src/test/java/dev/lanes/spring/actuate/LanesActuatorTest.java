package dev.lanes.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.CapacityFloorException;
import dev.lanes.Database;
import dev.lanes.DatabaseState;
import dev.lanes.IdentityMismatchException;
import dev.lanes.LanesException;
import dev.lanes.SqliteInfo;
import dev.lanes.micrometer.DatabaseTagging;
import dev.lanes.spring.LanesAutoConfiguration;
import dev.lanes.spring.TenantDatabases;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.sqlite.SQLiteConnection;

@Timeout(120)
class LanesActuatorTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LanesAutoConfiguration.class,
                        LanesActuatorAutoConfiguration.class))
                .withPropertyValues("lanes.datasource.path=" + dir.resolve("app.db"),
                        "lanes.tenants.directory=" + dir.resolve("tenants"));
    }

    @Test
    void healthIsUpWithCountsAndNoDetailsOfHealthyDatabases() {
        runner().run(context -> {
            TenantDatabases tenants = context.getBean(TenantDatabases.class);
            tenants.get("t1").execute("CREATE TABLE t(v INTEGER)");
            tenants.get("t2");
            Health health = context.getBean(LanesHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("databases", 1)
                    .containsEntry("tenantsOpen", 2).containsEntry("dead", 0)
                    .containsEntry("writersPoisoned", 0)
                    .doesNotContainKeys("unhealthy", "belowDiskFloor");
            assertThat(map(health.getDetails().get("runtime")))
                    .containsEntry("openDatabases", 3);
            SqliteInfo sqlite = SqliteInfo.current();
            assertThat(map(map(health.getDetails().get("runtime")).get("sqlite")))
                    .containsEntry("version", sqlite.sqliteVersion())
                    .containsEntry("driverVersion", sqlite.driverVersion())
                    .containsEntry("walResetMitigation", sqlite.walResetMitigation());
        });
    }

    @Test
    void healthIsOutOfServiceWhenFreeSpaceIsBelowTheReserveWhereWritesAreRefused() {
        // a reserve larger than any disk: the floor is always reached
        runner().withPropertyValues("lanes.datasource.disk-reserve=4000TB").run(context -> {
            Database db = context.getBean(Database.class);
            assertThatThrownBy(() -> db.execute("CREATE TABLE t(v INTEGER)"))
                    .isInstanceOf(CapacityFloorException.class);
            Health health = context.getBean(LanesHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
            Map<String, Object> below = map(health.getDetails().get("belowDiskFloor"));
            assertThat(below).containsOnlyKeys(db.path().getParent().toString());
            assertThat(map(below.values().iterator().next()))
                    .containsEntry("reserveBytes", 4000L * 1024 * 1024 * 1024 * 1024);
        });
    }

    @Test
    void healthIsDownWhenThePrimaryDatabaseFileWasSwappedUnderneath() {
        runner().run(context -> {
            Database db = context.getBean(Database.class);
            db.execute("CREATE TABLE t(v TEXT)");
            swapUnderneath(db, dir.resolve("impostor.db"));
            // a backup opens a connection of its own: it finds another file at the path
            assertThatThrownBy(() -> db.backup(dir.resolve("copy.db")))
                    .isInstanceOf(IdentityMismatchException.class);
            assertThat(db.state()).isEqualTo(DatabaseState.DEAD);

            Health health = context.getBean(LanesHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("dead", 1);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> unhealthy =
                    (List<Map<String, Object>>) health.getDetails().get("unhealthy");
            assertThat(unhealthy).singleElement().satisfies(e -> {
                assertThat(e).containsEntry("name", "primary").containsEntry("kind", "primary")
                        .containsEntry("state", "DEAD");
                assertThat((String) e.get("cause")).contains("app.db");
            });
        });
    }

    @Test
    void deadTenantsAreCountedAndAtMostTwentyNamedButDoNotTakeTheApplicationDown()
            throws Exception {
        runner().run(context -> {
            TenantDatabases tenants = context.getBean(TenantDatabases.class);
            tenants.get("healthy").execute("CREATE TABLE t(v INTEGER)");
            for (int i = 0; i < 25; i++) {
                String id = String.format("broken-%02d", i);
                Files.writeString(tenants.pathOf(id), "not an SQLite database, and long enough "
                        + "to be read as a header that SQLite refuses: " + "x".repeat(100));
                Database broken = tenants.get(id);
                assertThatThrownBy(() -> broken.query("SELECT 1")).isNotNull();
                // the writer finds it out on its own thread, maybe after the read failed
                Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> broken.state() == DatabaseState.DEAD);
            }
            Health health = context.getBean(LanesHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("dead", 25)
                    .containsEntry("tenantsOpen", 26).containsEntry("unhealthyNotListed", 5);
            assertThat((List<?>) health.getDetails().get("unhealthy"))
                    .hasSize(LanesHealthIndicator.MAX_LISTED);
        });
    }

    @Test
    void healthIsDownWhenANamedDatabasesWriterIsPoisonedAndAPoisonedTenantIsOnlyCounted() {
        runner().withPropertyValues("lanes.databases.orders.path=" + dir.resolve("orders.db"))
                .run(context -> {
                    Database orders = context.getBean("orders", Database.class);
                    TenantDatabases tenants = context.getBean(TenantDatabases.class);
                    poison(tenants.get("t-poisoned"));
                    Health tenantOnly = context.getBean(LanesHealthIndicator.class).health();
                    assertThat(tenantOnly.getStatus()).isEqualTo(Status.UP);
                    assertThat(tenantOnly.getDetails()).containsEntry("writersPoisoned", 1);
                    assertThat(unhealthy(tenantOnly)).singleElement().satisfies(e -> assertThat(e)
                            .containsEntry("name", "t-poisoned").containsEntry("kind", "tenant"));

                    poison(orders);
                    Health health = context.getBean(LanesHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails()).containsEntry("writersPoisoned", 2)
                            .containsEntry("dead", 0);
                    assertThat(unhealthy(health)).hasSize(2).first().satisfies(e -> {
                        assertThat(e).containsEntry("name", "orders").containsEntry("kind", "named")
                                .containsEntry("state", "RUNNING")
                                .containsEntry("writerPoisoned", true);
                        assertThat((String) e.get("cause")).isNotBlank();
                    });
                    // reads go on on a poisoned writer; the primary is untouched
                    assertThat(orders.query("SELECT 1 AS one").get(0).getLong("one")).isEqualTo(1);
                    context.getBean(Database.class).execute("CREATE TABLE ok(v INTEGER)");
                });
    }

    @Test
    void aDownDatabaseOutranksTheDiskFloorWhichIsStillReported() {
        runner().withPropertyValues("lanes.databases.orders.path=" + dir.resolve("orders.db"),
                "lanes.datasource.disk-reserve=4000TB").run(context -> {
                    LanesHealthIndicator indicator = context.getBean(LanesHealthIndicator.class);
                    assertThat(indicator.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
                    poison(context.getBean("orders", Database.class));
                    Health health = indicator.health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails()).containsKey("belowDiskFloor")
                            .containsEntry("writersPoisoned", 1);
                });
    }

    @Test
    void belowTheDiskFloorOfTheTenantsDirectoryOrOfManyDirectoriesAtMostTwentyAreListed() {
        runner().withPropertyValues("lanes.tenants.disk-reserve=4000TB").run(context -> {
            Health health = context.getBean(LanesHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
            assertThat(map(health.getDetails().get("belowDiskFloor"))).containsOnlyKeys(
                    context.getBean(TenantDatabases.class).directory().toString());
        });
        String[] manyDirectories = new String[25];
        for (int i = 0; i < manyDirectories.length; i++) {
            String name = "db" + i;
            manyDirectories[i] = "lanes.databases." + name + ".path="
                    + dir.resolve("dir-" + i).resolve(name + ".db");
        }
        runner().withPropertyValues(manyDirectories)
                .withPropertyValues("lanes.databases.db7.disk-reserve=4000TB").run(context -> {
                    Health one = context.getBean(LanesHealthIndicator.class).health();
                    assertThat(one.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
                    assertThat(map(one.getDetails().get("belowDiskFloor")))
                            .containsOnlyKeys(dir.resolve("dir-7").toRealPath().toString());
                });
        String[] allBelow = new String[manyDirectories.length * 2];
        for (int i = 0; i < manyDirectories.length; i++) {
            allBelow[2 * i] = manyDirectories[i];
            allBelow[2 * i + 1] = "lanes.databases.db" + i + ".disk-reserve=4000TB";
        }
        runner().withPropertyValues(allBelow).run(context -> {
            Health health = context.getBean(LanesHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
            assertThat(health.getDetails()).containsEntry("databases", 26);
            assertThat(map(health.getDetails().get("belowDiskFloor")))
                    .hasSize(LanesHealthIndicator.MAX_LISTED);
        });
    }

    @Test
    void atManyTenantsTheHealthDetailsStayBounded() {
        runner().withPropertyValues("lanes.tenants.readers=1").run(context -> {
            TenantDatabases tenants = context.getBean(TenantDatabases.class);
            int count = 150;
            int poisoned = 45;
            for (int i = 0; i < count; i++) {
                Database db = tenants.get(String.format("tenant-%03d", i));
                if (i < poisoned) {
                    poison(db);
                }
            }
            Health health = context.getBean(LanesHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            // only counts, the runtime's figures and twenty named: no entry per tenant
            assertThat(health.getDetails()).containsOnlyKeys("runtime", "databases",
                    "tenantsOpen", "dead", "writersPoisoned", "unhealthy", "unhealthyNotListed");
            assertThat(health.getDetails()).containsEntry("tenantsOpen", count)
                    .containsEntry("writersPoisoned", poisoned)
                    .containsEntry("unhealthyNotListed", poisoned - LanesHealthIndicator.MAX_LISTED);
            assertThat(unhealthy(health)).hasSize(LanesHealthIndicator.MAX_LISTED);
            assertThat(map(health.getDetails().get("runtime"))).hasSize(7);
        });
    }

    @Test
    void theRankingsPutTheDeepestQueueTheLargestWalAndTheLongestRecentWaitFirst()
            throws Exception {
        runner().withPropertyValues("management.endpoints.web.exposure.include=lanes")
                .run(context -> {
            TenantDatabases tenants = context.getBean(TenantDatabases.class);
            for (int i = 0; i < 24; i++) {
                tenants.get("t" + i).execute("CREATE TABLE t(v INTEGER)");
            }
            Database big = tenants.get("big-wal");
            big.execute("CREATE TABLE blob(b BLOB)");
            big.execute("INSERT INTO blob(b) VALUES (zeroblob(1048576))");
            Database deep = tenants.get("deep");
            deep.execute("CREATE TABLE t(v INTEGER)");
            LanesEndpoint endpoint = context.getBean(LanesEndpoint.class);
            long longestOtherWait = 0;
            for (Map<String, Object> e : ranking(endpoint.lanes(), "byRecentWait")) {
                if (e.get("lastQueueWait") != null) {
                    longestOtherWait = Math.max(longestOtherWait,
                            Duration.parse((String) e.get("lastQueueWait")).toNanos());
                }
            }

            // the deep tenant's writer is held, five writes queue behind it
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<CompletableFuture<Integer>> writes = new ArrayList<>();
            writes.add(deep.writeAsync(c -> {
                running.countDown();
                release.await();
                return 0;
            }));
            running.await();
            for (int i = 0; i < 5; i++) {
                writes.add(deep.writeAsync(c -> {
                    try (Statement insert = c.createStatement()) {
                        return insert.executeUpdate("INSERT INTO t(v) VALUES (1)");
                    }
                }));
            }
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> deep.diagnostics().writer().queued() == 5);
            long queuedAt = System.nanoTime();
            Map<String, Object> held = endpoint.lanes();
            assertThat(ranking(held, "byQueueDepth").get(0)).containsEntry("name", "deep")
                    .containsEntry("kind", "tenant").containsEntry("queuedWrites", 5);
            assertThat(ranking(held, "byQueueDepth").get(1)).containsEntry("queuedWrites", 0);
            assertThat(ranking(held, "byWalBytes").get(0)).containsEntry("name", "big-wal");
            assertThat((Long) ranking(held, "byWalBytes").get(0).get("walBytes"))
                    .isGreaterThan(1_000_000L);

            // the queued writes wait, by construction, longer than any other database's did
            long holdUntil = queuedAt + longestOtherWait + TimeUnit.MILLISECONDS.toNanos(20);
            while (System.nanoTime() < holdUntil) {
                LockSupport.parkNanos(holdUntil - System.nanoTime());
            }
            release.countDown();
            for (var w : writes) {
                w.get(30, TimeUnit.SECONDS);
            }
            List<Map<String, Object>> byWait = ranking(endpoint.lanes(), "byRecentWait");
            assertThat(byWait.get(0)).containsEntry("name", "deep");
            assertThat(byWait).hasSize(LanesEndpoint.TOP);
        });
    }

    /** Leaves a transaction open in a top-level request: the writer cannot vouch for it. */
    private static void poison(Database db) {
        assertThatThrownBy(() -> db.maintenance(c -> {
            try (Statement begin = c.unwrap(SQLiteConnection.class).createStatement()) {
                begin.execute("BEGIN");
            }
            return null;
        })).isInstanceOf(LanesException.class);
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> unhealthy(Health health) {
        return (List<Map<String, Object>>) health.getDetails().get("unhealthy");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> ranking(Map<String, Object> body, String name) {
        return (List<Map<String, Object>>) body.get(name);
    }

    @Test
    void theEndpointShowsTheRuntimeAndTheBusiestDatabasesAndOneDatabaseByName() {
        runner().withPropertyValues("lanes.databases.orders.path=" + dir.resolve("orders.db"),
                "management.endpoints.web.exposure.include=lanes").run(context -> {
            TenantDatabases tenants = context.getBean(TenantDatabases.class);
            for (int i = 0; i < 25; i++) {
                tenants.get("t" + i).execute("CREATE TABLE t(v INTEGER)");
            }
            LanesEndpoint endpoint = context.getBean(LanesEndpoint.class);
            Map<String, Object> body = endpoint.lanes();
            assertThat(map(body.get("runtime"))).containsKeys("liveThreads",
                    "maxThreads", "openDatabases", "openConnections", "longestQueueWait");
            assertThat(map(body.get("runtime"))).containsEntry("openDatabases", 27);
            assertThat(body).containsEntry("databases", 2).containsEntry("tenantsOpen", 25);
            for (String ranking : List.of("byQueueDepth", "byWalBytes", "byRecentWait")) {
                assertThat((List<?>) body.get(ranking)).as(ranking).hasSize(LanesEndpoint.TOP);
            }
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> byWal = (List<Map<String, Object>>) body.get("byWalBytes");
            List<Long> wal = byWal.stream().map(e -> (Long) e.get("walBytes")).toList();
            assertThat(wal).isSortedAccordingTo((a, b) -> Long.compare(b, a));

            Map<String, Object> primary = endpoint.database(new String[] {"primary"});
            assertThat(primary).containsEntry("kind", "primary").containsEntry("state", "RUNNING")
                    .containsEntry("path", context.getBean(Database.class).path().toString());
            assertThat(map(primary.get("readers"))).containsKey("readers");
            assertThat(endpoint.database(new String[] {"orders"})).containsEntry("kind", "named");
            assertThat(endpoint.database(new String[] {"tenants", "t3"}))
                    .containsEntry("kind", "tenant").containsEntry("name", "tenants/t3");
            assertThat(endpoint.database(new String[] {"nope"})).isNull();
            assertThat(endpoint.database(new String[] {"tenants", "not-open"})).isNull();
            assertThat(endpoint.database(new String[] {"tenants", ".."})).isNull();
            assertThat(tenants.exists("not-open")).isFalse();
        });
    }

    @Test
    void metricsTagThePrimaryAndNamedDatabasesAndFoldTheTenants() {
        runner().withUserConfiguration(Registry.class)
                .withPropertyValues("lanes.databases.orders.path=" + dir.resolve("orders.db"))
                .run(context -> {
                    exercise(context.getBean(Database.class),
                            context.getBean(TenantDatabases.class));
                    context.getBean("orders", Database.class)
                            .execute("CREATE TABLE IF NOT EXISTS o(v INT)");
                    Set<String> dbs = dbTags(context.getBean(MeterRegistry.class));
                    assertThat(dbs).contains("app.db", "orders.db", DatabaseTagging.OTHER)
                            .doesNotContain("t0.db", "t1.db");
                });
        runner().withUserConfiguration(Registry.class)
                .withPropertyValues("lanes.metrics.per-database=true").run(context -> {
                    exercise(context.getBean(Database.class),
                            context.getBean(TenantDatabases.class));
                    assertThat(dbTags(context.getBean(MeterRegistry.class)))
                            .contains("app.db", "t0.db", "t1.db");
                });
        runner().withUserConfiguration(Registry.class)
                .withPropertyValues("lanes.metrics.enabled=false").run(context -> {
                    exercise(context.getBean(Database.class),
                            context.getBean(TenantDatabases.class));
                    assertThat(context.getBean(MeterRegistry.class).find("lanes.command.duration")
                            .meters()).isEmpty();
                });
    }

    private static void exercise(Database primary, TenantDatabases tenants) {
        primary.execute("CREATE TABLE IF NOT EXISTS p(v INTEGER)");
        primary.execute("INSERT INTO p(v) VALUES (1)");
        for (String id : List.of("t0", "t1")) {
            tenants.get(id).execute("CREATE TABLE IF NOT EXISTS t(v INTEGER)");
        }
    }

    private static Set<String> dbTags(MeterRegistry registry) {
        Collection<Meter> meters = registry.find("lanes.command.duration").meters();
        assertThat(meters).isNotEmpty();
        return meters.stream().map(m -> m.getId().getTag("db")).collect(Collectors.toSet());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    /** Moves another database over {@code db}'s file, as a restore would (see IdentityTest). */
    static void swapUnderneath(Database db, Path impostor) throws Exception {
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + impostor);
                Statement s = raw.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("CREATE TABLE t(v TEXT)");
        }
        db.maintenance(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            }
            return null;
        });
        Files.move(impostor, db.path(), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    @Configuration(proxyBeanMethods = false)
    static class Registry {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
