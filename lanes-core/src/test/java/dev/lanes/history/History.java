package dev.lanes.history;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A complete list-append history: every operation clients ran, and the final state of every list
 * read from the database after the run. {@code crashed} says the process that ran the operations
 * was killed: operations it never completed are {@link Op.Outcome#UNKNOWN}, and corked writes
 * whose uncork never returned may be gone.
 */
record History(List<Op> ops, Map<Integer, List<Long>> finalState, boolean crashed) {

    History {
        ops = ops.stream().sorted(Comparator.comparingLong(Op::invoke).thenComparingLong(Op::id))
                .toList();
        TreeMap<Integer, List<Long>> lists = new TreeMap<>();
        finalState.forEach((k, v) -> lists.put(k, List.copyOf(v)));
        finalState = java.util.Collections.unmodifiableMap(lists);
    }

    /** The final list of {@code key}; empty when the database holds nothing for it. */
    List<Long> finalList(int key) {
        return finalState.getOrDefault(key, List.of());
    }

    /** The earliest invocation, so that reports can show times relative to the run's start. */
    long origin() {
        return ops.stream().mapToLong(Op::invoke).min().orElse(0);
    }

    /** Operations by outcome, for summaries. */
    Map<Op.Outcome, Long> outcomes() {
        Map<Op.Outcome, Long> counts = new TreeMap<>();
        for (Op op : ops) {
            counts.merge(op.outcome(), 1L, Long::sum);
        }
        return counts;
    }
}
