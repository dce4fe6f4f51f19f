package dev.lanes.history;

import dev.lanes.history.Op.Kind;
import dev.lanes.history.Op.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-built histories for the checker's tests: operations with logical times, each on a client
 * of its own unless told otherwise. Reads of operations that did not return normally lose their
 * results, as they would in a recorded history.
 */
final class HistoryBuilder {
    private final List<Op> ops = new ArrayList<>();
    private final Map<Integer, List<Long>> finalState = new HashMap<>();
    private boolean crashed;

    /** An operation that returned normally. */
    HistoryBuilder ok(long invoke, long complete, Mop... mops) {
        return op(defaultKind(mops), invoke, complete, Outcome.OK, mops);
    }

    /** An operation that ended with {@code outcome}. */
    HistoryBuilder failed(Outcome outcome, long invoke, long complete, Mop... mops) {
        return op(defaultKind(mops), invoke, complete, outcome, mops);
    }

    /** An operation whose completion was never seen. */
    HistoryBuilder incomplete(long invoke, Mop... mops) {
        return op(defaultKind(mops), invoke, Op.NEVER, Outcome.UNKNOWN, mops);
    }

    HistoryBuilder op(Kind kind, long invoke, long complete, Outcome outcome, Mop... mops) {
        List<Mop> recorded = new ArrayList<>();
        for (Mop m : mops) {
            recorded.add(outcome != Outcome.OK && m instanceof Mop.Read r ? Mop.pendingRead(r.key()) : m);
        }
        ops.add(new Op(ops.size() + 1, ops.size() + 1, kind, recorded, invoke, complete, outcome));
        return this;
    }

    HistoryBuilder cork(long invoke, long complete) {
        return op(Kind.CORK, invoke, complete, Outcome.OK);
    }

    HistoryBuilder uncork(long invoke, long complete, Outcome outcome) {
        return op(Kind.UNCORK, invoke, complete, outcome);
    }

    /** The final list of {@code key}. */
    HistoryBuilder finalList(int key, long... values) {
        finalState.put(key, Arrays.stream(values).boxed().toList());
        return this;
    }

    /** The process was killed before the final state was read. */
    HistoryBuilder crashed() {
        crashed = true;
        return this;
    }

    /** The id the next operation gets. */
    long nextId() {
        return ops.size() + 1;
    }

    History build() {
        return new History(ops, finalState, crashed);
    }

    private static Kind defaultKind(Mop... mops) {
        return Arrays.stream(mops).anyMatch(m -> m instanceof Mop.Append) ? Kind.WRITE : Kind.READ;
    }
}
