package dev.lanes.dqlite.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.dqlite.DqliteNoLeaderException;
import dev.lanes.dqlite.internal.wire.RequestType;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Leader discovery against scripted nodes: a leader is accepted only when it names itself, a
 * follower's hint is followed, unreachable and leaderless nodes are passed over, rounds repeat
 * with backoff until the deadline, and the node list is refreshed from the leader's CLUSTER.
 */
@Timeout(30)
class LeaderLocatorTest {
    private final List<FakeNode> nodes = new ArrayList<>();

    @AfterEach
    void closeNodes() throws Exception {
        for (FakeNode node : nodes) {
            node.close();
        }
    }

    private FakeNode start(FakeNode.Script script) throws Exception {
        FakeNode node = new FakeNode(script);
        nodes.add(node);
        return node;
    }

    private static ClientConfig config(Duration leaderTimeout) {
        return new ClientConfig(Duration.ofSeconds(1), Duration.ofSeconds(2), leaderTimeout,
                Duration.ofMillis(5), Duration.ofMillis(40), 5, 1 << 20, WireEvents.NONE);
    }

    private static LeaderLocator.Established<Integer> connect(LeaderLocator locator) {
        return locator.connect(connection -> connection.open("app"));
    }

    @Test
    void aFollowersHintLeadsToTheLeaderWhichMustNameItself() throws Exception {
        FakeNode leader = start(FakeNode.leader(2, List.of(), (n, r) -> new FakeNode.Drop()));
        FakeNode follower = start(FakeNode.follower(leader.address()));
        LeaderLocator locator = new LeaderLocator(List.of(follower.address()), config(Duration.ofSeconds(5)));

        LeaderLocator.Established<Integer> found = connect(locator);
        try (Connection connection = found.connection()) {
            assertThat(found.leaderAddress()).isEqualTo(leader.address());
            assertThat(found.leaderId()).isEqualTo(2);
            assertThat(connection.address()).isEqualTo(leader.address());
        }
        // the follower was only asked who leads; the leader registered the client and opened
        assertThat(follower.requests()).extracting(FakeNode.Request::type).containsExactly(RequestType.LEADER.code());
        assertThat(leader.requests()).extracting(FakeNode.Request::type).containsExactly(
                RequestType.LEADER.code(), RequestType.CLIENT.code(), RequestType.CLUSTER.code(),
                RequestType.OPEN.code());
    }

    @Test
    void nodesThatPointAtEachOtherAreNeverTakenForTheLeader() throws Exception {
        List<FakeNode> pair = new ArrayList<>();
        FakeNode.Script pointsAtOther = (node, request) -> {
            FakeNode other = pair.get(0) == node ? pair.get(1) : pair.get(0);
            return request.type() == 0
                    ? FakeNode.reply(FakeNode.server(9, other.address()))
                    : new FakeNode.Drop();
        };
        FakeNode a = start(pointsAtOther);
        FakeNode b = start(pointsAtOther);
        pair.add(a);
        pair.add(b);
        LeaderLocator locator = new LeaderLocator(List.of(a.address()), config(Duration.ofMillis(300)));

        DqliteNoLeaderException e = catchThrowableOfType(() -> connect(locator), DqliteNoLeaderException.class);
        assertThat(e.mayHaveRun()).isFalse();
        assertThat(e.getMessage()).contains("within 300 ms")
                .contains(a.address() + ": follower; names " + b.address())
                .contains(b.address() + ": follower; names " + a.address());
        // several rounds ran, and no node was ever sent anything but LEADER
        assertThat(a.requests().size()).isGreaterThan(1);
        assertThat(a.requests()).allMatch(r -> r.type() == RequestType.LEADER.code());
        assertThat(b.requests()).allMatch(r -> r.type() == RequestType.LEADER.code());
    }

    @Test
    void unreachableAndLeaderlessNodesArePassedOver() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        FakeNode leaderless = start(FakeNode.follower(""));
        FakeNode leader = start(FakeNode.leader(3, List.of(), (n, r) -> new FakeNode.Drop()));
        LeaderLocator locator = new LeaderLocator(
                List.of("127.0.0.1:" + closedPort, leaderless.address(), leader.address()),
                config(Duration.ofSeconds(5)));
        try (Connection connection = connect(locator).connection()) {
            assertThat(connection.address()).isEqualTo(leader.address());
        }
    }

    @Test
    void roundsRepeatUntilANodeLeads() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        FakeNode.Script electedLate = FakeNode.leader(1, List.of(), (n, r) -> new FakeNode.Drop());
        FakeNode node = start((self, request) -> request.type() == 0 && asked.incrementAndGet() <= 3
                ? FakeNode.reply(FakeNode.server(0, ""))
                : electedLate.on(self, request));
        LeaderLocator locator = new LeaderLocator(List.of(node.address()), config(Duration.ofSeconds(5)));
        try (Connection connection = connect(locator).connection()) {
            assertThat(connection.address()).isEqualTo(node.address());
        }
        assertThat(asked.get()).isEqualTo(4);
        assertThat(node.handshakes()).hasSize(4);
    }

    @Test
    void theNodeListComesFromTheLeadersConfiguration() throws Exception {
        FakeNode follower = start(FakeNode.follower(""));
        List<String> members = new ArrayList<>();
        FakeNode leader = start(FakeNode.leader(1, members, (n, r) -> new FakeNode.Drop()));
        members.addAll(List.of(leader.address(), "127.0.0.1:1", follower.address()));
        FakeNode hinting = start(FakeNode.follower(leader.address()));
        LeaderLocator locator = new LeaderLocator(List.of(hinting.address()), config(Duration.ofSeconds(5)));
        assertThat(locator.knownNodes()).containsExactly(hinting.address());

        connect(locator).connection().close();

        // the last leader first, then the members it listed, then the seeds
        assertThat(locator.knownNodes()).containsExactly(leader.address(), "127.0.0.1:1",
                follower.address(), hinting.address());
    }

    @Test
    void aSetupThatFailsIsRetriedOnAFreshConnection() throws Exception {
        AtomicInteger opens = new AtomicInteger();
        FakeNode leader = start(FakeNode.leader(1, List.of(), (n, r) -> new FakeNode.Drop()));
        LeaderLocator locator = new LeaderLocator(List.of(leader.address()), config(Duration.ofSeconds(5)));
        LeaderLocator.Established<Integer> found = locator.connect(connection -> {
            if (opens.incrementAndGet() == 1) {
                connection.close("the first setup fails");
                return connection.open("app"); // fails: closed, nothing sent
            }
            return connection.open("app");
        });
        found.connection().close();
        assertThat(opens.get()).isEqualTo(2);
    }
}
