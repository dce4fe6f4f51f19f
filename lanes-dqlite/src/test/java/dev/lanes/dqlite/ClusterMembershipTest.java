package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.dqlite.testing.LocalCluster;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Membership of a real cluster through the client: a fourth node added (ADD), assigned each role
 * (ASSIGN), and removed (REMOVE), with the leader's CLUSTER listing and the client's node list
 * following each change.
 */
@Tag("slow")
@Timeout(60)
class ClusterMembershipTest {
    private static LocalCluster cluster;
    private static DqliteCluster client;

    @BeforeAll
    static void startCluster() {
        cluster = TestCluster.start(3);
        client = cluster.client();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static DqliteRole roleOf(long id) {
        return client.members().stream().filter(m -> m.id() == id).findFirst().map(DqliteNode::role)
                .orElse(null);
    }

    @Test
    void aFourthNodeIsAddedAssignedEveryRoleAndRemoved() {
        LocalCluster.Node fourth = cluster.startExtraNode(4);
        assertThat(client.members()).extracting(DqliteNode::id).containsExactly(1L, 2L, 3L);

        client.add(4, fourth.address());
        assertThat(client.members()).contains(new DqliteNode(4, fourth.address(), DqliteRole.SPARE));
        assertThat(client.knownNodes()).contains(fourth.address());

        client.assign(4, DqliteRole.STANDBY);
        assertThat(roleOf(4)).isEqualTo(DqliteRole.STANDBY);

        client.assign(4, DqliteRole.VOTER);
        assertThat(client.members()).hasSize(4).allMatch(m -> m.role() == DqliteRole.VOTER);
        try (DqliteSession session = client.connect("members")) {
            // a commit now needs three of four voters; it still goes through
            session.exec("CREATE TABLE m(x)");
            session.exec("INSERT INTO m VALUES (1)");
        }
        // the new voter knows the leader, so a client that knows only it finds the leader
        DqliteCluster throughFourth = DqliteCluster.builder().nodes(fourth.address()).build();
        assertThat(throughFourth.leader().address()).isEqualTo(client.leader().address());

        client.assign(4, DqliteRole.SPARE);
        assertThat(roleOf(4)).isEqualTo(DqliteRole.SPARE);

        client.remove(4);
        List<DqliteNode> members = client.members();
        assertThat(members).extracting(DqliteNode::id).containsExactly(1L, 2L, 3L);
        assertThat(members).allMatch(m -> m.role() == DqliteRole.VOTER);
        // a removed node that was no seed leaves the list discovery asks
        assertThat(client.knownNodes()).doesNotContain(fourth.address()).hasSize(3);
        cluster.kill9(fourth);
    }

    @Test
    void aChangeTheLeaderRefusesIsTypedAndChangesNothing() {
        DqliteServerException unknown = catchThrowableOfType(() -> client.assign(99, DqliteRole.VOTER),
                DqliteServerException.class);
        assertThat(unknown.code()).isEqualTo(DqliteCodes.ERROR);
        // a membership failure other than not-leader or busy is reported as may-have-run: the
        // server gives the same code for a refusal and for a change that failed once appended
        assertThat(unknown.mayHaveRun()).isTrue();
        DqliteServerException duplicate = catchThrowableOfType(() -> client.add(2, "127.0.0.1:1"),
                DqliteServerException.class);
        assertThat(duplicate.code()).isEqualTo(DqliteCodes.ERROR);
        assertThat(client.members()).extracting(DqliteNode::id).containsExactly(1L, 2L, 3L);
    }
}
