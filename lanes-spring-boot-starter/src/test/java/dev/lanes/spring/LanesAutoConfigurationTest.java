package dev.lanes.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.Database;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import dev.lanes.spring.actuate.LanesActuatorAutoConfiguration;
import dev.lanes.spring.actuate.LanesEndpoint;
import dev.lanes.spring.actuate.LanesHealthIndicator;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import org.sqlite.SQLiteDataSource;

@Timeout(120)
class LanesAutoConfigurationTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
                LanesAutoConfiguration.class, DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                JdbcTemplateAutoConfiguration.class, JdbcClientAutoConfiguration.class,
                TransactionAutoConfiguration.class));
    }

    private String path(String file) {
        return dir.resolve(file).toString();
    }

    @Test
    void thePrimaryDatabaseIsTheApplicationsDataSourceAndNoPoolIsMade() {
        runner().withPropertyValues("lanes.datasource.path=" + path("app.db"),
                "lanes.datasource.readers=2", "lanes.datasource.synchronous=FULL")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Database db = context.getBean(Database.class);
                    DataSource dataSource = context.getBean(DataSource.class);
                    // HikariCP is on this class path (through Spring Data's starter) and unused
                    assertThat(dataSource).isNotInstanceOf(HikariDataSource.class);
                    assertThat(dataSource).isSameAs(db.dataSource());
                    assertThat(dataSource.unwrap(Database.class)).isSameAs(db);
                    assertThat(db.path()).isEqualTo(dir.resolve("app.db").toRealPath());
                    assertThat(db.diagnostics().readers().readers()).isEqualTo(2);

                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    jdbc.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)");
                    jdbc.update("INSERT INTO item(name) VALUES (?)", "pear");
                    JdbcClient client = context.getBean(JdbcClient.class);
                    assertThat(client.sql("SELECT name FROM item").query(String.class).list())
                            .containsExactly("pear");
                    // the same rows through the Lanes API: one database, one writer lane
                    assertThat(db.query("SELECT name FROM item").get(0).getString("name"))
                            .isEqualTo("pear");
                    assertThat(db.diagnostics().writer().counters().committed()).isGreaterThanOrEqualTo(2);
                    try (Connection raw = sqlite(dir.resolve("app.db"));
                            Statement s = raw.createStatement();
                            ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                        rs.next();
                        assertThat(rs.getString(1)).isEqualTo("wal");
                    }
                });
    }

    @Test
    void transactionalReadThenWriteFromManyThreadsLosesNoIncrement() throws Exception {
        runner().withPropertyValues("lanes.datasource.path=" + path("counter.db"))
                .run(context -> {
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    TransactionTemplate tx = context.getBean(TransactionTemplate.class);
                    jdbc.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER)");
                    jdbc.update("INSERT INTO counter(id, n) VALUES (1, 0)");
                    int threads = 16;
                    int each = 25;
                    CyclicBarrier start = new CyclicBarrier(threads);
                    ExecutorService pool = Executors.newFixedThreadPool(threads);
                    try {
                        List<Future<?>> done = new ArrayList<>();
                        for (int t = 0; t < threads; t++) {
                            done.add(pool.submit(() -> {
                                start.await();
                                for (int i = 0; i < each; i++) {
                                    tx.executeWithoutResult(status -> {
                                        Integer n = jdbc.queryForObject(
                                                "SELECT n FROM counter WHERE id = 1", Integer.class);
                                        jdbc.update("UPDATE counter SET n = ? WHERE id = 1", n + 1);
                                    });
                                }
                                return null;
                            }));
                        }
                        for (Future<?> f : done) {
                            f.get(60, TimeUnit.SECONDS);
                        }
                    } finally {
                        pool.shutdownNow();
                    }
                    assertThat(jdbc.queryForObject("SELECT n FROM counter", Integer.class))
                            .isEqualTo(threads * each);

                    // a transaction that throws leaves nothing behind
                    assertThatThrownBy(() -> tx.executeWithoutResult(status -> {
                        jdbc.update("UPDATE counter SET n = -1 WHERE id = 1");
                        throw new IllegalStateException("boom");
                    })).hasMessage("boom");
                    assertThat(jdbc.queryForObject("SELECT n FROM counter", Integer.class))
                            .isEqualTo(threads * each);
                });
    }

    @Test
    void itBacksOffADataSourceTheApplicationDefinesAndStillOpensTheDatabase() {
        runner().withUserConfiguration(UserDataSource.class)
                .withPropertyValues("lanes.datasource.path=" + path("app.db"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(DataSource.class);
                    assertThat(context.getBean(DataSource.class)).isInstanceOf(SQLiteDataSource.class);
                    assertThat(context.getBean(Database.class).state())
                            .isEqualTo(DatabaseState.RUNNING);
                });
    }

    @Test
    void anotherDataSourceUrlIsTheApplicationsDataSourceAndNoLanesDatabaseOpens() {
        // a profile (PetClinic's "postgres") pointing at another database
        runner().withPropertyValues("lanes.datasource.path=" + path("app.db"),
                "spring.datasource.url=jdbc:h2:mem:elsewhere")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(DataSource.class);
                    DataSource dataSource = context.getBean(DataSource.class);
                    assertThat(dataSource.isWrapperFor(Database.class)).isFalse();
                    try (Connection c = dataSource.getConnection()) {
                        assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:elsewhere");
                    }
                    assertThat(context).doesNotHaveBean(Database.class);
                    assertThat(context.getBean(LanesDatabases.class).primary()).isEmpty();
                    assertThat(outcome(context)).contains("spring.datasource.url is set");
                });
        // a blank URL configures nothing: a profile can clear one that way
        runner().withPropertyValues("lanes.datasource.path=" + path("blank.db"),
                "spring.datasource.url=").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(DataSource.class).unwrap(Database.class).path())
                            .isEqualTo(dir.resolve("blank.db").toRealPath());
                });
        assertThat(dir.resolve("app.db")).doesNotExist();
    }

    @Test
    void jdbcConnectionDetailsAsFromAServiceConnectionWinOverLanes() {
        runner().withUserConfiguration(ServiceConnection.class)
                .withPropertyValues("lanes.datasource.path=" + path("app.db"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    DataSource dataSource = context.getBean(DataSource.class);
                    try (Connection c = dataSource.getConnection()) {
                        assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:container");
                    }
                    assertThat(context).doesNotHaveBean(Database.class);
                    assertThat(outcome(context)).contains("JdbcConnectionDetails bean");
                });
        assertThat(dir.resolve("app.db")).doesNotExist();
    }

    @Test
    void excludingBootsDataSourceAutoConfigurationLeavesTheContextWithoutADataSource() {
        new ApplicationContextRunner().withUserConfiguration(ExcludesDataSource.class)
                .withPropertyValues("lanes.datasource.path=" + path("app.db"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(DataSource.class);
                    assertThat(context).doesNotHaveBean(Database.class);
                    assertThat(context).hasSingleBean(Lanes.class);
                    assertThat(outcome(context))
                            .contains("DataSourceAutoConfiguration is excluded");
                });
        assertThat(dir.resolve("app.db")).doesNotExist();
    }

    /** Why the primary database's configuration matched or not, as Boot's report says it. */
    private static String outcome(org.springframework.context.ApplicationContext context) {
        return org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport
                .get(((ConfigurableApplicationContext) context).getBeanFactory())
                .getConditionAndOutcomesBySource().entrySet().stream()
                .filter(e -> e.getKey().contains("PrimaryDatabaseConfiguration"))
                .flatMap(e -> e.getValue().stream())
                .map(o -> o.getOutcome().getMessage()).reduce("", String::concat);
    }

    @Test
    void itBacksOffALanesTheApplicationDefinesAndOpensTheDatabasesOnIt() {
        runner().withUserConfiguration(UserLanes.class)
                .withPropertyValues("lanes.datasource.path=" + path("app.db"),
                        "lanes.max-threads=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(Lanes.class);
                    Lanes lanes = context.getBean(Lanes.class);
                    // the application's runtime (2 threads), not one from lanes.max-threads
                    assertThat(lanes.diagnostics().maxThreads()).isEqualTo(2);
                    assertThat(lanes.diagnostics().openDatabases()).isEqualTo(1);
                    assertThat(context.getBean(LanesDatabases.class).runtime()).isSameAs(lanes);
                });
    }

    @Test
    void theRuntimeTakesItsPropertiesAndWithoutADatasourcePathThereIsNoDataSource() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LanesAutoConfiguration.class))
                .withPropertyValues("lanes.max-threads=3", "lanes.max-open-connections=40")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Lanes.class).diagnostics().maxThreads())
                            .isEqualTo(3);
                    assertThat(context).doesNotHaveBean(Database.class);
                    assertThat(context).doesNotHaveBean(DataSource.class);
                    assertThat(context).doesNotHaveBean(TenantDatabases.class);
                });
    }

    @Test
    void customizersRunAfterThePropertiesInTheirOrderAndLanesEnabledFalseTurnsItAllOff() {
        ApplicationContextRunner lanesOnly = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LanesAutoConfiguration.class,
                        LanesActuatorAutoConfiguration.class));
        // the later customizer (order 2) wins over the earlier one (order 1), which wins over
        // the property; registered in the opposite order, so bean order alone cannot pass it
        lanesOnly.withPropertyValues("lanes.max-threads=3")
                .withBean("late", LanesBuilderCustomizer.class, () -> new Ordered(2, 7))
                .withBean("early", LanesBuilderCustomizer.class, () -> new Ordered(1, 5))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Lanes.class).diagnostics().maxThreads())
                            .isEqualTo(7);
                });
        lanesOnly.withPropertyValues("lanes.enabled=false",
                "lanes.datasource.path=" + path("off.db"),
                "lanes.databases.orders.path=" + path("orders.db"),
                "lanes.tenants.directory=" + path("tenants")).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(Lanes.class);
                    assertThat(context).doesNotHaveBean(Database.class);
                    assertThat(context).doesNotHaveBean(TenantDatabases.class);
                    assertThat(context).doesNotHaveBean(LanesDatabases.class);
                    assertThat(context).doesNotHaveBean(LanesHealthIndicator.class);
                    assertThat(context).doesNotHaveBean(LanesEndpoint.class);
                });
        // nothing was created on disk
        assertThat(dir.resolve("off.db")).doesNotExist();
        assertThat(dir.resolve("orders.db")).doesNotExist();
        assertThat(dir.resolve("tenants")).doesNotExist();
    }

    /** Sets the runtime's thread cap, at a given order. */
    private record Ordered(int order, int maxThreads)
            implements LanesBuilderCustomizer, org.springframework.core.Ordered {
        @Override
        public void customize(Lanes.Builder builder) {
            builder.maxThreads(maxThreads);
        }

        @Override
        public int getOrder() {
            return order;
        }
    }

    @Test
    void aBadValueFailsStartUpWithAMessageThatNamesTheProperty() {
        failsNaming("lanes.datasource.readers=0 is not valid: readers must be",
                "lanes.datasource.path=" + path("app.db"), "lanes.datasource.readers=0");
        failsNaming("lanes.max-threads=0", "lanes.max-threads=0");
        failsNaming("lanes.databases.orders.write-queue-capacity=-5",
                "lanes.databases.orders.path=" + path("orders.db"),
                "lanes.databases.orders.write-queue-capacity=-5");
        // a value of the wrong type: Boot's binder names it
        failsNaming("lanes.datasource.busy-timeout", "lanes.datasource.path=" + path("app.db"),
                "lanes.datasource.busy-timeout=soon");
        failsNaming("lanes.databases.orders.path is required", "lanes.databases.orders.readers=2");
        failsNaming("lanes.databases.primary", "lanes.databases.primary.path=" + path("p.db"));
        // nothing was opened for a bad configuration
        assertThat(dir.resolve("app.db")).doesNotExist();
        assertThat(dir.resolve("orders.db")).doesNotExist();
    }

    private void failsNaming(String message, String... properties) {
        runner().withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            assertThat(causes(context.getStartupFailure())).contains(message);
        });
    }

    @Test
    void namedDatabasesAreBeansQualifiedByTheirNameWithTheirOwnOptions() {
        runner().withUserConfiguration(NamedUser.class)
                .withPropertyValues("lanes.datasource.path=" + path("app.db"),
                        "lanes.databases.orders.path=" + path("orders/orders.db"),
                        "lanes.databases.orders.readers=3",
                        "lanes.databases.audit.path=" + path("audit.db"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    NamedUser user = context.getBean(NamedUser.class);
                    assertThat(user.orders.path()).isEqualTo(dir.resolve("orders/orders.db")
                            .toRealPath());
                    assertThat(user.audit.path()).isEqualTo(dir.resolve("audit.db").toRealPath());
                    assertThat(user.orders.diagnostics().readers().readers()).isEqualTo(3);
                    // the unqualified Database is the primary one
                    assertThat(context.getBean(Database.class).path())
                            .isEqualTo(dir.resolve("app.db").toRealPath());
                    LanesDatabases all = context.getBean(LanesDatabases.class);
                    assertThat(all.named()).containsOnlyKeys("orders", "audit");
                    assertThat(all.find("orders")).containsSame(user.orders);
                    assertThat(all.find(LanesDatabases.PRIMARY)).contains(
                            context.getBean(Database.class));
                    // each is its own file with its own lane
                    user.audit.execute("CREATE TABLE e(v TEXT)");
                    user.audit.execute("INSERT INTO e(v) VALUES ('x')");
                    assertThat(user.orders.query("SELECT name FROM sqlite_master WHERE name = 'e'"))
                            .isEmpty();
                });
    }

    @Test
    void contextCloseDrainsTheWritesItAcceptedAndRefusesLaterOnes() throws Exception {
        Path file = dir.resolve("drain.db");
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Integer>> accepted = new ArrayList<>();
        Database[] held = new Database[1];
        runner().withPropertyValues("lanes.datasource.path=" + file,
                "lanes.datasource.close-timeout=30s").run(context -> {
            Database db = context.getBean(Database.class);
            held[0] = db;
            db.execute("CREATE TABLE t(v INTEGER)");
            // the first write holds the writer lane, so the others wait in its queue
            accepted.addAll(heldThenQueued(db, release, 100));
            ConfigurableApplicationContext closing = context.getSourceApplicationContext();
            CompletableFuture<Void> closed = CompletableFuture.runAsync(closing::close);
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> db.state() != DatabaseState.RUNNING);
            assertThat(closed).isNotDone();
            release.countDown();
            closed.get(60, TimeUnit.SECONDS);
        });
        for (CompletableFuture<Integer> f : accepted) {
            assertThat(f.get(1, TimeUnit.SECONDS)).isEqualTo(1);
        }
        assertThat(held[0].state()).isEqualTo(DatabaseState.CLOSED);
        assertThatThrownBy(() -> held[0].execute("INSERT INTO t(v) VALUES (-1)"))
                .isInstanceOfAny(ClosedException.class, ClosingException.class);
        try (Connection raw = sqlite(file); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*), sum(v) FROM t")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(101);
            assertThat(rs.getInt(2)).isEqualTo(5050);
        }
    }

    @Test
    void contextCloseWaitsNoLongerThanTheCloseTimeoutAndNoOutcomeIsLost() throws Exception {
        Path file = dir.resolve("stuck.db");
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Integer>> accepted = new ArrayList<>();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        runner().withPropertyValues("lanes.datasource.path=" + file,
                "lanes.datasource.close-timeout=1s").run(context -> {
            Database db = context.getBean(Database.class);
            db.execute("CREATE TABLE t(v INTEGER)");
            // the first write does not end until the close has given up on it
            accepted.addAll(heldThenQueued(db, release, 20));
            ConfigurableApplicationContext closing = context.getSourceApplicationContext();
            CompletableFuture.runAsync(closing::close).whenComplete((v, e) -> {
                if (e == null) {
                    closed.complete(null);
                } else {
                    closed.completeExceptionally(e);
                }
            });
            // the close gives up after close-timeout while the write still runs
            closed.get(60, TimeUnit.SECONDS);
            assertThat(release.getCount()).isEqualTo(1);
        });
        release.countDown();
        // every accepted write ends with an outcome: committed, or failed saying it never ran
        int committed = 0;
        for (CompletableFuture<Integer> f : accepted) {
            try {
                assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(1);
                committed++;
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(LanesException.class);
                assertThat(((LanesException) e.getCause()).outcome())
                        .isEqualTo(WriteOutcome.NOT_STARTED);
            }
        }
        // what was reported committed is in the file, and nothing else
        try (Connection raw = sqlite(file); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(committed);
        }
    }

    /**
     * Inserts {@code v = 0} in a write that waits for {@code release} first, then {@code v = 1}
     * to {@code queued} in writes queued behind it; each future gives its update count.
     */
    private static List<CompletableFuture<Integer>> heldThenQueued(Database db,
            CountDownLatch release, int queued) {
        List<CompletableFuture<Integer>> writes = new ArrayList<>();
        for (int i = 0; i <= queued; i++) {
            int v = i;
            writes.add(db.writeAsync(c -> {
                if (v == 0) {
                    release.await();
                }
                try (Statement s = c.createStatement()) {
                    return s.executeUpdate("INSERT INTO t(v) VALUES (" + v + ")");
                }
            }));
        }
        return writes;
    }

    /** The messages of a failure and its causes, as the start-up log shows them. */
    static String causes(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    static Connection sqlite(Path file) throws Exception {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    @Configuration(proxyBeanMethods = false)
    static class UserDataSource {
        @Bean
        DataSource userDataSource() {
            SQLiteDataSource ds = new SQLiteDataSource();
            ds.setUrl("jdbc:sqlite::memory:");
            return ds;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ServiceConnection {
        @Bean
        JdbcConnectionDetails containerConnection() {
            return new JdbcConnectionDetails() {
                @Override
                public String getUsername() {
                    return "sa";
                }

                @Override
                public String getPassword() {
                    return "";
                }

                @Override
                public String getJdbcUrl() {
                    return "jdbc:h2:mem:container";
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(classes = {LanesAutoConfiguration.class,
            DataSourceAutoConfiguration.class}, exclude = DataSourceAutoConfiguration.class)
    static class ExcludesDataSource {}

    @Configuration(proxyBeanMethods = false)
    static class UserLanes {
        @Bean(destroyMethod = "close")
        Lanes userLanes() {
            return Lanes.builder().name("mine").maxThreads(2).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NamedUser {
        Database orders;
        Database audit;

        @Bean
        String wiring(@Qualifier("orders") Database orders, @Qualifier("audit") Database audit) {
            this.orders = orders;
            this.audit = audit;
            return "wired";
        }
    }
}
