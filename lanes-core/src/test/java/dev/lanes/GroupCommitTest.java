package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.TestLanes.Blocker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Concurrent writers lose nothing, and queued writes share commits. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GroupCommitTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void concurrentWritersFromManyThreadsLoseNothingAndEachGetsItsOwnResult() throws Exception {
        int threads = 32;
        int writesPerThread = 200;
        int asyncEvery = 10; // every 10th write of a thread is a writeAsync
        Database db = runtime.open("many.db");
        db.execute("CREATE TABLE w(thread INTEGER, seq INTEGER, PRIMARY KEY (thread, seq))");
        DatabaseDiagnostics before = db.diagnostics();

        CyclicBarrier go = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    go.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    Deque<Map.Entry<Long, CompletableFuture<Long>>> pending = new ArrayDeque<>();
                    int mismatches = 0;
                    for (int seq = 0; seq < writesPerThread; seq++) {
                        long key = thread * 1_000_000L + seq;
                        SqlFunction<Long> body = insertPair(thread, seq, key);
                        if (seq % asyncEvery == 0) {
                            pending.add(Map.entry(key, db.writeAsync(body)));
                            if (pending.size() > 4) { // stay far below the queue's capacity
                                Map.Entry<Long, CompletableFuture<Long>> oldest = pending.poll();
                                mismatches += join(oldest.getValue()).equals(oldest.getKey()) ? 0 : 1;
                            }
                        } else if (db.write(body) != key) {
                            mismatches++;
                        }
                    }
                    for (Map.Entry<Long, CompletableFuture<Long>> p : pending) {
                        mismatches += join(p.getValue()).equals(p.getKey()) ? 0 : 1;
                    }
                    return mismatches;
                }));
            }
            for (Future<Integer> f : done) {
                assertThat(f.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                        .as("writes that returned another body's result").isZero();
            }
        } finally {
            pool.shutdownNow();
        }
        DatabaseDiagnostics after = db.diagnostics(); // before the queries below, which count too

        long total = (long) threads * writesPerThread;
        assertThat(after.writer().counters().committed() - before.writer().counters().committed()).isEqualTo(total);
        assertThat(after.writer().counters().failed() - before.writer().counters().failed()).isZero();
        assertThat(scalar(db, "SELECT count(*) FROM w")).isEqualTo(total);
        assertThat(scalar(db, "SELECT count(DISTINCT thread) FROM w")).isEqualTo(threads);
        assertThat(scalar(db, "SELECT count(*) FROM (SELECT thread FROM w GROUP BY thread "
                + "HAVING count(*) = ? AND min(seq) = 0 AND max(seq) = ?)",
                writesPerThread, writesPerThread - 1)).isEqualTo(threads);
    }

    private static SqlFunction<Long> insertPair(int thread, int seq, long key) {
        return c -> {
            try (var s = c.prepareStatement("INSERT INTO w(thread, seq) VALUES (?, ?)")) {
                s.setInt(1, thread);
                s.setInt(2, seq);
                s.executeUpdate();
            }
            return key;
        };
    }

    @Test
    void writesQueuedBehindARunningTurnCommitTogetherInOneTransaction() {
        Database db = runtime.openWithTable("burst.db");
        DatabaseDiagnostics before = db.diagnostics();
        List<CompletableFuture<String>> burst = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 50; i++) {
                burst.add(db.writeAsync(TestLanes.insert("burst-" + i)));
            }
            assertThat(db.diagnostics().writer().queued()).isEqualTo(50);
            blocker.release();
            join(blocker.future);
        }
        for (int i = 0; i < 50; i++) {
            assertThat(join(burst.get(i))).isEqualTo("burst-" + i);
        }
        DatabaseDiagnostics after = db.diagnostics();

        long committed = after.writer().counters().committed() - before.writer().counters().committed();
        long groups = after.writer().counters().groupsCommitted() - before.writer().counters().groupsCommitted();
        assertThat(committed).isEqualTo(51);
        assertThat(groups).as("the blocker's group and one group for the burst").isEqualTo(2);
        assertThat(after.writer().counters().groupsCommitted()).isLessThan(after.writer().counters().committed());
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v LIKE 'burst-%'")).isEqualTo(50);
    }

    @Test
    void maxGroupSizeBoundsHowManyWritesShareOneCommit() {
        Database db = runtime.openWithTable("bounded.db",
                DatabaseOptions.builder().maxGroupSize(8).build());
        DatabaseDiagnostics before = db.diagnostics();
        List<CompletableFuture<String>> burst = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 50; i++) {
                burst.add(db.writeAsync(TestLanes.insert("b" + i)));
            }
            blocker.release();
            join(blocker.future);
        }
        burst.forEach(TestLanes::join);
        DatabaseDiagnostics after = db.diagnostics();

        assertThat(after.writer().counters().committed() - before.writer().counters().committed()).isEqualTo(51);
        assertThat(after.writer().counters().groupsCommitted() - before.writer().counters().groupsCommitted())
                .as("1 blocker group + ceil(50 / 8) groups").isEqualTo(1 + 7);
    }

    @Test
    void queuedWritesCommitInTheOrderTheyWereAccepted() {
        Database db = runtime.openWithTable("order.db",
                DatabaseOptions.builder().maxGroupSize(4).build());
        List<CompletableFuture<String>> writes = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 20; i++) {
                writes.add(db.writeAsync(TestLanes.insert(String.format("%02d", i))));
            }
            blocker.release();
        }
        writes.forEach(TestLanes::join);

        List<Object> inRowidOrder = db.query("SELECT v FROM t ORDER BY id").stream()
                .map(r -> r.get(0)).collect(java.util.stream.Collectors.toList());
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            expected.add(String.format("%02d", i));
        }
        assertThat(inRowidOrder).isEqualTo(expected);
    }
}
