package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.dqlite.internal.client.Connection;
import dev.lanes.dqlite.internal.wire.RequestType;
import dev.lanes.dqlite.testing.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults of a real 3-node cluster (a fresh one per test): the leader killed with a commit in
 * flight, both followers frozen under a COMMIT, a node that stopped leading, a killed follower that
 * comes back. In each, a request that may have run says so and is never sent again, a request
 * that did not run says that, and the client finds the new leader in bounded time.
 */
@Tag("slow")
@Timeout(90)
class ClusterFaultTest {
    /** Generous against the ~0.4 s a 10 ms-latency cluster needs to elect a new leader. */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(10);

    private LocalCluster cluster;
    private final AtomicBoolean armed = new AtomicBoolean();
    private final AtomicInteger armedExecs = new AtomicInteger();
    private final CountDownLatch armedExecSent = new CountDownLatch(1);
    private DqliteCluster client;

    @BeforeEach
    void startCluster() {
        cluster = TestCluster.start(3);
        // counts the EXEC_SQL requests written while armed, and signals the first
        client = cluster.clientBuilder().events((address, type) -> {
            if (type == RequestType.EXEC_SQL && armed.get()) {
                armedExecs.incrementAndGet();
                armedExecSent.countDown();
            }
        }).build();
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static long count(DqliteSession session, String sql, Object... params) {
        return (Long) session.query(sql, params).rows().get(0).get(0);
    }

    @Test
    void killingTheLeaderWithACommitInFlightReportsMayHaveRunAndTheClientFindsTheNewLeader() throws Exception {
        DqliteSession session = client.connect("app");
        LocalCluster.Node leader = cluster.byAddress(session.node());
        session.exec("CREATE TABLE t(v TEXT)");
        for (int k = 0; k < 20; k++) {
            session.exec("INSERT INTO t VALUES (?)", "acked-" + k);
        }

        // freeze the leader so that the commit is certainly in flight, unanswered, when it dies
        cluster.freeze(leader);
        armed.set(true);
        CompletableFuture<DqliteResult> inFlight = CompletableFuture.supplyAsync(
                () -> session.exec("INSERT INTO t VALUES ('in-flight')"));
        assertThat(armedExecSent.await(10, TimeUnit.SECONDS)).isTrue();
        cluster.kill9(leader);
        long killed = System.nanoTime();

        Throwable failure = catchThrowable(() -> inFlight.get(10, TimeUnit.SECONDS)).getCause();
        assertThat(failure).isInstanceOf(DqliteConnectionException.class);
        assertThat(((DqliteException) failure).mayHaveRun()).isTrue();
        assertThat(failure.getMessage()).contains("may have run");
        assertThat(session.isOpen()).isFalse();

        try (DqliteSession next = client.connect("app")) {
            Duration failover = Duration.ofNanos(System.nanoTime() - killed);
            assertThat(failover).isLessThan(FAILOVER_BOUND);
            assertThat(next.node()).isNotEqualTo(leader.address());
            // every acknowledged commit survived; the one in flight was never sent again
            assertThat(count(next, "SELECT count(*) FROM t WHERE v LIKE 'acked-%'")).isEqualTo(20);
            assertThat(count(next, "SELECT count(*) FROM t WHERE v = 'in-flight'")).isZero();
            assertThat(armedExecs.get()).isEqualTo(1);
            next.exec("INSERT INTO t VALUES ('after')");
            assertThat(count(next, "SELECT count(*) FROM t")).isEqualTo(21);
        }
    }

    @Test
    void aCommitWhoseFollowersAreFrozenIsLeadershipLostOrTimedOutAndMayHaveRun() {
        DqliteSession session = client.connect("app");
        session.exec("CREATE TABLE t(v TEXT)");
        List<LocalCluster.Node> followers = cluster.nodes().stream()
                .filter(n -> !n.address().equals(session.node())).toList();

        followers.forEach(cluster::freeze);
        // only COMMIT replicates: the transaction's statements still run on the leader alone
        session.exec("BEGIN");
        session.exec("INSERT INTO t VALUES ('unknown')");
        armed.set(true);
        DqliteException commit = catchThrowableOfType(() -> session.exec("COMMIT"), DqliteException.class);
        followers.forEach(cluster::thaw);

        assertThat(commit).isInstanceOfAny(DqliteLeadershipLostException.class, DqliteTimeoutException.class);
        assertThat(commit.mayHaveRun()).isTrue();
        if (commit instanceof DqliteLeadershipLostException lost) {
            assertThat(lost.code()).isEqualTo(10506);
            assertThat(lost.serverMessage()).isEqualTo("disk I/O error");
        }
        assertThat(session.isOpen()).isFalse();
        assertThat(armedExecs.get()).isEqualTo(1);

        try (DqliteSession next = client.connect("app")) {
            // either outcome is possible (both have been seen); it is never applied twice
            assertThat(count(next, "SELECT count(*) FROM t WHERE v = 'unknown'")).isBetween(0L, 1L);
            next.exec("INSERT INTO t VALUES ('after')");
            assertThat(count(next, "SELECT count(*) FROM t WHERE v = 'after'")).isEqualTo(1);
        }
    }

    @Test
    void aNodeThatStoppedLeadingRefusesAsNotLeaderAndTheSessionCloses() {
        DqliteSession stale = client.connect("app");
        stale.exec("CREATE TABLE t(v TEXT)");
        LocalCluster.Node old = cluster.byAddress(stale.node());

        cluster.freeze(old);
        String newLeader;
        try (DqliteSession next = client.connect("app")) {
            newLeader = next.node();
            next.exec("INSERT INTO t VALUES ('new leader')");
        }
        cluster.thaw(old);
        awaitFollowerOf(old, newLeader);

        DqliteNotLeaderException refused = catchThrowableOfType(
                () -> stale.exec("INSERT INTO t VALUES ('stale')"), DqliteNotLeaderException.class);
        assertThat(refused.mayHaveRun()).isFalse();
        assertThat(refused.node()).isEqualTo(old.address());
        assertThat(stale.isOpen()).isFalse();
        DqliteConnectionException closed = catchThrowableOfType(
                () -> stale.exec("INSERT INTO t VALUES ('stale')"), DqliteConnectionException.class);
        assertThat(closed.mayHaveRun()).isFalse();
        assertThat(closed.getMessage()).contains("stopped leading");

        try (DqliteSession next = client.connect("app")) {
            assertThat(next.query("SELECT v FROM t").rows()).containsExactly(List.of("new leader"));
        }
    }

    @Test
    void aKilledFollowerComesBackAndNoAcknowledgedCommitIsLostWhenTheLeaderDies() {
        DqliteSession session = client.connect("app");
        session.exec("CREATE TABLE t(n INTEGER)");
        LocalCluster.Node leader = cluster.byAddress(session.node());
        LocalCluster.Node follower = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElseThrow();

        cluster.kill9(follower);
        for (long n = 0; n < 50; n++) {
            session.exec("INSERT INTO t VALUES (?)", n);
        }
        cluster.restart(follower);
        for (long n = 50; n < 60; n++) {
            session.exec("INSERT INTO t VALUES (?)", n);
        }
        cluster.kill9(leader);
        assertThat(session.isOpen()).isTrue(); // nothing was sent since: it learns at its next request

        try (DqliteSession next = client.connect("app")) {
            assertThat(next.node()).isNotEqualTo(leader.address());
            assertThat(next.query("SELECT count(*), min(n), max(n) FROM t").rows().get(0))
                    .containsExactly(60L, 0L, 59L);
        }
        DqliteConnectionException lost = catchThrowableOfType(() -> session.query("SELECT 1"),
                DqliteConnectionException.class);
        assertThat(lost.node()).isEqualTo(leader.address());
    }

    /** Waits, bounded, until {@code node} answers LEADER with {@code leader}. */
    private static void awaitFollowerOf(LocalCluster.Node node, String leader) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try (Connection connection = TestCluster.rawConnection(node.address())) {
                if (connection.leader().address().equals(leader)) {
                    return;
                }
            } catch (DqliteException e) {
                // not answering yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(node + " never named " + leader + " leader");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
}
