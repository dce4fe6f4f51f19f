package dev.lanes.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.LanesException;
import dev.lanes.fleet.testing.LocalEtcd;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hot tenant moved back and forth between two nodes in this JVM while one client writes to
 * it with {@code REPLICATED} durability: every acknowledged write is in the last owner's copy
 * and in its replica, each move raises the fencing token, and the run prints each move's pause
 * (the gap between the last write acknowledged before it and the first after), which the nodes'
 * log lines split into phases.
 */
@Tag("slow")
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PlannedMoveTest {
    private static final int MOVES = 6;
    private static final int WRITES_BETWEEN = 5;
    @TempDir static Path dir;
    static Engines engines;

    @BeforeAll
    static void engines() {
        engines = Engines.start(dir, LocalEtcd.Timing.TUNED);
    }

    @AfterAll
    static void stop() {
        if (engines != null) {
            engines.close();
        }
    }

    /** A write acknowledged: its id, the node that served it and when it returned. */
    private record Ack(long id, String node, long endNanos) {}

    @Test
    void aHotTenantKeepsEveryAcknowledgedWriteAcrossMovesBackAndForth() throws Exception {
        try (Fleet a = node("a"); Fleet b = node("b")) {
            FleetTest.await(() -> a.members().size() == 2 && b.members().size() == 2,
                    "both nodes live");
            Map<String, Fleet> nodes = Map.of("a", a, "b", b);
            String tenant = FleetTest.tenantPlacedOn(a);
            a.database(tenant).execute("CREATE TABLE t (id INTEGER PRIMARY KEY, node TEXT)");
            List<Ack> acks = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> write(nodes, tenant, acks, stop), "hot-writer");
            writer.start();
            List<Long> tokens = new ArrayList<>();
            String owner = "a";
            try {
                for (int i = 0; i < MOVES; i++) {
                    int before = acks.size();
                    FleetTest.await(() -> acks.size() >= before + WRITES_BETWEEN,
                            "writes acknowledged before move " + (i + 1));
                    tokens.add(token(nodes.get(owner), tenant));
                    String to = owner.equals("a") ? "b" : "a";
                    assertThat(nodes.get(owner).move(tenant, to)).as("move %d", i + 1).isTrue();
                    owner = to;
                }
                int before = acks.size();
                FleetTest.await(() -> acks.size() >= before + WRITES_BETWEEN,
                        "writes acknowledged after the last move");
            } finally {
                stop.set(true);
                writer.join();
            }
            tokens.add(token(nodes.get(owner), tenant));
            assertThat(tokens).as("fencing token per epoch").isSorted().doesNotHaveDuplicates();
            List<Long> present = new ArrayList<>();
            nodes.get(owner).database(tenant).query("SELECT id FROM t ORDER BY id")
                    .forEach(r -> present.add(r.getLong("id")));
            List<Long> acked = acks.stream().map(Ack::id).toList();
            assertThat(present).containsAll(acked);
            Path copy = Replicas.restore(engines, tenant, tokens.get(tokens.size() - 1),
                    dir.resolve("moved.db"));
            assertThat(Replicas.ids(copy)).as("the last epoch's replica").containsAll(acked);
            System.err.println("planned-move pauses (ms): " + pauses(acks));
        }
    }

    private static Fleet node(String id) {
        return engines.node(id, dir.resolve(id)).fleetName("hot")
                .durability(Durability.REPLICATED).autoRebalance(false).build();
    }

    /** Writes ids 1, 2, ... through whichever node owns the tenant until {@code stop}. */
    private static void write(Map<String, Fleet> nodes, String tenant, List<Ack> acks,
            AtomicBoolean stop) {
        String via = "a";
        long id = 1;
        while (!stop.get()) {
            try {
                nodes.get(via).database(tenant).execute(
                        "INSERT INTO t (id, node) VALUES (?, ?)", id, via);
                acks.add(new Ack(id, via, System.nanoTime()));
            } catch (NotOwnerException e) {
                via = e.owner().map(Member::id).orElse(via.equals("a") ? "b" : "a");
            } catch (LanesException e) {
                // the handle closed under the write, or its replication was not confirmed: the
                // write is not acknowledged, and the next one gets a fresh handle
            }
            id++;
        }
    }

    private static long token(Fleet node, String tenant) {
        return node.database(tenant).query("SELECT token FROM lanes_fleet_fence").get(0)
                .getLong("token");
    }

    /** For each change of serving node between consecutive acknowledged writes, the gap in ms. */
    private static List<Long> pauses(List<Ack> acks) {
        List<Long> out = new ArrayList<>();
        for (int i = 1; i < acks.size(); i++) {
            if (!acks.get(i).node().equals(acks.get(i - 1).node())) {
                out.add((acks.get(i).endNanos() - acks.get(i - 1).endNanos()) / 1_000_000);
            }
        }
        return out;
    }
}
