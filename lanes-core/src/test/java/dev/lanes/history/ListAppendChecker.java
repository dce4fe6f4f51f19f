package dev.lanes.history;

import dev.lanes.history.Anomaly.Type;
import dev.lanes.history.Op.Outcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a list-append {@link History} against what Lanes promises: strict serializability of
 * everything that committed, snapshot reads that include every acknowledged write, and honest
 * outcomes. In the spirit of Jepsen's Elle, written for Lanes' model.
 *
 * <p><b>Version order.</b> Appended values are unique and a read returns a whole list, so every
 * observation of a key (each read of an operation that returned normally, and the final state)
 * must be a prefix of one longest list: that list is the key's version order, the order in which
 * its appends were applied. A list that disagrees with it is an {@link Type#INCOMPATIBLE_ORDER}
 * (a reorder); the key is then left out of the dependency graph.
 *
 * <p><b>Dependency graph.</b> Nodes are the operations that happened: those that returned
 * normally, and UNKNOWN ones whose appends are in some version order. Edges: {@code ww} from the
 * writer of each element to the writer of the next; {@code wr} from the writer of the last
 * element a read saw to the reader; {@code rw} from a reader to the writer of the first element it
 * did not see; {@code rt} from an operation to each one invoked after it completed (kept small as
 * the transitive reduction of the interval order). A cycle without {@code rt} edges breaks
 * serializability; one that needs an {@code rt} edge breaks strict serializability. Each strongly
 * connected component is reported once, with the shortest cycle found in it, classified by its
 * edges as G0, G1c, G-single or G2 (with {@code _REALTIME} when it uses real time).
 *
 * <p><b>Direct checks</b> name the common anomalies plainly even when a cycle also shows them:
 * duplicates, garbage, aborted reads (G1a), intermediate reads (G1b), internal inconsistency,
 * stale reads (an acknowledged append missed by a read invoked after it), real-time order of
 * appends, lost writes, non-atomic persistence.
 *
 * <p><b>Cork and crashes.</b> Corked writes are applied when acknowledged (reads while corked see
 * them), so the version order is the order of application, corked or not. Only durability
 * differs: after a crash ({@link History#crashed()}), an acknowledged write whose interval meets a
 * cork epoch that was never uncorked (or whose uncork never returned) may be gone, and one applied
 * wholly inside an epoch that was never uncorked must be gone ({@link Type#PREMATURELY_DURABLE}).
 * Everything else acknowledged must be in the final state. An uncork that reported corked writes
 * lost is outside the model and reported as {@link Type#CORK_REVOKED}.
 *
 * <p>Not thread-safe; one checker per history, used once.
 */
final class ListAppendChecker {
    private static final int WW = 0;
    private static final int WR = 1;
    private static final int RW = 2;
    private static final int RT = 3;
    private static final String[] EDGE = {"ww", "wr", "rw", "rt"};
    /** Cycles reported per pass at most: one broken run must still give a readable report. */
    private static final int MAX_CYCLES = 8;
    /** Start nodes (or real-time edges) tried per component when looking for a short cycle. */
    private static final int CYCLE_ATTEMPTS = 48;

    private final History history;
    private final long origin;
    private final List<Anomaly> anomalies = new ArrayList<>();
    private final Map<Long, Writer> writers = new HashMap<>();
    private final List<Observation> observations = new ArrayList<>();
    private final List<Epoch> epochs = new ArrayList<>();
    /** Version orders of the keys whose observations agree. */
    private final Map<Integer, KeyOrder> orders = new TreeMap<>();

    /** The operation that appended a value, and to which key. */
    private record Writer(Op op, int key) {}

    /** A list someone saw: a read of an operation that returned normally, or the final state. */
    private record Observation(Op reader, int key, List<Long> values) {
        String who() {
            return reader == null ? "the final state" : "T" + reader.id();
        }
    }

    /** The version order of one key, and who wrote each position. */
    private static final class KeyOrder {
        final int key;
        final List<Long> values;
        final Op[] writerAt;
        final Map<Long, Integer> position = new HashMap<>();

        KeyOrder(int key, List<Long> values, Map<Long, Writer> writers) {
            this.key = key;
            this.values = values;
            this.writerAt = new Op[values.size()];
            for (int i = 0; i < values.size(); i++) {
                Writer w = writers.get(values.get(i));
                writerAt[i] = w == null || w.key() != key ? null : w.op();
                position.putIfAbsent(values.get(i), i);
            }
        }
    }

    /** A cork epoch: from {@code cork()} to the uncork that ended it. */
    private record Epoch(long corkInvoke, long corkComplete, long firstUncorkInvoke, long end,
            State state) {
        enum State { COMMITTED, LOST, UNCERTAIN, REVOKED }

        boolean possiblyHolds(Op w) {
            return w.complete() > corkInvoke && w.invoke() < end;
        }

        boolean certainlyHolds(Op w) {
            return w.invoke() > corkComplete && w.complete() < firstUncorkInvoke;
        }
    }

    private ListAppendChecker(History history) {
        this.history = history;
        this.origin = history.origin();
    }

    /** Checks {@code history}; never throws for a broken history, only for a malformed one. */
    static CheckResult check(History history) {
        return new ListAppendChecker(history).run();
    }

    private CheckResult run() {
        indexWriters();
        collectObservations();
        checkValues();
        buildOrders();
        buildEpochs();
        checkDurability();
        checkInternal();
        checkIntermediateReads();
        checkStaleReads();
        checkRealtimeOrder();
        Graph graph = new Graph();
        graph.findCycles();
        Map<String, Long> figures = new TreeMap<>();
        figures.put("ops", (long) history.ops().size());
        history.outcomes().forEach((o, n) -> figures.put("ops." + o, n));
        figures.put("appends", (long) writers.size());
        figures.put("observations", (long) observations.size());
        figures.put("keys", (long) orders.size());
        figures.put("corkEpochs", (long) epochs.size());
        figures.put("graph.nodes", (long) graph.nodes.size());
        for (int t = 0; t < EDGE.length; t++) {
            figures.put("graph.edges." + EDGE[t], graph.edgeCounts[t]);
        }
        return new CheckResult(anomalies, figures);
    }

    // ------------------------------------------------------------------ values and orders

    private void indexWriters() {
        for (Op op : history.ops()) {
            if (op.isCorkControl()) {
                continue;
            }
            for (Mop m : op.mops()) {
                if (m instanceof Mop.Append a) {
                    Writer before = writers.put(a.value(), new Writer(op, a.key()));
                    if (before != null) {
                        throw new IllegalArgumentException("malformed history: value " + a.value()
                                + " appended by both T" + before.op().id() + " and T" + op.id());
                    }
                }
            }
        }
    }

    private void collectObservations() {
        for (Op op : history.ops()) {
            if (op.outcome() != Outcome.OK || op.isCorkControl()) {
                continue;
            }
            for (Mop m : op.mops()) {
                if (m instanceof Mop.Read r) {
                    if (r.values() == null) {
                        throw new IllegalArgumentException("malformed history: T" + op.id()
                                + " returned normally but its read of " + r.key() + " has no result");
                    }
                    observations.add(new Observation(op, r.key(), r.values()));
                }
            }
        }
        history.finalState().forEach((k, v) -> observations.add(new Observation(null, k, v)));
    }

    /** Duplicates, garbage and aborted reads, each value reported once. */
    private void checkValues() {
        Set<Long> duplicates = new HashSet<>();
        Set<Long> reported = new HashSet<>();
        for (Observation o : observations) {
            Set<Long> seen = new HashSet<>();
            for (long v : o.values()) {
                if (!seen.add(v)) {
                    if (!duplicates.add(v)) {
                        continue;
                    }
                    Writer w = writers.get(v);
                    report(Type.DUPLICATE, "value " + v + " appears twice in key " + o.key()
                            + " as " + o.who() + " saw it: " + HistoryText.list(o.values())
                            + (w == null ? "" : "; it was appended once, by " + describe(w.op())),
                            o.reader(), w == null ? null : w.op());
                    continue;
                }
                Writer w = writers.get(v);
                if (w == null || w.key() != o.key()) {
                    if (reported.add(v)) {
                        report(Type.GARBAGE, o.who() + " saw value " + v + " in key " + o.key()
                                + ", which no operation appended to that key"
                                + (w == null ? "" : " (" + describe(w.op()) + " appended it to key "
                                + w.key() + ")"), o.reader(), w == null ? null : w.op());
                    }
                } else if (w.op().outcome().failed() && reported.add(v)) {
                    report(Type.ABORTED_READ, o.who() + " saw value " + v + " in key " + o.key()
                            + ", appended by an operation that ended " + w.op().outcome() + ": "
                            + describe(w.op()) + (o.reader() == null ? "" : "\n  reader: "
                            + describe(o.reader())), o.reader(), w.op());
                }
            }
        }
    }

    private void buildOrders() {
        Map<Integer, List<Observation>> byKey = new TreeMap<>();
        for (Observation o : observations) {
            byKey.computeIfAbsent(o.key(), k -> new ArrayList<>()).add(o);
        }
        byKey.forEach((key, list) -> {
            Observation longest = list.get(0);
            for (Observation o : list) {
                if (o.values().size() > longest.values().size()
                        || (o.values().size() == longest.values().size() && o.reader() == null)) {
                    longest = o;
                }
            }
            for (Observation o : list) {
                int diverge = divergence(o.values(), longest.values());
                if (diverge >= 0) {
                    report(Type.INCOMPATIBLE_ORDER, "key " + key + ": " + o.who() + " saw "
                            + HistoryText.list(o.values()) + " and " + longest.who() + " saw "
                            + HistoryText.list(longest.values()) + "; they differ at position "
                            + diverge + " (" + o.values().get(diverge) + " vs "
                            + longest.values().get(diverge) + "), so no single order of appends "
                            + "explains both" + readers(o, longest), o.reader(), longest.reader());
                    return; // the key has no version order; it stays out of the graph
                }
            }
            orders.put(key, new KeyOrder(key, longest.values(), writers));
        });
    }

    /** The first index where {@code shorter} is not a prefix of {@code longer}, or -1. */
    private static int divergence(List<Long> shorter, List<Long> longer) {
        for (int i = 0; i < shorter.size(); i++) {
            if (!shorter.get(i).equals(longer.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private String readers(Observation... os) {
        StringBuilder s = new StringBuilder();
        for (Observation o : os) {
            if (o.reader() != null) {
                s.append("\n  ").append(describe(o.reader()));
            }
        }
        return s.toString();
    }

    // ------------------------------------------------------------------ cork and durability

    private void buildEpochs() {
        long corkInvoke = -1;
        long corkComplete = 0;
        long firstUncork = Op.NEVER;
        for (Op op : history.ops()) {
            if (op.kind() == Op.Kind.CORK && !op.outcome().failed()) {
                if (corkInvoke >= 0) {
                    throw new IllegalArgumentException("malformed history: T" + op.id()
                            + " corked while an earlier cork had no uncork");
                }
                corkInvoke = op.invoke();
                corkComplete = op.complete();
                firstUncork = Op.NEVER;
            } else if (op.kind() == Op.Kind.UNCORK && corkInvoke >= 0) {
                firstUncork = Math.min(firstUncork, op.invoke());
                Epoch.State state;
                switch (op.outcome()) {
                    case NOT_STARTED -> {
                        continue; // it never ran: still corked
                    }
                    case OK -> state = Epoch.State.COMMITTED;
                    case ROLLED_BACK -> state = Epoch.State.REVOKED;
                    default -> state = Epoch.State.UNCERTAIN;
                }
                epochs.add(new Epoch(corkInvoke, corkComplete, firstUncork, op.complete(), state));
                if (state == Epoch.State.REVOKED) {
                    report(Type.CORK_REVOKED, describe(op) + " reported that corked writes were "
                            + "lost; corked writes acknowledged before it may be gone, which this "
                            + "checker does not model", op);
                }
                corkInvoke = -1;
            }
        }
        if (corkInvoke >= 0) {
            epochs.add(new Epoch(corkInvoke, corkComplete, firstUncork, Op.NEVER,
                    Epoch.State.LOST));
        }
    }

    /** After a crash: whether an epoch that may never have committed may hold {@code w}. */
    private boolean mayBeLostWithCork(Op w) {
        if (!history.crashed()) {
            return false;
        }
        for (Epoch e : epochs) {
            if ((e.state() == Epoch.State.LOST || e.state() == Epoch.State.UNCERTAIN)
                    && e.possiblyHolds(w)) {
                return true;
            }
        }
        return false;
    }

    private boolean certainlyInLostEpoch(Op w) {
        for (Epoch e : epochs) {
            if (e.state() == Epoch.State.LOST && e.certainlyHolds(w)) {
                return true;
            }
        }
        return false;
    }

    private void checkDurability() {
        Map<Integer, Set<Long>> finalSets = new HashMap<>();
        history.finalState().forEach((k, v) -> finalSets.put(k, new HashSet<>(v)));
        for (Op op : history.ops()) {
            if (op.isCorkControl() || !op.appends() || op.outcome().failed()) {
                continue;
            }
            List<Mop.Append> missing = new ArrayList<>();
            int total = 0;
            for (Mop m : op.mops()) {
                if (m instanceof Mop.Append a) {
                    total++;
                    if (!finalSets.getOrDefault(a.key(), Set.of()).contains(a.value())) {
                        missing.add(a);
                    }
                }
            }
            int present = total - missing.size();
            boolean mayBeLost = mayBeLostWithCork(op);
            if (op.outcome() == Outcome.OK && !missing.isEmpty() && !mayBeLost) {
                report(Type.LOST_WRITE, describe(op) + " was acknowledged, but the final state "
                        + "lacks " + missing + seenBy(missing), op);
            } else if (present > 0 && present < total) {
                report(Type.NON_ATOMIC, describe(op) + " persisted in part: the final state "
                        + "lacks " + missing + " but holds its other appends", op);
            }
            if (history.crashed() && present > 0 && op.outcome() == Outcome.OK
                    && certainlyInLostEpoch(op)) {
                report(Type.PREMATURELY_DURABLE, describe(op) + " was applied after cork() "
                        + "returned and no uncork was asked for before the crash, yet it is in "
                        + "the final state: a corked write was durable before uncork", op);
            }
        }
        // Observed values missing from the final state, written by operations of unknown outcome.
        for (KeyOrder order : orders.values()) {
            List<Long> fin = history.finalList(order.key);
            for (int i = fin.size(); i < order.values.size(); i++) {
                Op w = order.writerAt[i];
                if (w != null && w.outcome() == Outcome.UNKNOWN && !mayBeLostWithCork(w)) {
                    report(Type.LOST_WRITE, "value " + order.values.get(i) + " of key " + order.key
                            + " was observed" + seenBy(List.of(new Mop.Append(order.key,
                            order.values.get(i)))) + " but is not in the final state "
                            + HistoryText.list(fin) + "; it was appended by " + describe(w), w);
                }
            }
        }
    }

    private String seenBy(List<Mop.Append> values) {
        for (Mop.Append a : values) {
            for (Observation o : observations) {
                if (o.reader() != null && o.key() == a.key() && o.values().contains(a.value())) {
                    return "; " + a.value() + " was observed by " + describe(o.reader());
                }
            }
        }
        return "; no read observed " + (values.size() == 1 ? "it" : "them");
    }

    // ------------------------------------------------------------------ reads

    /** A transaction's reads agree with its earlier reads and its own appends. */
    private void checkInternal() {
        for (Op op : history.ops()) {
            if (op.outcome() != Outcome.OK || op.isCorkControl()) {
                continue;
            }
            Map<Integer, List<Long>> known = new HashMap<>();
            Map<Integer, List<Long>> ownUnread = new HashMap<>();
            for (Mop m : op.mops()) {
                if (m instanceof Mop.Append a) {
                    List<Long> state = known.get(a.key());
                    (state != null ? state : ownUnread.computeIfAbsent(a.key(),
                            k -> new ArrayList<>())).add(a.value());
                } else if (m instanceof Mop.Read r) {
                    List<Long> expected = known.get(r.key());
                    if (expected != null && !expected.equals(r.values())) {
                        report(Type.INTERNAL, describe(op) + " read key " + r.key() + " as "
                                + HistoryText.list(r.values()) + " where its own earlier reads and "
                                + "appends make it " + HistoryText.list(expected), op);
                        break;
                    }
                    List<Long> own = ownUnread.getOrDefault(r.key(), List.of());
                    if (expected == null && !endsWith(r.values(), own)) {
                        report(Type.INTERNAL, describe(op) + " appended " + own + " to key "
                                + r.key() + " and then read " + HistoryText.list(r.values())
                                + ", which does not end with them", op);
                        break;
                    }
                    known.put(r.key(), new ArrayList<>(r.values()));
                }
            }
        }
    }

    private static boolean endsWith(List<Long> list, List<Long> tail) {
        return list.size() >= tail.size()
                && list.subList(list.size() - tail.size(), list.size()).equals(tail);
    }

    /** G1b: a read ending inside another transaction's run of appends to the key. */
    private void checkIntermediateReads() {
        for (KeyOrder order : orders.values()) {
            Map<Op, Integer> lastPosition = new HashMap<>();
            for (int i = 0; i < order.writerAt.length; i++) {
                if (order.writerAt[i] != null) {
                    lastPosition.put(order.writerAt[i], i);
                }
            }
            for (Observation o : observations) {
                int n = o.values().size();
                if (o.reader() == null || o.key() != order.key || n == 0) {
                    continue;
                }
                Op w = order.writerAt[n - 1];
                if (w != null && w != o.reader() && lastPosition.get(w) > n - 1) {
                    report(Type.INTERMEDIATE_READ, describe(o.reader()) + " read key " + order.key
                            + " as " + HistoryText.list(o.values()) + ", which holds "
                            + o.values().get(n - 1) + " but not " + order.values.get(n)
                            + ", both appended by " + describe(w), o.reader(), w);
                }
            }
        }
    }

    /**
     * Every append acknowledged before a read was invoked is in what the read saw. Per key, the
     * earliest acknowledgement among positions at or after each index tells in O(1) per read.
     */
    private void checkStaleReads() {
        Map<Integer, List<Observation>> byKey = new HashMap<>();
        for (Observation o : observations) {
            if (o.reader() != null) {
                byKey.computeIfAbsent(o.key(), k -> new ArrayList<>()).add(o);
            }
        }
        for (KeyOrder order : orders.values()) {
            int n = order.values.size();
            long[] earliestAck = new long[n + 1];
            int[] earliestAt = new int[n + 1];
            earliestAck[n] = Op.NEVER;
            earliestAt[n] = -1;
            for (int i = n - 1; i >= 0; i--) {
                Op w = order.writerAt[i];
                long ack = w != null && w.outcome() == Outcome.OK ? w.complete() : Op.NEVER;
                boolean earlier = ack < earliestAck[i + 1];
                earliestAck[i] = earlier ? ack : earliestAck[i + 1];
                earliestAt[i] = earlier ? i : earliestAt[i + 1];
            }
            for (Observation o : byKey.getOrDefault(order.key, List.of())) {
                int seen = o.values().size();
                if (seen <= n && earliestAck[seen] < o.reader().invoke()) {
                    int missed = earliestAt[seen];
                    Op w = order.writerAt[missed];
                    report(Type.STALE_READ, describe(o.reader()) + " read key " + order.key
                            + " as " + HistoryText.list(o.values()) + ", missing "
                            + order.values.get(missed) + ", which " + describe(w)
                            + " appended and was acknowledged at " + time(w.complete())
                            + ", before the read was invoked at " + time(o.reader().invoke()),
                            o.reader(), w);
                }
            }
        }
    }

    /** Appends never precede, in a list, an append acknowledged before they were invoked. */
    private void checkRealtimeOrder() {
        for (KeyOrder order : orders.values()) {
            long latestInvoke = Long.MIN_VALUE;
            int latestAt = -1;
            for (int j = 0; j < order.writerAt.length; j++) {
                Op w = order.writerAt[j];
                if (w == null) {
                    continue;
                }
                if (latestAt >= 0 && order.writerAt[latestAt] != w && w.complete() < latestInvoke) {
                    Op before = order.writerAt[latestAt];
                    report(Type.REALTIME_ORDER, "in key " + order.key + ", "
                            + order.values.get(latestAt) + " (by T" + before.id() + ") precedes "
                            + order.values.get(j) + " (by T" + w.id() + "), but T" + w.id()
                            + " was acknowledged at " + time(w.complete()) + ", before T"
                            + before.id() + " was invoked at " + time(before.invoke()) + "\n  "
                            + describe(before) + "\n  " + describe(w), before, w);
                    break;
                }
                if (w.invoke() > latestInvoke) {
                    latestInvoke = w.invoke();
                    latestAt = j;
                }
            }
        }
    }

    // ------------------------------------------------------------------ dependency graph

    /**
     * The dependency graph in compressed adjacency form. Node i is {@code nodes.get(i)}; the
     * edges of node i are {@code to[start[i] .. start[i+1])}, with their type and key.
     */
    private final class Graph {
        final List<Op> nodes = new ArrayList<>();
        final Map<Op, Integer> index = new HashMap<>();
        final long[] edgeCounts = new long[EDGE.length];
        int[] start;
        int[] to;
        byte[] type;
        int[] key;
        private final IntList from = new IntList();
        private final IntList rawTo = new IntList();
        private final IntList rawType = new IntList();
        private final IntList rawKey = new IntList();

        Graph() {
            Set<Op> present = new HashSet<>();
            for (KeyOrder order : orders.values()) {
                for (Op w : order.writerAt) {
                    if (w != null) {
                        present.add(w);
                    }
                }
            }
            for (Op op : history.ops()) {
                if (!op.isCorkControl() && (op.outcome() == Outcome.OK
                        || (op.outcome() == Outcome.UNKNOWN && present.contains(op)))) {
                    index.put(op, nodes.size());
                    nodes.add(op);
                }
            }
            addDataEdges();
            addRealtimeEdges();
            compress();
        }

        private void edge(Op a, Op b, int t, int k) {
            Integer ia = a == null ? null : index.get(a);
            Integer ib = b == null ? null : index.get(b);
            if (ia == null || ib == null || a == b) {
                return;
            }
            from.add(ia);
            rawTo.add(ib);
            rawType.add(t);
            rawKey.add(k);
            edgeCounts[t]++;
        }

        private void addDataEdges() {
            for (KeyOrder order : orders.values()) {
                for (int i = 1; i < order.writerAt.length; i++) {
                    edge(order.writerAt[i - 1], order.writerAt[i], WW, order.key);
                }
            }
            for (Observation o : observations) {
                KeyOrder order = orders.get(o.key());
                if (o.reader() == null || order == null) {
                    continue;
                }
                int seen = o.values().size();
                if (seen > 0) {
                    edge(order.writerAt[seen - 1], o.reader(), WR, o.key());
                }
                if (seen < order.writerAt.length) {
                    edge(o.reader(), order.writerAt[seen], RW, o.key());
                }
            }
        }

        /**
         * Real-time edges as the transitive reduction of "completed before invoked": events in
         * time order (invocations first at equal times: equal is not before); the frontier holds
         * completed operations not yet known to precede another completed one. An operation
         * invoked now follows everything in the frontier, and through it everything earlier.
         */
        private void addRealtimeEdges() {
            List<long[]> events = new ArrayList<>(); // {time, 0 invoke | 1 complete, node}
            for (int i = 0; i < nodes.size(); i++) {
                events.add(new long[] {nodes.get(i).invoke(), 0, i});
                if (nodes.get(i).completed()) {
                    events.add(new long[] {nodes.get(i).complete(), 1, i});
                }
            }
            events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
            LinkedHashSet<Integer> frontier = new LinkedHashSet<>();
            int[][] preds = new int[nodes.size()][];
            for (long[] e : events) {
                int n = (int) e[2];
                if (e[1] == 0) {
                    preds[n] = frontier.stream().mapToInt(Integer::intValue).toArray();
                } else {
                    for (int p : preds[n]) {
                        edge(nodes.get(p), nodes.get(n), RT, -1);
                        frontier.remove(p);
                    }
                    frontier.add(n);
                }
            }
        }

        private void compress() {
            int n = nodes.size();
            int m = from.size;
            start = new int[n + 1];
            for (int i = 0; i < m; i++) {
                start[from.get(i) + 1]++;
            }
            for (int i = 0; i < n; i++) {
                start[i + 1] += start[i];
            }
            to = new int[m];
            type = new byte[m];
            key = new int[m];
            int[] fill = Arrays.copyOf(start, n);
            for (int i = 0; i < m; i++) {
                int at = fill[from.get(i)]++;
                to[at] = rawTo.get(i);
                type[at] = (byte) rawType.get(i);
                key[at] = rawKey.get(i);
            }
        }

        /** Pass 1 without real-time edges (serializability), pass 2 with them (strict). */
        void findCycles() {
            int[] dataComponent = components(false);
            int[] dataSize = sizes(dataComponent);
            int reported = 0;
            for (List<Integer> scc : groups(dataComponent)) {
                if (scc.size() > 1 && reported < MAX_CYCLES) {
                    int[] cycle = shortestCycle(scc, dataComponent, false);
                    if (cycle != null) {
                        reportCycle(cycle, false);
                        reported++;
                    }
                }
            }
            int[] fullComponent = components(true);
            reported = 0;
            for (List<Integer> scc : groups(fullComponent)) {
                if (scc.size() < 2 || reported >= MAX_CYCLES) {
                    continue;
                }
                int first = dataComponent[scc.get(0)];
                boolean sameAsData = dataSize[first] == scc.size()
                        && scc.stream().allMatch(v -> dataComponent[v] == first);
                if (!sameAsData) {
                    int[] cycle = shortestRealtimeCycle(scc, fullComponent);
                    if (cycle != null) {
                        reportCycle(cycle, true);
                        reported++;
                    }
                }
            }
        }

        /** Tarjan's strongly connected components, iteratively (histories are deep). */
        private int[] components(boolean withRealtime) {
            int n = nodes.size();
            int[] comp = new int[n];
            int[] low = new int[n];
            int[] order = new int[n];
            Arrays.fill(order, -1);
            boolean[] onStack = new boolean[n];
            int[] stack = new int[n];
            int sp = 0;
            int[] callNode = new int[n];
            int[] callEdge = new int[n];
            int counter = 0;
            int components = 0;
            for (int root = 0; root < n; root++) {
                if (order[root] >= 0) {
                    continue;
                }
                int depth = 0;
                callNode[0] = root;
                callEdge[0] = start[root];
                order[root] = low[root] = counter++;
                stack[sp++] = root;
                onStack[root] = true;
                while (depth >= 0) {
                    int v = callNode[depth];
                    if (callEdge[depth] < start[v + 1]) {
                        int e = callEdge[depth]++;
                        if (!withRealtime && type[e] == RT) {
                            continue;
                        }
                        int w = to[e];
                        if (order[w] < 0) {
                            order[w] = low[w] = counter++;
                            stack[sp++] = w;
                            onStack[w] = true;
                            depth++;
                            callNode[depth] = w;
                            callEdge[depth] = start[w];
                        } else if (onStack[w]) {
                            low[v] = Math.min(low[v], order[w]);
                        }
                    } else {
                        if (low[v] == order[v]) {
                            int w;
                            do {
                                w = stack[--sp];
                                onStack[w] = false;
                                comp[w] = components;
                            } while (w != v);
                            components++;
                        }
                        depth--;
                        if (depth >= 0) {
                            int parent = callNode[depth];
                            low[parent] = Math.min(low[parent], low[v]);
                        }
                    }
                }
            }
            return comp;
        }

        private int[] sizes(int[] comp) {
            int[] size = new int[nodes.size() + 1];
            for (int c : comp) {
                size[c]++;
            }
            return size;
        }

        private List<List<Integer>> groups(int[] comp) {
            Map<Integer, List<Integer>> byComp = new TreeMap<>();
            for (int v = 0; v < comp.length; v++) {
                byComp.computeIfAbsent(comp[v], c -> new ArrayList<>()).add(v);
            }
            return new ArrayList<>(byComp.values());
        }

        /** The shortest cycle through any of the first few nodes of a component. */
        private int[] shortestCycle(List<Integer> scc, int[] comp, boolean withRealtime) {
            int[] best = null;
            for (int i = 0; i < Math.min(CYCLE_ATTEMPTS, scc.size()); i++) {
                int s = scc.get(i);
                int[] path = shortestPath(s, s, comp, withRealtime);
                if (path != null && (best == null || path.length < best.length)) {
                    best = path;
                }
            }
            return best;
        }

        /** The shortest cycle found through one of the component's real-time edges. */
        private int[] shortestRealtimeCycle(List<Integer> scc, int[] comp) {
            int[] best = null;
            int tried = 0;
            for (int u : scc) {
                for (int e = start[u]; e < start[u + 1] && tried < CYCLE_ATTEMPTS; e++) {
                    int v = to[e];
                    if (type[e] != RT || comp[v] != comp[u]) {
                        continue;
                    }
                    tried++;
                    int[] back = shortestPath(v, u, comp, true); // v .. u
                    if (back == null) {
                        continue;
                    }
                    int[] cycle = new int[back.length]; // u, v .. (the step back to u)
                    cycle[0] = u;
                    System.arraycopy(back, 0, cycle, 1, back.length - 1);
                    if (bestTypes(cycle, true)[RT] == 0) {
                        continue; // a data edge for every step: pass 1 reported it
                    }
                    cycle = shortcut(cycle);
                    if (best == null || cycle.length < best.length) {
                        best = cycle;
                    }
                }
            }
            return best;
        }

        /**
         * Breadth-first: the nodes of a shortest path from {@code s} to {@code t} inside the
         * component (for {@code s == t}, a shortest cycle: it starts at s, and the edge back to s
         * closes it). Null when there is none.
         */
        private int[] shortestPath(int s, int t, int[] comp, boolean withRealtime) {
            Map<Integer, Integer> parent = new HashMap<>();
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(s);
            parent.put(s, -1);
            while (!queue.isEmpty()) {
                int v = queue.poll();
                for (int e = start[v]; e < start[v + 1]; e++) {
                    int w = to[e];
                    if ((!withRealtime && type[e] == RT) || comp[w] != comp[s]) {
                        continue;
                    }
                    if (w == t) {
                        List<Integer> path = new ArrayList<>();
                        for (int x = v; x != -1; x = parent.get(x)) {
                            path.add(0, x);
                        }
                        if (s != t) {
                            path.add(t);
                        }
                        return path.stream().mapToInt(Integer::intValue).toArray();
                    }
                    if (!parent.containsKey(w)) {
                        parent.put(w, v);
                        queue.add(w);
                    }
                }
            }
            return null;
        }

        /** For each step of a cycle, its weakest edge type: ww before wr before rw before rt. */
        private int[] bestTypes(int[] cycle, boolean withRealtime) {
            int[] counts = new int[EDGE.length];
            for (int i = 0; i < cycle.length; i++) {
                counts[bestEdge(cycle[i], cycle[(i + 1) % cycle.length], withRealtime)[0]]++;
            }
            return counts;
        }

        /**
         * {type, key} of the weakest edge from a to b. With real time, "a completed before b was
         * invoked" is an edge even where the reduction left it out.
         */
        private int[] bestEdge(int a, int b, boolean withRealtime) {
            int[] best = {Integer.MAX_VALUE, -1};
            for (int e = start[a]; e < start[a + 1]; e++) {
                if (to[e] == b && type[e] < best[0] && (withRealtime || type[e] != RT)) {
                    best[0] = type[e];
                    best[1] = key[e];
                }
            }
            if (best[0] == Integer.MAX_VALUE && withRealtime && precedes(a, b)) {
                best[0] = RT;
            }
            return best;
        }

        private boolean precedes(int a, int b) {
            return nodes.get(a).complete() < nodes.get(b).invoke();
        }

        /**
         * Shortens a cycle where real time jumps ahead: if the operation at i completed before
         * the one at j was invoked, the steps between them are replaced by one real-time edge.
         * Real time alone is acyclic, so a data edge always remains.
         */
        private int[] shortcut(int[] cycle) {
            List<Integer> c = new ArrayList<>();
            for (int v : cycle) {
                c.add(v);
            }
            boolean changed = true;
            while (changed && c.size() > 2) {
                changed = false;
                search:
                for (int i = 0; i < c.size(); i++) {
                    for (int gap = c.size() - 1; gap >= 2; gap--) {
                        int j = (i + gap) % c.size();
                        if (precedes(c.get(i), c.get(j))) {
                            int[] kept = new int[c.size() - gap + 1];
                            for (int k = 0; k < kept.length; k++) {
                                kept[k] = c.get((j + k) % c.size());
                            }
                            // j .. i, then the real-time step from i back to j; a cycle left
                            // without any real-time step would be one pass 1 reported
                            if (bestTypes(kept, true)[RT] > 0) {
                                c = new ArrayList<>();
                                for (int v : kept) {
                                    c.add(v);
                                }
                                changed = true;
                                break search;
                            }
                        }
                    }
                }
            }
            return c.stream().mapToInt(Integer::intValue).toArray();
        }

        private void reportCycle(int[] cycle, boolean withRealtime) {
            int[] counts = bestTypes(cycle, withRealtime);
            Type t;
            if (counts[RW] == 0 && counts[WR] == 0) {
                t = counts[RT] > 0 ? Type.G0_REALTIME : Type.G0;
            } else if (counts[RW] == 0) {
                t = counts[RT] > 0 ? Type.G1C_REALTIME : Type.G1C;
            } else if (counts[RW] == 1) {
                t = counts[RT] > 0 ? Type.G_SINGLE_REALTIME : Type.G_SINGLE;
            } else {
                t = counts[RT] > 0 ? Type.G2_REALTIME : Type.G2;
            }
            StringBuilder s = new StringBuilder("a cycle of " + cycle.length + ": ");
            StringBuilder steps = new StringBuilder();
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i < cycle.length; i++) {
                Op a = nodes.get(cycle[i]);
                Op b = nodes.get(cycle[(i + 1) % cycle.length]);
                int[] edge = bestEdge(cycle[i], cycle[(i + 1) % cycle.length], withRealtime);
                s.append("T").append(a.id()).append(" -").append(EDGE[edge[0]])
                        .append(edge[1] >= 0 ? "(" + edge[1] + ")" : "").append("-> ");
                steps.append("\n  ").append(explainEdge(a, b, edge[0], edge[1]));
                ops.add(a);
            }
            s.append("T").append(nodes.get(cycle[0]).id());
            for (Op op : ops) {
                s.append("\n  ").append(describe(op));
            }
            report(t, s.append(steps).toString(), ops.toArray(new Op[0]));
        }
    }

    private String explainEdge(Op a, Op b, int t, int key) {
        KeyOrder order = t == RT ? null : orders.get(key);
        switch (t) {
            case WW -> {
                for (int i = 1; i < order.writerAt.length; i++) {
                    if (order.writerAt[i - 1] == a && order.writerAt[i] == b) {
                        return "ww: in key " + key + ", T" + a.id() + "'s " + order.values.get(i - 1)
                                + " is followed at once by T" + b.id() + "'s " + order.values.get(i);
                    }
                }
            }
            case WR -> {
                for (Observation o : observations) {
                    int n = o.values().size();
                    if (o.reader() == b && o.key() == key && n > 0 && order.writerAt[n - 1] == a) {
                        return "wr: T" + b.id() + " read key " + key + " as "
                                + HistoryText.list(o.values()) + ", ending with T" + a.id() + "'s "
                                + o.values().get(n - 1);
                    }
                }
            }
            case RW -> {
                for (Observation o : observations) {
                    int n = o.values().size();
                    if (o.reader() == a && o.key() == key && n < order.writerAt.length
                            && order.writerAt[n] == b) {
                        return "rw: T" + a.id() + " read key " + key + " as "
                                + HistoryText.list(o.values()) + ", without T" + b.id() + "'s "
                                + order.values.get(n) + ", the next element";
                    }
                }
            }
            default -> {
                return "rt: T" + a.id() + " completed at " + time(a.complete()) + ", before T"
                        + b.id() + " was invoked at " + time(b.invoke());
            }
        }
        return EDGE[t] + " T" + a.id() + " -> T" + b.id() + " on key " + key;
    }

    // ------------------------------------------------------------------ reporting

    private String describe(Op op) {
        return HistoryText.op(op, origin);
    }

    private String time(long nanos) {
        return HistoryText.time(nanos, origin);
    }

    private void report(Type type, String explanation, Op... ops) {
        List<Long> ids = new ArrayList<>();
        for (Op op : ops) {
            if (op != null) {
                ids.add(op.id());
            }
        }
        anomalies.add(new Anomaly(type, explanation, ids));
    }

    /** A growable int array: the graph of a long history has hundreds of thousands of edges. */
    private static final class IntList {
        int[] values = new int[1024];
        int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int get(int i) {
            return values[i];
        }
    }
}
