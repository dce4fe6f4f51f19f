package dev.lanes.internal.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.internal.scheduler.ConnectionBudget.Evictable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The order of eviction candidates ({@link EvictionOrder}): least recently used first, kept
 * lazily (a use never touches the order; a stale entry is queued again when it reaches the head),
 * candidates that cannot give up their connections passed over up to a cap, and released ones
 * gone.
 */
class EvictionOrderTest {
    /** A candidate whose last use and evictability the test sets; it never evicts itself. */
    static class Candidate implements Evictable {
        final String name;
        long lastUsed;
        boolean evictable = true;

        Candidate(String name, long lastUsed) {
            this.name = name;
            this.lastUsed = lastUsed;
        }

        @Override
        public long lastUsedNanos() {
            return lastUsed;
        }

        @Override
        public boolean evictable() {
            return evictable;
        }

        @Override
        public boolean evictNow() {
            throw new AssertionError("the order never evicts; its caller does");
        }

        private final AtomicLong releasedAt = new AtomicLong();

        @Override
        public void releasedAt(long closes) {
            releasedAt.set(closes);
        }

        @Override
        public long takeReleasedAt() {
            return releasedAt.getAndSet(0);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private final EvictionOrder order = new EvictionOrder();

    /** Takes victims until none is left, in the order given. */
    private List<Evictable> drain() {
        List<Evictable> out = new ArrayList<>();
        Evictable v;
        while ((v = order.takeVictim()) != null) {
            out.add(v);
        }
        return out;
    }

    @Test
    void victimsComeLeastRecentlyUsedFirstAndEachOnce() {
        Candidate a = new Candidate("a", 30);
        Candidate b = new Candidate("b", 10);
        Candidate c = new Candidate("c", 20);
        order.opened(a);
        order.opened(b);
        order.opened(c);
        order.opened(b); // a second connection of b: still one entry

        assertThat(drain()).containsExactly(b, c, a);
        assertThat(order.takeVictim()).isNull();
    }

    @Test
    void aCandidateUsedSinceItWasQueuedIsQueuedAgainWithItsRealLastUse() {
        Candidate a = new Candidate("a", 10);
        Candidate b = new Candidate("b", 20);
        Candidate c = new Candidate("c", 30);
        order.opened(a);
        order.opened(b);
        order.opened(c);
        a.lastUsed = 40; // used after being queued: the order is not told

        assertThat(order.takeVictim()).as("a's entry is stale; b is the least recently used")
                .isSameAs(b);
        assertThat(drain()).containsExactly(c, a);
    }

    @Test
    void aVictimGivenBackIsACandidateAgainAtItsLastUse() {
        Candidate a = new Candidate("a", 10);
        Candidate b = new Candidate("b", 20);
        order.opened(a);
        order.opened(b);
        Evictable victim = order.takeVictim();
        assertThat(victim).isSameAs(a);

        a.lastUsed = 30; // the eviction found it busy: it kept its connections
        order.requeue(a);
        assertThat(drain()).containsExactly(b, a);
    }

    @Test
    void aReleasedCandidateIsNeverChosenAndCannotBeGivenBack() {
        Candidate a = new Candidate("a", 10);
        Candidate b = new Candidate("b", 20);
        order.opened(a);
        order.opened(b);
        order.released(a);
        order.requeue(a); // e.g. an eviction racing its close: ignored

        assertThat(drain()).containsExactly(b);
        order.opened(a); // a reopened connection makes it a candidate again
        assertThat(drain()).containsExactly(a);
    }

    @Test
    void candidatesThatCannotGiveUpTheirConnectionsArePassedOverAndKeepTheirPlace() {
        Candidate busy = new Candidate("busy", 10);
        busy.evictable = false;
        Candidate idle = new Candidate("idle", 20);
        order.opened(busy);
        order.opened(idle);

        assertThat(order.takeVictim()).isSameAs(idle);
        assertThat(order.takeVictim()).as("only the busy one is left").isNull();
        busy.evictable = true;
        assertThat(order.takeVictim()).as("passed over, not dropped").isSameAs(busy);
    }

    @Test
    void oneChoicePassesOverAtMostSixtyFourCandidates() {
        List<Candidate> busy = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Candidate c = new Candidate("busy-" + i, i);
            c.evictable = false;
            busy.add(c);
            order.opened(c);
        }
        Candidate idle = new Candidate("idle", 1_000);
        order.opened(idle);

        assertThat(order.takeVictim()).as("the idle one lies behind 64 busy ones").isNull();

        busy.get(0).evictable = true;
        assertThat(order.takeVictim()).as("free now, at the head")
                .isSameAs(busy.get(0));
        assertThat(order.takeVictim()).as("63 passed over, then the idle one").isSameAs(idle);
        busy.forEach(c -> c.evictable = true);
        assertThat(drain()).as("every passed-over candidate is still in the order")
                .containsExactlyElementsOf(busy.subList(1, 64));
    }
}
