package dev.lanes.internal.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SmallDeque}, the queue of waiting writes and reads: a FIFO deque like {@code ArrayDeque}
 * that holds no array while it is empty and never used, keeps a small one through the
 * empty-one-empty rhythm of single requests, and lets a burst's array go once it drained.
 */
class SmallDequeTest {
    @Test
    void keepsFirstInFirstOutOrderWithAHeadInsertAndRemovals() {
        SmallDeque<String> d = new SmallDeque<>();
        assertThat(d.isEmpty()).isTrue();
        assertThat(d.pollFirst()).isNull();
        assertThat(d.peekFirst()).isNull();
        assertThat(d.remove("x")).isFalse();
        for (int i = 0; i < 40; i++) {
            d.addLast("w" + i);
        }
        d.addFirst("head");
        assertThat(d.size()).isEqualTo(41);
        assertThat(d.peekFirst()).isEqualTo("head");
        assertThat(d.peekLast()).isEqualTo("w39");
        assertThat(d.remove("w7")).isTrue();
        assertThat(d.remove("w7")).isFalse();
        List<String> out = new ArrayList<>();
        for (String s = d.pollFirst(); s != null; s = d.pollFirst()) {
            out.add(s);
        }
        assertThat(out).hasSize(40).startsWith("head", "w0", "w1").endsWith("w38", "w39")
                .doesNotContain("w7");
        assertThat(d.isEmpty()).isTrue();
    }

    @Test
    void holdsNoArrayUntilUsedAndKeepsASmallOneThroughSingleRequests() {
        SmallDeque<Integer> d = new SmallDeque<>();
        assertThat(d.holdsArray()).isFalse();
        for (int i = 0; i < 100; i++) {
            d.addLast(i);
            assertThat(d.pollFirst()).isEqualTo(i);
        }
        assertThat(d.holdsArray()).as("kept, not made anew per request").isTrue();
    }

    @Test
    void aBurstsArrayIsLetGoOnceItDrainedByPollRemoveIteratorOrClear() {
        SmallDeque<Integer> polled = burst();
        for (int i = 0; i < SmallDeque.SHRINK_FROM - 1; i++) {
            assertThat(polled.pollFirst()).isEqualTo(i);
            assertThat(polled.holdsArray()).as("not yet drained").isTrue();
        }
        assertThat(polled.pollFirst()).isEqualTo(SmallDeque.SHRINK_FROM - 1);
        assertThat(polled.holdsArray()).isFalse();

        SmallDeque<Integer> removed = burst();
        for (int i = 0; i < SmallDeque.SHRINK_FROM; i++) {
            assertThat(removed.remove(i)).isTrue();
        }
        assertThat(removed.holdsArray()).isFalse();

        SmallDeque<Integer> iterated = burst();
        for (Iterator<Integer> it = iterated.iterator(); it.hasNext(); ) {
            it.next();
            it.remove();
        }
        assertThat(iterated.isEmpty()).isTrue();
        iterated.shrinkIfDrained();
        assertThat(iterated.holdsArray()).isFalse();

        SmallDeque<Integer> cleared = burst();
        cleared.clear();
        assertThat(cleared.isEmpty()).isTrue();
        assertThat(cleared.holdsArray()).isFalse();
        cleared.addLast(1);
        assertThat(cleared.pollFirst()).as("usable again").isEqualTo(1);
    }

    private static SmallDeque<Integer> burst() {
        SmallDeque<Integer> d = new SmallDeque<>();
        for (int i = 0; i < SmallDeque.SHRINK_FROM; i++) {
            d.addLast(i);
        }
        return d;
    }
}
