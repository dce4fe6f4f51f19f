package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.dqlite.internal.wire.RequestType;
import dev.lanes.dqlite.testing.LocalCluster;
import dev.lanes.internal.cluster.ClusterDatabase;
import dev.lanes.internal.cluster.Resolutions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster {@link Database} under the faults of a real 3-node dqlite cluster (a fresh one per
 * test), with writers at work: the leader killed during group commits, round after round; both
 * followers frozen under a COMMIT; a follower killed and restarted; a node added and removed.
 * Every time, every acknowledged write is on the (new) leader exactly once, a batch is all or
 * nothing, a write that failed certainly left nothing, and no outcome stays unknown: the
 * uncertain commits are resolved by their group ids, and counted by verdict.
 */
@Tag("slow")
class LanesClusterFaultTest {
    private static final Logger log = LoggerFactory.getLogger(LanesClusterFaultTest.class);
    private static final int WRITERS = 16;

    private LocalCluster cluster;
    private Lanes lanes;
    private WatchedEngine engine;
    private DqliteCluster client;
    /** The node and latch of the next statement the test waits to see sent. */
    private final AtomicReference<String> watchedNode = new AtomicReference<>();
    private final AtomicReference<CountDownLatch> sentToWatched = new AtomicReference<>();
    private Database db;

    @BeforeEach
    void start() {
        cluster = TestCluster.start(3);
        client = cluster.clientBuilder().events((address, type) -> {
            CountDownLatch latch = sentToWatched.get();
            // the lane's sessions run prepared statements (EXEC); COMMIT is prepared by then
            if ((type == RequestType.EXEC || type == RequestType.EXEC_SQL) && latch != null
                    && address.equals(watchedNode.get())) {
                latch.countDown();
            }
        }).build();
        engine = new WatchedEngine(client);
        lanes = Lanes.builder().name("faults").maxThreads(8).build();
        db = lanes.openCluster(engine, "app", DatabaseOptions.builder()
                .busyTimeout(Duration.ofSeconds(20)).writeQueueCapacity(1024).build());
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    }

    @AfterEach
    void stop() {
        if (lanes != null) {
            lanes.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private Resolutions.Counts resolutions() {
        return ((ClusterDatabase) db).resolutions();
    }

    /**
     * Ten rounds: writers at work, the lane's next COMMIT held, then the leader killed with that
     * COMMIT just sent. In odd rounds the leader is frozen first, so the COMMIT certainly never
     * ran there and is resolved not applied (its writes run again); in even rounds it is killed
     * running, and either verdict may come. The killed node restarts as a follower.
     */
    @Test
    @Timeout(300)
    void killingTheLeaderDuringGroupCommitsLosesNoAcknowledgedWriteAndResolvesEveryUncertainCommit()
            throws Exception {
        for (int round = 0; round < 10; round++) {
            boolean frozen = round % 2 == 1;
            try (Writers writers = new Writers(db, WRITERS)) {
                writers.awaitAcks(30);
                WatchedEngine.Hold hold = engine.holdNextCommit();
                String leaderAddress = hold.awaitReached();
                LocalCluster.Node leader = cluster.byAddress(leaderAddress);
                if (frozen) {
                    cluster.freeze(leader);
                }
                CountDownLatch commitSent = new CountDownLatch(1);
                watchedNode.set(leaderAddress);
                sentToWatched.set(commitSent);
                hold.release();
                assertThat(commitSent.await(30, TimeUnit.SECONDS)).isTrue();
                cluster.kill9(leader);
                sentToWatched.set(null);
                writers.awaitAcks(30); // on the new leader
                writers.close();
                log.info("round {} ({}): {}; resolutions {}", round, frozen ? "frozen, then "
                        + "killed" : "killed", writers.outcomes(), resolutions());
                writers.check();
                cluster.restart(leader);
            }
        }
        Resolutions.Counts r = resolutions();
        log.info("after 10 rounds: resolutions {}", r);
        assertThat(r.unresolved()).isZero();
        assertThat(r.notApplied()).isGreaterThanOrEqualTo(5); // the frozen rounds
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    @Timeout(120)
    void aCommitUnderFrozenFollowersIsResolvedOnceTheyRunAgain() throws Exception {
        String leader = client.leader().address();
        List<LocalCluster.Node> followers = cluster.nodes().stream()
                .filter(n -> !n.address().equals(leader)).toList();
        long before = engine.sentCount("INSERT INTO t(v) VALUES (?)");

        followers.forEach(cluster::freeze);
        CountDownLatch commitFailed = engine.nextCommitFailure();
        CompletableFuture<Integer> write = CompletableFuture.supplyAsync(
                () -> db.execute("INSERT INTO t(v) VALUES (?)", "under frozen followers"));
        // 10506 once the leader gives up leading, or the request timeout: either may have run
        assertThat(commitFailed.await(60, TimeUnit.SECONDS)).isTrue();
        followers.forEach(cluster::thaw);

        assertThat(write.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        Resolutions.Counts r = resolutions();
        assertThat(r.total()).isEqualTo(1);
        assertThat(r.unresolved()).isZero();
        long sent = engine.sentCount("INSERT INTO t(v) VALUES (?)") - before;
        // resolved committed: acknowledged as it was; not applied: run once more, never twice
        assertThat(sent).isEqualTo(r.committed() == 1 ? 1 : 2);
        assertThat(db.query("SELECT count(*) AS n FROM t WHERE v = ?", "under frozen followers")
                .get(0).getLong("n")).isEqualTo(1);
    }

    @Test
    @Timeout(120)
    void aFollowerKilledAndRestartedWhileWritingCostsNoWrite() throws Exception {
        String leader = client.leader().address();
        LocalCluster.Node follower = cluster.nodes().stream()
                .filter(n -> !n.address().equals(leader)).findFirst().orElseThrow();
        Writers writers = new Writers(db, WRITERS);
        try (writers) {
            writers.awaitAcks(30);
            cluster.kill9(follower);
            writers.awaitAcks(100); // a majority is still up
            cluster.restart(follower);
            writers.awaitAcks(100);
        }
        assertThat(writers.noFailures()).as(writers.failureSummary()).isTrue();
        assertThat(writers.check()).isGreaterThanOrEqualTo(230);
        assertThat(resolutions().total()).isZero();
    }

    @Test
    @Timeout(120)
    void aNodeAddedAndRemovedWhileWritingCostsNoWrite() throws Exception {
        Writers writers = new Writers(db, WRITERS);
        try (writers) {
            writers.awaitAcks(30);
            LocalCluster.Node fourth = cluster.startExtraNode(4);
            client.add(4, fourth.address());
            client.assign(4, DqliteRole.VOTER);
            writers.awaitAcks(100);
            assertThat(client.members()).extracting(DqliteNode::id).contains(4L);
            client.remove(4);
            writers.awaitAcks(100);
        }
        assertThat(writers.noFailures()).as(writers.failureSummary()).isTrue();
        assertThat(writers.check()).isGreaterThanOrEqualTo(230);
        assertThat(client.members()).extracting(DqliteNode::id).containsExactlyInAnyOrder(1L, 2L,
                3L);
    }
}
