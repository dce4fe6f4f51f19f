package dev.lanes;

import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Many databases share one small pool of threads and all make progress. */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedThreadsTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();


    @Tag("slow") // scale: hundreds of databases
    @Test
    void hundredsOfDatabasesAllCompleteTheirWritesOnAFourThreadPool() throws Exception {
        int databases = 300;
        int callers = 4;
        int writesPerCallerAndDatabase = 3;
        Lanes lanes = runtime.start(Lanes.builder().name("small").maxThreads(4));
        List<Database> dbs = new ArrayList<>();
        for (int i = 0; i < databases; i++) {
            dbs.add(runtime.open("db-" + i + ".db"));
        }
        // Table creation runs on the pool too: every database's first turn opens it there.
        List<CompletableFuture<Object>> created = new ArrayList<>();
        for (Database db : dbs) {
            created.add(db.writeAsync(c -> c.createStatement().execute(
                    "CREATE TABLE t(caller INTEGER, n INTEGER)")));
        }
        created.forEach(TestLanes::join);

        Set<Thread> bodyThreads = ConcurrentHashMap.newKeySet();
        AtomicInteger maxLive = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                maxLive.accumulateAndGet(lanes.diagnostics().liveThreads(), Math::max);
                Thread.onSpinWait();
            }
        }, "sampler");
        sampler.start();

        CyclicBarrier go = new CyclicBarrier(callers);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<List<CompletableFuture<Integer>>>> issued = new ArrayList<>();
            for (int k = 0; k < callers; k++) {
                int caller = k;
                issued.add(pool.submit(() -> {
                    go.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    List<CompletableFuture<Integer>> mine = new ArrayList<>();
                    for (int n = 0; n < writesPerCallerAndDatabase; n++) {
                        int number = n;
                        for (Database db : dbs) {
                            mine.add(db.writeAsync(c -> {
                                bodyThreads.add(Thread.currentThread());
                                try (var s = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                                    s.setInt(1, caller);
                                    s.setInt(2, number);
                                    return s.executeUpdate();
                                }
                            }));
                        }
                    }
                    return mine;
                }));
            }
            for (Future<List<CompletableFuture<Integer>>> f : issued) {
                for (CompletableFuture<Integer> w : f.get(TestLanes.WAIT.toMillis(),
                        TimeUnit.MILLISECONDS)) {
                    assertThat(join(w)).isEqualTo(1);
                }
            }
        } finally {
            pool.shutdownNow();
            sampling.set(false);
            sampler.join(TestLanes.WAIT.toMillis());
        }

        assertThat(maxLive.get()).as("live pool threads at any sampled moment").isBetween(1, 4);
        assertThat(lanes.diagnostics().liveThreads()).isLessThanOrEqualTo(4);
        assertThat(lanes.diagnostics().maxThreads()).isEqualTo(4);
        assertThat(bodyThreads).as("distinct threads that ran bodies").hasSizeLessThanOrEqualTo(4);
        for (Database db : dbs) {
            assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t"))
                    .as(db.path().getFileName().toString())
                    .isEqualTo((long) callers * writesPerCallerAndDatabase);
        }
        assertThat(lanes.diagnostics().openDatabases()).isEqualTo(databases);
    }

    @Test
    void aDatabaseWithABacklogRunsOneTurnAtATimeSoOthersOnTheSameThreadAreNotStarved() {
        Lanes lanes = runtime.start(Lanes.builder().name("one").maxThreads(1));
        Database busy = runtime.openWithTable("busy.db",
                DatabaseOptions.builder().maxGroupSize(10).build());
        Database quiet = runtime.openWithTable("quiet.db");
        AtomicInteger sequence = new AtomicInteger();
        AtomicInteger quietRanAt = new AtomicInteger(-1);
        List<CompletableFuture<Integer>> backlog = new ArrayList<>();
        CompletableFuture<Integer> quietWrite;
        // Hold the one pool thread, queue 100 writes (10 turns) on busy, then one on quiet.
        try (TestLanes.Blocker blocker = TestLanes.block(busy)) {
            for (int i = 0; i < 100; i++) {
                backlog.add(busy.writeAsync(c -> sequence.getAndIncrement()));
            }
            quietWrite = quiet.writeAsync(c -> {
                quietRanAt.set(sequence.getAndIncrement());
                return 0;
            });
            blocker.release();
        }
        join(quietWrite);
        backlog.forEach(TestLanes::join);
        assertThat(quietRanAt.get())
                .as("bodies of busy that ran before quiet's one write: at most one turn")
                .isBetween(0, 10);
    }
}
