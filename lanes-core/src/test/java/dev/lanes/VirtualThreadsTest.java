package dev.lanes;

import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Callers on virtual threads are served, and SQLite never runs on a virtual thread. Runs only on
 * JDK 21+; the code compiles with {@code --release 17}, so the JDK 21 API is reached reflectively.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class VirtualThreadsTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @BeforeAll
    static void requireVirtualThreads() {
        VirtualThreads.assumeAvailable();
    }

    @Test
    void aThousandVirtualThreadsWriteConcurrentlyAndNoBodyRunsOnAVirtualThread() throws Exception {
        int writers = 1000;
        Lanes lanes = runtime.start(Lanes.builder().name("vt").maxThreads(4));
        Database db = runtime.openWithTable("vt.db",
                DatabaseOptions.builder().writeQueueCapacity(writers).build());
        Set<Thread> bodyThreads = ConcurrentHashMap.newKeySet();
        AtomicInteger virtualCallers = new AtomicInteger();
        AtomicInteger virtualBodies = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<String>> results = new ArrayList<>();
        ExecutorService vts = VirtualThreads.perTaskExecutor();
        try {
            for (int i = 0; i < writers; i++) {
                String v = "vt-" + i;
                results.add(vts.submit(() -> {
                    if (VirtualThreads.isVirtual(Thread.currentThread())) {
                        virtualCallers.incrementAndGet();
                    }
                    go.await();
                    String sync = db.write(c -> {
                        bodyThreads.add(Thread.currentThread());
                        if (VirtualThreads.isVirtual(Thread.currentThread())) {
                            virtualBodies.incrementAndGet();
                        }
                        return TestLanes.insert(v).apply(c);
                    });
                    // and the async path, joined from the virtual thread
                    return sync + "/" + join(db.writeAsync(c -> {
                        if (VirtualThreads.isVirtual(Thread.currentThread())) {
                            virtualBodies.incrementAndGet();
                        }
                        return TestLanes.insert(v + "-async").apply(c);
                    }));
                }));
            }
            go.countDown();
            for (int i = 0; i < writers; i++) {
                assertThat(results.get(i).get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                        .isEqualTo("vt-" + i + "/vt-" + i + "-async");
            }
        } finally {
            vts.shutdownNow();
        }

        assertThat(virtualCallers).as("the callers really were virtual").hasValue(writers);
        assertThat(virtualBodies).as("bodies that ran on a virtual thread").hasValue(0);
        assertThat(bodyThreads).allSatisfy(t -> assertThat(VirtualThreads.isVirtual(t)).isFalse());
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(2L * writers);
        assertThat(lanes.diagnostics().liveThreads()).isLessThanOrEqualTo(4);
    }

    @Test
    void aVirtualThreadsExecuteAndQueryRunOnPlatformThreads() throws Exception {
        Lanes lanes = runtime.start(Lanes.builder().name("vt"));
        Database db = runtime.open("vq.db");
        ExecutorService vts = VirtualThreads.perTaskExecutor();
        try {
            Future<List<Row>> rows = vts.submit(() -> {
                db.execute("CREATE TABLE t(v TEXT)");
                db.execute("INSERT INTO t(v) VALUES (?)", "x");
                return db.query("SELECT v FROM t");
            });
            assertThat(rows.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                    .extracting(r -> r.getString("v")).containsExactly("x");
            Future<Boolean> bodyOnVirtual = vts.submit(
                    () -> db.write(c -> VirtualThreads.isVirtual(Thread.currentThread())));
            assertThat(bodyOnVirtual.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                    .isFalse();
        } finally {
            vts.shutdownNow();
        }
    }
}
