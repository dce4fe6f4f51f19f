package dev.lanes.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.SqliteInfo;
import dev.lanes.Transaction;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMX;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The management beans, through the platform MBean server as a JMX client sees them: their
 * names, their attributes (read from the diagnostics), the checkpoint and backup operations and
 * their failures, their lifetimes, the cap on database beans and duplicate names.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ManagementBeansTest {
    private static final AtomicInteger RUNTIMES = new AtomicInteger();

    @TempDir
    Path dir;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<Lanes> runtimes = new ArrayList<>();
    private final Logger lifecycle = (Logger) LoggerFactory.getLogger("dev.lanes.lifecycle");
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void watchTheLog() {
        logged.list = new CopyOnWriteArrayList<>();
        logged.start();
        lifecycle.addAppender(logged);
    }

    @AfterEach
    void closeEverything() {
        try {
            for (Lanes lanes : runtimes) {
                lanes.close();
            }
        } finally {
            lifecycle.detachAppender(logged);
        }
    }

    /** A runtime name no other test of this JVM uses. */
    private static String uniqueName(String base) {
        return base + "-" + RUNTIMES.incrementAndGet() + "-" + ProcessHandle.current().pid();
    }

    private Lanes runtime(String name, Lanes.Builder builder) {
        Lanes lanes = builder.name(name).build();
        runtimes.add(lanes);
        return lanes;
    }

    private Lanes runtime(String name) {
        return runtime(name, Lanes.builder().maxThreads(3).maxOpenConnections(50)
                .registerMBeans(true));
    }

    private static ObjectName name(String name) throws Exception {
        return new ObjectName(name);
    }

    private static ObjectName databaseBean(String runtime, String db) throws Exception {
        return name("dev.lanes:type=Database,runtime=" + runtime + ",name=" + db);
    }

    private Set<String> databaseBeans(String runtime) throws Exception {
        Set<String> names = new TreeSet<>();
        for (ObjectName n : server.queryNames(name("dev.lanes:type=Database,runtime=" + runtime
                + ",*"), null)) {
            names.add(n.getKeyProperty("name"));
        }
        return names;
    }

    private static Set<String> attributeNames(MBeanServer server, ObjectName bean)
            throws Exception {
        Set<String> names = new TreeSet<>();
        for (MBeanAttributeInfo a : server.getMBeanInfo(bean).getAttributes()) {
            names.add(a.getName());
        }
        return names;
    }

    private static long rowsIn(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theRuntimeAndItsDatabasesAreBeansWhoseAttributesReadTheDiagnostics() throws Exception {
        String rt = uniqueName("attributes");
        Lanes lanes = runtime(rt);
        ObjectName runtimeBean = name("dev.lanes:type=Runtime,name=" + rt);
        assertThat(server.isRegistered(runtimeBean)).isTrue();
        assertThat(attributeNames(server, runtimeBean)).containsExactlyInAnyOrder("Name",
                "LiveThreads", "MaxThreads", "BusyThreads", "RunnableForeground",
                "RunnableBackground", "OpenDatabases", "OpenConnections", "ConnectionBudget",
                "ConnectionTarget", "LongestQueueWaitMillis", "SaturationStretches", "Saturated",
                "DatabasesByState", "SqliteVersion", "SqliteJdbcVersion", "WalResetMitigation");
        assertThat(server.getAttribute(runtimeBean, "Name")).isEqualTo(rt);
        SqliteInfo sqlite = SqliteInfo.current();
        assertThat(server.getAttribute(runtimeBean, "SqliteVersion"))
                .isEqualTo(sqlite.sqliteVersion());
        assertThat(server.getAttribute(runtimeBean, "SqliteJdbcVersion"))
                .isEqualTo(sqlite.driverVersion());
        assertThat(server.getAttribute(runtimeBean, "WalResetMitigation"))
                .isEqualTo(sqlite.walResetMitigation());
        assertThat(server.getAttribute(runtimeBean, "MaxThreads")).isEqualTo(3);
        assertThat(server.getAttribute(runtimeBean, "ConnectionBudget")).isEqualTo(50);
        assertThat(server.getAttribute(runtimeBean, "ConnectionTarget"))
                .as("the budget less its reserve, with nothing churning").isEqualTo(47);
        assertThat(server.getAttribute(runtimeBean, "OpenDatabases")).isEqualTo(0);

        Database db = lanes.open(dir.resolve("orders.db"), DatabaseOptions.builder()
                .writeQueueCapacity(32).readers(3).build());
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        for (int i = 0; i < 3; i++) {
            db.execute("INSERT INTO t(v) VALUES (?)", "row" + i);
        }
        ObjectName dbBean = databaseBean(rt, "orders.db");
        assertThat(attributeNames(server, dbBean)).contains("Path", "State", "WriterPoisoned",
                "PoisonCause", "DeadCause", "Background", "Corked", "QueuedWrites",
                "WriteQueueCapacity", "CommittedWrites", "FailedWrites", "GroupsCommitted",
                "Overloads", "Replays", "UnknownOutcomes", "BusyRefusals", "TransactionOpen",
                "TransactionAgeMillis", "CheckpointMode", "WalBytes", "CheckpointsCompleted",
                "CheckpointFailures", "LastCheckpoint", "Readers", "ReadersAvailable",
                "ReadersWaiting", "ReaderCheckoutTimeouts", "LongestReaderHoldMillis");
        assertThat(server.getAttribute(dbBean, "Path")).isEqualTo(db.path().toString());
        assertThat(server.getAttribute(dbBean, "State")).isEqualTo("RUNNING");
        assertThat(server.getAttribute(dbBean, "CommittedWrites")).isEqualTo(4L)
                .isEqualTo(db.diagnostics().writer().counters().committed());
        assertThat(server.getAttribute(dbBean, "QueuedWrites")).isEqualTo(0);
        assertThat(server.getAttribute(dbBean, "WriteQueueCapacity")).isEqualTo(32);
        assertThat(server.getAttribute(dbBean, "Readers")).isEqualTo(3);
        assertThat(server.getAttribute(dbBean, "WriterPoisoned")).isEqualTo(false);
        assertThat(server.getAttribute(dbBean, "PoisonCause")).isNull();
        assertThat(server.getAttribute(dbBean, "CheckpointMode"))
                .isEqualTo(db.diagnostics().checkpoints().mode().name());
        assertThat((Long) server.getAttribute(dbBean, "WalBytes"))
                .isEqualTo(Files.size(dir.resolve("orders.db-wal"))).isPositive();
        assertThat(server.getAttribute(dbBean, "LastCheckpoint")).isNull();

        assertThat(server.getAttribute(dbBean, "TransactionOpen")).isEqualTo(false);
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('in tx')");
            assertThat(server.getAttribute(dbBean, "TransactionOpen")).isEqualTo(true);
            assertThat((Long) server.getAttribute(dbBean, "TransactionAgeMillis"))
                    .isGreaterThanOrEqualTo(0);
            tx.rollback();
        }

        LanesRuntimeMXBean proxy = JMX.newMXBeanProxy(server, runtimeBean,
                LanesRuntimeMXBean.class);
        assertThat(proxy.getOpenDatabases()).isEqualTo(1);
        assertThat(proxy.getOpenConnections())
                .isEqualTo(lanes.diagnostics().openConnections()).isPositive();
        assertThat(proxy.getDatabasesByState()).isEqualTo(Map.of("RUNNING", 1, "CLOSING", 0,
                "CLOSED", 0, "DEAD", 0, "POISONED", 0));
        lanes.open(dir.resolve("archive.db"));
        assertThat(proxy.databaseNames(0, 10)).containsExactly("archive.db", "orders.db");
        assertThat(proxy.databaseNames(1, 10)).containsExactly("orders.db");
        assertThat(proxy.databaseNames(2, 10)).isEmpty();
        assertThat(proxy.databaseNames(0, 1)).containsExactly("archive.db");
        RuntimeMBeanException negative = catchThrowableOfType(RuntimeMBeanException.class,
                () -> server.invoke(runtimeBean, "databaseNames", new Object[] {-1, 10},
                        new String[] {"int", "int"}));
        assertThat(negative.getTargetException()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void checkpointAndBackupRunAsOperationsAndFailWithStandardExceptions() throws Exception {
        String rt = uniqueName("operations");
        Lanes lanes = runtime(rt);
        Database db = lanes.open(dir.resolve("ops.db"));
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
        db.execute("INSERT INTO t(v) VALUES ('kept')");
        ObjectName bean = databaseBean(rt, "ops.db");

        Object report = server.invoke(bean, "checkpoint", new Object[0], new String[0]);
        assertThat((String) report).startsWith("busy=false, walFrames=")
                .contains("checkpointedFrames=");
        assertThat(server.getAttribute(bean, "CheckpointsCompleted")).isEqualTo(1L);
        assertThat((String) server.getAttribute(bean, "LastCheckpoint")).startsWith("PASSIVE at ")
                .endsWith((String) report);

        Path copy = dir.resolve("copy.db");
        server.invoke(bean, "backup", new Object[] {copy.toString()},
                new String[] {String.class.getName()});
        assertThat(rowsIn(copy)).isEqualTo(1);

        // the target exists now: refused, with the Lanes message in a standard exception
        String lanesMessage = catchThrowableOfType(InvalidRequestException.class,
                () -> db.backup(copy)).getMessage();
        RuntimeMBeanException exists = catchThrowableOfType(RuntimeMBeanException.class,
                () -> server.invoke(bean, "backup", new Object[] {copy.toString()},
                        new String[] {String.class.getName()}));
        assertThat(exists.getTargetException()).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("INVALID_REQUEST: " + lanesMessage)
                .hasNoCause();

        Database external = lanes.open(dir.resolve("external.db"),
                DatabaseOptions.builder().checkpointMode(CheckpointMode.EXTERNAL).build());
        external.execute("CREATE TABLE t(v TEXT)");
        RuntimeMBeanException refused = catchThrowableOfType(RuntimeMBeanException.class,
                () -> server.invoke(databaseBean(rt, "external.db"), "checkpoint",
                        new Object[0], new String[0]));
        assertThat(refused.getTargetException()).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("INVALID_REQUEST: external.db: checkpointMode is "
                        + "EXTERNAL");
    }

    @Test
    void beansGoAwayWhenTheirDatabaseClosesAndWhenTheRuntimeCloses() throws Exception {
        String rt = uniqueName("lifetimes");
        Lanes lanes = runtime(rt);
        Database a = lanes.open(dir.resolve("a.db"));
        Database b = lanes.open(dir.resolve("b.db"));
        assertThat(databaseBeans(rt)).containsExactly("a.db", "b.db");

        a.close();
        assertThat(databaseBeans(rt)).containsExactly("b.db");

        // the same path opened again gets a bean again, the old one being gone
        Database again = lanes.open(dir.resolve("a.db"));
        again.execute("CREATE TABLE t(v TEXT)");
        assertThat(databaseBeans(rt)).containsExactly("a.db", "b.db");
        assertThat(server.getAttribute(databaseBean(rt, "a.db"), "CommittedWrites"))
                .isEqualTo(1L);

        lanes.close();
        assertThat(databaseBeans(rt)).isEmpty();
        assertThat(server.isRegistered(name("dev.lanes:type=Runtime,name=" + rt))).isFalse();
        assertThat(b.state()).isEqualTo(dev.lanes.DatabaseState.CLOSED);
    }

    @Test
    void theCapOnDatabaseBeansHoldsAndWarnsOnce() throws Exception {
        String rt = uniqueName("capped");
        Lanes lanes = runtime(rt, Lanes.builder().maxThreads(2).registerMBeans(true)
                .maxDatabaseMBeans(2));
        List<Database> dbs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            dbs.add(lanes.open(dir.resolve("db" + i + ".db")));
        }
        assertThat(databaseBeans(rt)).containsExactly("db0.db", "db1.db");
        assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().contains("maxDatabaseMBeans")).singleElement()
                .satisfies(e -> assertThat(e.getFormattedMessage()).startsWith(rt + ": 2 "
                        + "databases have management beans"));

        // a bean's database closes: a database opened later may have one again
        dbs.get(0).close();
        lanes.open(dir.resolve("db4.db"));
        assertThat(databaseBeans(rt)).containsExactly("db1.db", "db4.db");
        lanes.open(dir.resolve("db5.db"));
        assertThat(databaseBeans(rt)).hasSize(2);
        assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().contains("maxDatabaseMBeans")).hasSize(1);
    }

    @Test
    void aSecondRuntimeOfTheSameNameRegistersNothingAndSaysSo() throws Exception {
        String rt = uniqueName("twins");
        Lanes first = runtime(rt, Lanes.builder().maxThreads(2).registerMBeans(true));
        Lanes second = runtime(rt, Lanes.builder().maxThreads(5).registerMBeans(true));
        assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
                .satisfies(e -> assertThat(e.getFormattedMessage())
                        .contains("dev.lanes:type=Runtime,name=" + rt)
                        .contains("registered already"));
        ObjectName runtimeBean = name("dev.lanes:type=Runtime,name=" + rt);
        assertThat(server.getAttribute(runtimeBean, "MaxThreads")).as("the first's").isEqualTo(2);

        first.open(dir.resolve("mine.db"));
        second.open(dir.resolve("theirs.db"));
        assertThat(databaseBeans(rt)).containsExactly("mine.db");

        second.close();
        assertThat(server.isRegistered(runtimeBean)).as("the first's stays").isTrue();
        assertThat(databaseBeans(rt)).containsExactly("mine.db");
    }

    @Test
    void namesThatAnObjectNameDoesNotAllowAreQuoted() throws Exception {
        String rt = uniqueName("a,b:c");
        Lanes lanes = runtime(rt);
        ObjectName quoted = name("dev.lanes:type=Runtime,name=" + ObjectName.quote(rt));
        assertThat(server.isRegistered(quoted)).isTrue();
        assertThat(LanesObjectNames.runtime(rt)).isEqualTo(quoted);
        assertThat(ObjectName.unquote(quoted.getKeyProperty("name"))).isEqualTo(rt);

        lanes.open(dir.resolve("x=y.db"));
        ObjectName db = name("dev.lanes:type=Database,runtime=" + ObjectName.quote(rt)
                + ",name=" + ObjectName.quote("x=y.db"));
        assertThat(server.isRegistered(db)).isTrue();
        assertThat(server.getAttribute(db, "State")).isEqualTo("RUNNING");
        assertThat(LanesObjectNames.database("plain", "orders.db"))
                .isEqualTo(name("dev.lanes:type=Database,runtime=plain,name=orders.db"));
    }

    @Test
    void beansAreOffByDefaultAndGoOnTheServerGiven() throws Exception {
        String off = uniqueName("off");
        runtime(off, Lanes.builder().maxThreads(1)).open(dir.resolve("quiet.db"));
        assertThat(server.queryNames(name("dev.lanes:*,name=" + off), null)).isEmpty();
        assertThat(databaseBeans(off)).isEmpty();

        MBeanServer own = MBeanServerFactory.newMBeanServer(); // kept by no factory list
        String rt = uniqueName("own");
        Lanes lanes = runtime(rt, Lanes.builder().maxThreads(1).registerMBeans(true)
                .mbeanServer(own));
        lanes.open(dir.resolve("elsewhere.db"));
        assertThat(own.isRegistered(name("dev.lanes:type=Runtime,name=" + rt))).isTrue();
        assertThat(own.isRegistered(databaseBean(rt, "elsewhere.db"))).isTrue();
        assertThat(server.isRegistered(name("dev.lanes:type=Runtime,name=" + rt))).isFalse();
        lanes.close();
        assertThat(own.queryNames(name("dev.lanes:*"), null)).isEmpty();

        IllegalStateException withoutSwitch = catchThrowableOfType(IllegalStateException.class,
                () -> Lanes.builder().mbeanServer(own).build());
        assertThat(withoutSwitch).hasMessageContaining("registerMBeans(true)");
        assertThat(catchThrowableOfType(IllegalStateException.class,
                () -> Lanes.builder().maxDatabaseMBeans(5).build()))
                .hasMessageContaining("maxDatabaseMBeans");
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> Lanes.builder().maxDatabaseMBeans(-1))).hasMessageContaining("-1");
    }
}
