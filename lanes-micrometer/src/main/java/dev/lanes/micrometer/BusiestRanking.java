package dev.lanes.micrometer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Chooses which databases keep meters of their own under {@link DatabaseTagging#busiest(int)}:
 * the busiest {@code n}, with hysteresis. A pure function of the scores, so it is tested alone.
 *
 * <p>The tagged databases stay unless displaced. Free places (fewer than {@code n} tagged) go to
 * the best-scoring others. Then the best other displaces the weakest tagged database while its
 * score is more than {@link #HYSTERESIS} times that one's, the second best the second weakest,
 * and so on. A database with a score of 0 never takes a place in a ranking (it may get one at
 * open, while places are free). Cost: O(m log n) for m databases.
 */
final class BusiestRanking {
    /** How much busier a database must be to take a tagged one's place. */
    static final double HYSTERESIS = 2.0;

    /** One database as the ranking sees it. */
    interface Candidate {
        double score();

        boolean tagged();
    }

    /** What the ranking decided: the candidates to tag and those to fold. */
    record Decision<C extends Candidate>(List<C> promote, List<C> demote) {}

    private BusiestRanking() {}

    static <C extends Candidate> Decision<C> rank(Iterable<C> candidates, int n) {
        List<C> tagged = new ArrayList<>();
        // the n best untagged ones: a min-heap whose head is the weakest kept
        PriorityQueue<C> best = new PriorityQueue<>(n + 1,
                Comparator.comparingDouble(Candidate::score));
        for (C c : candidates) {
            if (c.tagged()) {
                tagged.add(c);
            } else if (c.score() > 0) {
                best.add(c);
                if (best.size() > n) {
                    best.poll();
                }
            }
        }
        List<C> challengers = new ArrayList<>(best);
        challengers.sort(Comparator.comparingDouble(Candidate::score).reversed());
        tagged.sort(Comparator.comparingDouble(Candidate::score));

        List<C> promote = new ArrayList<>();
        List<C> demote = new ArrayList<>();
        int next = 0;
        // over the bound (n lowered, or a race at open): the weakest go first
        int excess = tagged.size() - n;
        for (int i = 0; i < excess; i++) {
            demote.add(tagged.get(i));
        }
        int weakest = Math.max(0, excess);
        for (int free = n - tagged.size(); free > 0 && next < challengers.size(); free--) {
            promote.add(challengers.get(next++));
        }
        while (next < challengers.size() && weakest < tagged.size()
                && challengers.get(next).score() > HYSTERESIS * tagged.get(weakest).score()) {
            demote.add(tagged.get(weakest++));
            promote.add(challengers.get(next++));
        }
        return new Decision<>(promote, demote);
    }
}
