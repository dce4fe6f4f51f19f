package dev.lanes.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.BatchFailedException;
import dev.lanes.BusyException;
import dev.lanes.Change;
import dev.lanes.CheckpointResult;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.Statement;
import dev.lanes.Synchronous;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.cluster.SqliteClusterEngine.CommitFault;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster database's rules, on an engine whose sessions are local SQLite connections with
 * planted faults: an uncertain COMMIT is resolved by the group id, never guessed and never sent
 * twice; a commit refused by a node that stopped leading runs again; an unresolvable one is
 * UNKNOWN and poisons the writer; BEGIN refused busy is retried within busyTimeout; what a cluster
 * cannot do is refused before anything runs; maintenance, backup and checkpoint do what a
 * cluster can. The real cluster's tests are in lanes-dqlite.
 */
@Timeout(60)
class ClusterDatabaseTest {
    @TempDir
    Path dir;
    private Lanes lanes;
    private SqliteClusterEngine engine;
    private Database db;

    @BeforeEach
    void open() {
        lanes = Lanes.builder().name("cluster-test").maxThreads(4).build();
        engine = new SqliteClusterEngine(dir);
        db = lanes.openCluster(engine, "app", options(Duration.ofSeconds(2)));
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
    }

    @AfterEach
    void close() {
        lanes.close();
    }

    private static DatabaseOptions options(Duration busyTimeout) {
        return DatabaseOptions.builder().busyTimeout(busyTimeout).build();
    }

    private long count(String sql, Object... args) {
        return db.query(sql, args).get(0).getLong("n");
    }

    private Resolutions.Counts resolutions() {
        return ((ClusterDatabase) db).resolutions();
    }

    @Test
    void writesCommitThroughTheLaneAndEveryGroupRecordsItsId() {
        long version = db.changeVersion();
        assertThat(db.execute("INSERT INTO t(v) VALUES (?)", "a")).isEqualTo(1);
        assertThat(db.executeBatch(List.of(Statement.of("INSERT INTO t(v) VALUES (?)", "b"),
                Statement.of("UPDATE t SET v = v || '!' WHERE v = ?", "b")))).containsExactly(1, 1);

        assertThat(db.query("SELECT v FROM t ORDER BY id")).extracting(r -> r.getString("v"))
                .containsExactly("a", "b!");
        assertThat(db.changeVersion()).isEqualTo(version + 2);
        // the CREATE TABLE, the insert and the batch: one id each, none marked a resolution's
        assertThat(count("SELECT count(*) AS n FROM _lanes_groups WHERE resolution = 0"))
                .isEqualTo(3);
    }

    @Test
    void aCommitThatAppliedBeforeTheConnectionDroppedIsResolvedCommittedAndNeverSentAgain() {
        engine.failNextCommit(CommitFault.APPLIED_THEN_DROPPED);

        assertThat(db.execute("INSERT INTO t(v) VALUES (?)", "once")).isEqualTo(1);

        assertThat(count("SELECT count(*) AS n FROM t WHERE v = 'once'")).isEqualTo(1);
        assertThat(engine.sentCount("INSERT INTO t(v) VALUES (?)")).isEqualTo(1);
        assertThat(resolutions()).isEqualTo(new Resolutions.Counts(1, 0, 0));
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void aCommitThatNeverReachedTheNodeIsResolvedNotAppliedAndItsWritesRunOnceMore() {
        engine.failNextCommit(CommitFault.DROPPED_BEFORE);

        assertThat(db.execute("INSERT INTO t(v) VALUES (?)", "again")).isEqualTo(1);

        assertThat(count("SELECT count(*) AS n FROM t WHERE v = 'again'")).isEqualTo(1);
        assertThat(engine.sentCount("INSERT INTO t(v) VALUES (?)")).isEqualTo(2);
        assertThat(resolutions()).isEqualTo(new Resolutions.Counts(0, 1, 0));
        assertThat(db.diagnostics().writer().counters().replays()).isEqualTo(1);
        // the lost group's id is the resolution's now: it can never commit later
        assertThat(count("SELECT count(*) AS n FROM _lanes_groups WHERE resolution = 1"))
                .isEqualTo(1);
    }

    @Test
    void aResolutionThatWaitsForTheNewLeaderStillResolves() {
        engine.failNextCommit(CommitFault.APPLIED_THEN_DROPPED);
        engine.unreachableFor(3); // the election takes three attempts' time

        assertThat(db.execute("INSERT INTO t(v) VALUES (?)", "late")).isEqualTo(1);

        assertThat(resolutions()).isEqualTo(new Resolutions.Counts(1, 0, 0));
        assertThat(count("SELECT count(*) AS n FROM t WHERE v = 'late'")).isEqualTo(1);
    }

    @Test
    void aCommitRefusedByANodeThatStoppedLeadingRunsAgainWithoutAResolution() {
        engine.failNextCommit(CommitFault.NOT_LEADER);

        assertThat(db.execute("INSERT INTO t(v) VALUES (?)", "moved")).isEqualTo(1);

        assertThat(count("SELECT count(*) AS n FROM t WHERE v = 'moved'")).isEqualTo(1);
        assertThat(resolutions().total()).isZero();
        assertThat(db.diagnostics().writer().counters().replays()).isEqualTo(1);
    }

    @Test
    void aCommitThatCannotBeResolvedIsUnknownAndPoisonsTheWriter() {
        engine.failNextCommit(CommitFault.DROPPED_BEFORE);
        engine.unreachable();

        WriteFailedException unknown = catchThrowableOfType(
                () -> db.execute("INSERT INTO t(v) VALUES (?)", "lost"), WriteFailedException.class);

        assertThat(unknown.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(resolutions()).isEqualTo(new Resolutions.Counts(0, 0, 1));
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
        engine.reachable();
        WriterPoisonedException refused = catchThrowableOfType(
                () -> db.execute("INSERT INTO t(v) VALUES (?)", "after"),
                WriterPoisonedException.class);
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        // reads go on, and show that nothing of the lost group was applied (it never reached)
        assertThat(count("SELECT count(*) AS n FROM t")).isZero();
    }

    @Test
    void aSessionLostInsideTheGroupRollsItBackAndTheCulpritFailsRolledBack() {
        engine.dropNextStatement("'dropped'");

        WriteFailedException failed = catchThrowableOfType(
                () -> db.execute("INSERT INTO t(v) VALUES ('dropped')"),
                WriteFailedException.class);

        assertThat(failed.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(db.execute("INSERT INTO t(v) VALUES ('next')")).isEqualTo(1);
        assertThat(count("SELECT count(*) AS n FROM t")).isEqualTo(1);
    }

    @Test
    void aFailedStatementRollsBackAloneAndItsTransactionGoesOn() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('taken')");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('mine')");
        WriteFailedException duplicate = catchThrowableOfType(
                () -> tx.execute("INSERT INTO t(v) VALUES ('taken')"), WriteFailedException.class);
        assertThat(duplicate.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(tx.isOpen()).isTrue();
        assertThat(tx.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
        tx.commit();

        assertThat(count("SELECT count(*) AS n FROM t")).isEqualTo(2);
    }

    @Test
    void aTransactionThatLosesItsSessionBeforeCommitIsRolledBack() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('first')");
        engine.dropNextStatement("'second'");

        WriteFailedException lost = catchThrowableOfType(
                () -> tx.execute("INSERT INTO t(v) VALUES ('second')"), WriteFailedException.class);

        assertThat(lost.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(tx.isOpen()).isFalse();
        assertThat(count("SELECT count(*) AS n FROM t")).isZero();
        assertThat(db.execute("INSERT INTO t(v) VALUES ('after')")).isEqualTo(1);
    }

    @Test
    void anInteractiveCommitProvenNotAppliedIsRolledBack() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('tx')");
        engine.failNextCommit(CommitFault.DROPPED_BEFORE);

        WriteFailedException failed = catchThrowableOfType(tx::commit, WriteFailedException.class);

        assertThat(failed.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(resolutions()).isEqualTo(new Resolutions.Counts(0, 1, 0));
        assertThat(count("SELECT count(*) AS n FROM t")).isZero();
    }

    @Test
    void aBatchIsAllOrNothing() {
        BatchFailedException failed = catchThrowableOfType(() -> db.executeBatch(List.of(
                Statement.of("INSERT INTO t(v) VALUES ('x')"),
                Statement.of("INSERT INTO t(v) VALUES ('x')"))), BatchFailedException.class);

        assertThat(failed.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(failed.getMessage()).contains("statement 1");
        assertThat(count("SELECT count(*) AS n FROM t")).isZero();
    }

    @Test
    void beginRefusedBusyIsRetriedWithinTheBusyTimeout() throws Exception {
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("app"));
                var s = other.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            CompletableFuture<Integer> write = CompletableFuture.supplyAsync(
                    () -> db.execute("INSERT INTO t(v) VALUES ('waited')"));
            assertThat(engine.firstBusy.await(10, TimeUnit.SECONDS)).isTrue();
            s.execute("ROLLBACK");
            assertThat(write.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
        assertThat(db.diagnostics().writer().counters().busyAbsorbed()).isPositive();
    }

    @Test
    void beginRefusedBusyForTheWholeBusyTimeoutFailsNotStarted() throws Exception {
        Database quick = lanes.openCluster(engine, "quick", options(Duration.ofMillis(200)));
        quick.execute("CREATE TABLE q(v TEXT)");
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("quick"));
                var s = other.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            BusyException busy = catchThrowableOfType(
                    () -> quick.execute("INSERT INTO q VALUES ('never')"), BusyException.class);
            assertThat(busy.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            s.execute("ROLLBACK");
        }
        assertThat(quick.query("SELECT count(*) AS n FROM q").get(0).getLong("n")).isZero();
    }

    @Test
    void corkedWritesAreOneTransactionThatReadsSeeAndUncorkCommits() {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('c1')");
        db.execute("INSERT INTO t(v) VALUES ('c2')");
        assertThat(count("SELECT count(*) AS n FROM t")).isEqualTo(2); // read on the lane
        db.uncork();

        assertThat(count("SELECT count(*) AS n FROM t")).isEqualTo(2);
        assertThat(count("SELECT count(*) AS n FROM _lanes_groups")).isEqualTo(2); // DDL, cork
    }

    @Test
    void whatReturnsRowsFromAWriteIsRefusedBeforeAnythingRuns() {
        Transaction tx = db.begin();
        List<Runnable> refused = List.of(
                () -> db.execute("SELECT 1"),
                () -> db.execute("INSERT INTO t(v) VALUES ('r') RETURNING id"),
                () -> db.execute("INSERT INTO t(v) VALUES ('a'); INSERT INTO t(v) VALUES ('b')"));
        for (Runnable r : refused) {
            InvalidRequestException e = catchThrowableOfType(r::run, InvalidRequestException.class);
            assertThat(e).isNotNull();
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        }
        assertThat(tx.isOpen()).isTrue();
        tx.rollback();
        assertThat(catchThrowableOfType(() -> db.query("DELETE FROM t"),
                ReadOnlyViolationException.class)).isNotNull();
        assertThat(count("SELECT count(*) AS n FROM t")).isZero();
    }

    @Test
    void maintenanceRunsWithoutTheWrapBackupCopiesAndCheckpointRunsNone() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('kept')");
        db.maintenance(c -> c.createStatement().executeUpdate("CREATE INDEX t_id ON t(id, v)"));
        assertThat(db.checkpoint()).isEqualTo(new CheckpointResult(false, -1, -1));
        Path copy = dir.resolve("copy.db");

        db.backup(copy);

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy)) {
            ResultSet rs = c.createStatement().executeQuery("SELECT (SELECT v FROM t), (SELECT "
                    + "count(*) FROM sqlite_master WHERE name = 't_id')");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("kept");
            assertThat(rs.getInt(2)).isEqualTo(1);
        }
        InvalidRequestException exists = catchThrowableOfType(() -> db.backup(copy),
                InvalidRequestException.class);
        assertThat(exists.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
    }

    @Test
    void anOptionOnlyALocalFileHasIsRefusedAtOpenNamingIt() {
        InvalidRequestException e = catchThrowableOfType(() -> lanes.openCluster(engine, "other",
                DatabaseOptions.builder().synchronous(Synchronous.FULL).build()),
                InvalidRequestException.class);

        assertThat(e.getMessage()).contains("synchronous", "FULL");
        assertThat(engine.opens.get()).isEqualTo(1); // the one of setUp; nothing was opened
    }

    @Test
    void aCommitFenceIsRefusedAtOpenNamingIt() {
        dev.lanes.spi.CommitFence fence = new dev.lanes.spi.CommitFence() {
            @Override
            public void beforeCommit(java.sql.Connection connection) {}

            @Override
            public boolean heldThroughCommit() {
                return true;
            }
        };
        InvalidRequestException e = catchThrowableOfType(() -> lanes.openCluster(engine, "other",
                DatabaseOptions.builder().commitFence(fence).build()),
                InvalidRequestException.class);

        assertThat(e.getMessage()).contains("commitFence", "refused on a cluster database");
        assertThat(engine.opens.get()).isEqualTo(1); // the one of setUp; nothing was opened
    }

    @Test
    void theSameNameOnTheSameEngineIsTheSameDatabaseAndTheRuntimeClosesIt() {
        assertThat(lanes.openCluster(engine, "app", options(Duration.ofSeconds(2)))).isSameAs(db);
        LanesException other = catchThrowableOfType(() -> lanes.openCluster(engine, "app",
                options(Duration.ofSeconds(3))), InvalidRequestException.class);
        assertThat(other.getMessage()).contains("busyTimeout");

        lanes.close();

        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
    }

    @Test
    void aClusterWithNoLeaderAtOpenFailsTheOpen() {
        engine.unreachable();
        LanesException dead = catchThrowableOfType(() -> lanes.openCluster(engine, "nowhere",
                options(Duration.ofMillis(100))), LanesException.class);

        assertThat(dead).hasMessageContaining("no leader");
        engine.reachable();
        Database later = lanes.openCluster(engine, "nowhere", options(Duration.ofMillis(100)));
        assertThat(later.state()).isEqualTo(DatabaseState.RUNNING);
    }

    @Test
    void changeNotificationsCarryTheVersionOnly() throws Exception {
        LinkedBlockingQueue<Change> seen = new LinkedBlockingQueue<>();
        try (var subscription = db.onChange(seen::add)) {
            db.execute("INSERT INTO t(v) VALUES ('n')");
            Change change = seen.poll(10, TimeUnit.SECONDS);
            assertThat(change).isNotNull();
            assertThat(change.version()).isEqualTo(db.changeVersion());
            assertThat(change.tables()).isEmpty();
        }
    }

    @Test
    void aClusterDatabaseHasAManagementBeanWhileItIsOpenAsALocalOneHas() throws Exception {
        javax.management.MBeanServer server =
                java.lang.management.ManagementFactory.getPlatformMBeanServer();
        String runtime = "cluster-beans-" + ProcessHandle.current().pid();
        try (Lanes withBeans = Lanes.builder().name(runtime).maxThreads(2).registerMBeans(true)
                .build()) {
            Database beaned = withBeans.openCluster(new SqliteClusterEngine(dir),
                    "beaned", options(Duration.ofSeconds(2)));
            javax.management.ObjectName pattern = new javax.management.ObjectName(
                    "dev.lanes:type=Database,runtime=" + runtime + ",*");
            java.util.Set<javax.management.ObjectName> beans = server.queryNames(pattern, null);
            assertThat(beans).hasSize(1);
            assertThat(server.getAttribute(beans.iterator().next(), "State"))
                    .isEqualTo("RUNNING");
            dev.lanes.jmx.LanesRuntimeMXBean runtimeBean = javax.management.JMX.newMXBeanProxy(
                    server, new javax.management.ObjectName("dev.lanes:type=Runtime,name="
                            + runtime), dev.lanes.jmx.LanesRuntimeMXBean.class);
            assertThat(runtimeBean.databaseNames(0, 10))
                    .as("the runtime lists it with the local ones").containsExactly("beaned");
            assertThat(runtimeBean.getDatabasesByState()).containsEntry("RUNNING", 1);

            beaned.close();
            assertThat(server.queryNames(pattern, null)).as("its bean goes with it").isEmpty();
        }
    }

    @Test
    void anAbandonedRuntimeReportsItsClusterDatabaseClosedUncleanAsItsLocalOnes() {
        java.util.List<String> unclean = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.lanes.MetricsListener listener = new dev.lanes.MetricsListener() {
            @Override
            public void uncleanClose(String name) {
                unclean.add(name);
            }
        };
        dev.lanes.internal.engine.LanesRuntime runtime = new dev.lanes.internal.engine
                .LanesRuntime("abandoned", 2, 512 * 1024, listener, 0, 0);
        try {
            ClusterDatabase.open(runtime, new SqliteClusterEngine(dir),
                    "gone", options(Duration.ofSeconds(2)));

            runtime.abandoned();

            assertThat(unclean).containsExactly("gone");
        } finally {
            runtime.close();
        }
    }
}
