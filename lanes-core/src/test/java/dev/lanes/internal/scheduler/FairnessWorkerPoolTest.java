package dev.lanes.internal.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pool's two classes, on the pool alone: while foreground and background work both wait,
 * background gets one pick in every {@link WorkerPool#BACKGROUND_TURN_EVERY}, and it runs alone
 * once foreground is gone. One thread, held by a latch while the work queues, makes the order of
 * picks the order in which the tasks ran.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FairnessWorkerPoolTest {
    private static final long WAIT_MS = 20_000;

    /** A task that records its label when it runs and counts down {@code done}. */
    private record Recording(String label, boolean background, List<String> ran,
            CountDownLatch done) implements WorkerPool.Task {
        @Override
        public void runTurn() {
            ran.add(label);
            done.countDown();
        }
    }

    @Test
    void whileBothClassesWaitBackgroundGetsExactlyOneTurnInEveryFour() throws Exception {
        WorkerPool pool = new WorkerPool("fair", 1, 256 * 1024, dev.lanes.internal.util.Clock.SYSTEM);
        int foregroundTasks = 24;
        int backgroundTasks = 24;
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(foregroundTasks + backgroundTasks);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            // Hold the only thread, so that everything submitted next waits in the two queues.
            pool.submit(new WorkerPool.Task() {
                @Override
                public void runTurn() {
                    holding.countDown();
                    try {
                        release.await(WAIT_MS, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }

                @Override
                public boolean background() {
                    return false;
                }
            });
            assertThat(holding.await(WAIT_MS, TimeUnit.MILLISECONDS)).isTrue();

            // Background first, so that arrival order would favour it if the classes were ignored.
            for (int i = 0; i < backgroundTasks; i++) {
                pool.submit(new Recording("B" + i, true, ran, done));
            }
            for (int i = 0; i < foregroundTasks; i++) {
                pool.submit(new Recording("F" + i, false, ran, done));
            }
            WorkerPool.Snapshot queued = pool.snapshot();
            assertThat(queued.liveThreads()).isEqualTo(1);
            assertThat(queued.busyThreads()).isEqualTo(1);
            assertThat(queued.runnableForeground()).isEqualTo(foregroundTasks);
            assertThat(queued.runnableBackground()).isEqualTo(backgroundTasks);

            release.countDown();
            assertThat(done.await(WAIT_MS, TimeUnit.MILLISECONDS)).as("every task ran").isTrue();
        } finally {
            release.countDown();
            pool.shutdown();
        }

        List<String> order = List.copyOf(ran);
        assertThat(order).hasSize(foregroundTasks + backgroundTasks);
        // Foreground is exhausted after 24 / 3 * 4 = 32 picks, during which both classes waited.
        int bothWaiting = foregroundTasks / (WorkerPool.BACKGROUND_TURN_EVERY - 1)
                * WorkerPool.BACKGROUND_TURN_EVERY;
        for (int block = 0; block < bothWaiting; block += WorkerPool.BACKGROUND_TURN_EVERY) {
            List<String> picks = order.subList(block, block + WorkerPool.BACKGROUND_TURN_EVERY);
            assertThat(picks.stream().filter(l -> l.startsWith("B")).count())
                    .as("background picks among %s (picks %d..%d of %s)", picks, block,
                            block + WorkerPool.BACKGROUND_TURN_EVERY - 1, order)
                    .isEqualTo(1);
        }
        // Then background runs alone: it is never left behind.
        assertThat(order.subList(bothWaiting, order.size())).allMatch(l -> l.startsWith("B"));
        // And each class keeps its own arrival order.
        assertThat(order.stream().filter(l -> l.startsWith("F")).toList())
                .isEqualTo(labels("F", foregroundTasks));
        assertThat(order.stream().filter(l -> l.startsWith("B")).toList())
                .isEqualTo(labels("B", backgroundTasks));
    }

    @Test
    void backgroundAloneRunsWithoutWaitingForForeground() throws Exception {
        WorkerPool pool = new WorkerPool("bg-only", 2, 256 * 1024, dev.lanes.internal.util.Clock.SYSTEM);
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(10);
        try {
            for (int i = 0; i < 10; i++) {
                pool.submit(new Recording("B" + i, true, ran, done));
            }
            assertThat(done.await(WAIT_MS, TimeUnit.MILLISECONDS)).isTrue();
        } finally {
            pool.shutdown();
        }
        assertThat(ran).containsExactlyInAnyOrderElementsOf(labels("B", 10));
    }

    private static List<String> labels(String prefix, int n) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            labels.add(prefix + i);
        }
        return labels;
    }
}
