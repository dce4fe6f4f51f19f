package dev.lanes.internal.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * The counters behind the reader and writer diagnostics ({@link CounterSlots}): every count
 * lands once, whether threads count one at a time, all at once, or on the stripes that
 * simultaneous counting makes; a maximum only grows; nothing is made before a count.
 */
class CounterSlotsTest {
    private static final int FIRST = 0;
    private static final int SECOND = 1;
    private static final int PEAK = 2;
    private static final int RARE = 3;

    /** Three common counters (two counts and a maximum) and one rare. */
    private static final class Counters extends CounterSlots {
        @Override
        protected int count() {
            return 4;
        }

        @Override
        protected int common() {
            return 3;
        }
    }

    @Test
    void nothingCountedReadsZeroAndMakesNoArray() {
        Counters c = new Counters();
        c.add(FIRST, 0);
        c.raise(PEAK, 0);
        assertThat(c.get(FIRST)).isZero();
        assertThat(c.get(PEAK)).isZero();
        assertThat(c.get(RARE)).isZero();
    }

    @Test
    void countsFromManyThreadsAtOnceAreAllKept() throws Exception {
        assertExactUnderContention(new Counters());
    }

    @Test
    void countsOnTheStripesAreAllKeptWithTheOnesBefore() throws Exception {
        Counters c = new Counters();
        c.add(FIRST, 5);
        c.add(SECOND, 7);
        c.makeStripes(); // as the first simultaneous count makes them
        c.add(FIRST, 1);
        assertThat(c.get(FIRST)).isEqualTo(6);
        assertThat(c.get(SECOND)).isEqualTo(7);
        Counters fresh = new Counters();
        fresh.makeStripes();
        assertExactUnderContention(fresh);
    }

    @Test
    void aMaximumOnlyGrowsAndIsNotAddedToByStripes() {
        Counters c = new Counters();
        c.makeStripes();
        c.raise(PEAK, 5);
        c.raise(PEAK, 3);
        c.add(FIRST, 100);
        assertThat(c.get(PEAK)).isEqualTo(5);
        c.raise(PEAK, 9);
        assertThat(c.get(PEAK)).isEqualTo(9);
    }

    private static void assertExactUnderContention(Counters c) throws Exception {
        int threads = 8;
        int each = 50_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> running = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        c.add(FIRST, 1);
                        c.add(SECOND, 2);
                        c.raise(PEAK, i);
                        if (i % 1000 == id) {
                            c.add(RARE, 1);
                        }
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            thread.join(60_000);
            assertThat(thread.isAlive()).as("counting ended").isFalse();
        }
        assertThat(failures).isEmpty();
        assertThat(c.get(FIRST)).isEqualTo((long) threads * each);
        assertThat(c.get(SECOND)).isEqualTo(2L * threads * each);
        assertThat(c.get(PEAK)).isEqualTo(each - 1);
        assertThat(c.get(RARE)).isEqualTo((long) threads * (each / 1000));
    }
}
