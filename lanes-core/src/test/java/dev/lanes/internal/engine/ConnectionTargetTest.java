package dev.lanes.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.internal.util.ManualClock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Under {@code maxOpenConnections}, a runtime whose databases churn through
 * their connections keeps fewer open, and keeps more again once they are reused. Real databases
 * and real evictions feed the budget here (the hit rate is what the runtime counted); the
 * runtime's once-a-second look runs when the test advances its manual clock. The working target
 * is read where an operator reads it, from the runtime's MBean.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionTargetTest {
    private final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();

    private static final int CAP = 256;
    private static final int FULL = CAP - CAP / 16;
    private static final int FLOOR = 64;

    private int target(String name) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        return (Integer) server.getAttribute(
                new ObjectName("dev.lanes:type=Runtime,name=" + name), "ConnectionTarget");
    }

    /**
     * One write to each database in turn, a microsecond of the manual clock apart: the budget
     * evicts the least recently used, which it tells apart by the clock.
     */
    private void writeToEach(List<Database> dbs) {
        for (Database db : dbs) {
            db.execute("INSERT INTO t(v) VALUES ('x')");
            clock.advance(Duration.ofNanos(1_000));
        }
    }

    @Tag("slow") // 400 databases created and written round-robin
    @Test
    void databasesWrittenRoundRobinPastTheBudgetLowerTheTargetToTheFloorAndReuseRaisesIt()
            throws Exception {
        String name = "target-" + System.nanoTime();
        Lanes lanes = runtime.start(Lanes.builder().name(name).maxThreads(4)
                .maxOpenConnections(CAP).registerMBeans(true));
        List<Database> dbs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Database db = lanes.open(runtime.path("t" + i + ".db"));
            db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            clock.advance(Duration.ofNanos(1_000));
            dbs.add(db);
        }
        clock.advance(Duration.ofSeconds(1));
        assertThat(target(name)).as("creating 400 databases: only the last 168 opened at the "
                + "target, a hit rate of 58 %").isEqualTo(FULL);

        // Least recently used first: each write reopens a database evicted since its creation.
        writeToEach(dbs);
        clock.advance(Duration.ofSeconds(1));
        assertThat(target(name)).as("a pass in which no use found its connection open")
                .isEqualTo(FLOOR);
        TestLanes.awaitTrue("the connections to come down to the floor",
                () -> lanes.diagnostics().openConnections() <= FLOOR);

        List<Database> hot = dbs.subList(0, 10);
        for (int round = 0; round < 30; round++) {
            writeToEach(hot);
        }
        clock.advance(Duration.ofSeconds(1));
        assertThat(target(name)).as("300 uses of ten databases, open again after their first round")
                .isEqualTo(2 * FLOOR);
        for (Database db : dbs) {
            assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                    .as("every write of %s kept across its evictions", db.path().getFileName())
                    .isEqualTo(dbs.indexOf(db) < 10 ? 31 : 1);
        }
    }
}
