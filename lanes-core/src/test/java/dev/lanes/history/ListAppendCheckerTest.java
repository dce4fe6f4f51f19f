package dev.lanes.history;

import static dev.lanes.history.Mop.append;
import static dev.lanes.history.Mop.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.history.Anomaly.Type;
import dev.lanes.history.Op.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The checker on hand-built histories: it passes valid ones (UNKNOWN operations present or absent,
 * failed operations absent, corked writes lost in a crash) and catches each kind of break with an
 * explanation that names the operations involved. Pure Java, no database.
 */
@Timeout(30)
class ListAppendCheckerTest {

    // ------------------------------------------------------------------ valid histories

    @Test
    void aSerialHistoryIsValid() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1), read(1, 1))
                .ok(20, 30, read(1, 1), append(1, 2), append(2, 3))
                .ok(40, 50, read(1, 1, 2), read(2, 3))
                .finalList(1, 1, 2).finalList(2, 3)
                .build();
        assertValid(h);
    }

    @Test
    void concurrentOperationsMayTakeEffectInEitherOrder() {
        // T1 and T2 overlap, so T2's append may come first; the reads overlap both.
        History h = new HistoryBuilder()
                .ok(0, 100, append(1, 1))
                .ok(10, 90, append(1, 2))
                .ok(20, 30, read(1, 2))
                .ok(50, 60, read(1, 2, 1))
                .finalList(1, 2, 1)
                .build();
        assertValid(h);
    }

    @Test
    void anUnknownOperationMayBePresentOnceInItsPlace() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .failed(Outcome.UNKNOWN, 20, 30, append(1, 2), append(2, 3), read(2))
                .ok(40, 50, read(1, 1, 2), read(2, 3))
                .finalList(1, 1, 2).finalList(2, 3)
                .build();
        assertValid(h);
    }

    @Test
    void anUnknownOperationMayBeAbsent() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .failed(Outcome.UNKNOWN, 20, 30, append(1, 2), append(2, 3))
                .ok(40, 50, read(1, 1), read(2))
                .finalList(1, 1)
                .build();
        assertValid(h);
    }

    @Test
    void failedOperationsThatLeftNoTraceAreValid() {
        History h = new HistoryBuilder()
                .failed(Outcome.ROLLED_BACK, 0, 10, append(1, 1), read(1, 1))
                .failed(Outcome.NOT_STARTED, 5, 6, append(2, 2))
                .ok(20, 30, read(1), read(2))
                .ok(40, 50, append(1, 3))
                .finalList(1, 3)
                .build();
        assertValid(h);
    }

    @Test
    void readsInsideAWriteSeeTheirOwnAppends() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .ok(20, 30, read(1, 1), append(1, 2), read(1, 1, 2), append(1, 3), read(1, 1, 2, 3))
                .ok(40, 50, append(2, 4), read(2, 4))
                .finalList(1, 1, 2, 3).finalList(2, 4)
                .build();
        assertValid(h);
    }

    @Test
    void aCrashMayLoseIncompleteOperationsAndCorkedWritesThatWereNeverUncorked() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .cork(20, 30)
                .ok(40, 50, append(1, 2)) // applied inside the cork
                .ok(60, 70, read(1, 1, 2)) // a read while corked sees it
                .incomplete(80, append(2, 3))
                .incomplete(85, append(1, 4))
                .crashed()
                .finalList(1, 1)
                .build();
        assertValid(h);
    }

    @Test
    void aCrashAfterAnUncorkReturnedKeepsTheCorkedWrites() {
        History h = new HistoryBuilder()
                .cork(0, 10)
                .ok(20, 30, append(1, 1))
                .uncork(40, 50, Outcome.OK)
                .ok(60, 70, append(1, 2))
                .incomplete(80, append(1, 3))
                .crashed()
                .finalList(1, 1, 2, 3)
                .build();
        assertValid(h);
    }

    @Test
    void aCrashBeforeADeferredUncorkRanMayLoseTheCorkedWrites() {
        // uncork() returned while a transaction held the lane: it was only requested
        History h = new HistoryBuilder()
                .cork(0, 10)
                .ok(20, 30, append(1, 1))
                .uncork(40, 50, Outcome.UNKNOWN)
                .crashed()
                .finalList(1)
                .build();
        assertValid(h);
    }

    @Test
    void withoutACrashTheWritesOfADeferredUncorkMustPersist() {
        History h = new HistoryBuilder()
                .cork(0, 10)
                .ok(20, 30, append(1, 1))
                .uncork(40, 50, Outcome.UNKNOWN)
                .finalList(1)
                .build();
        assertThat(only(h, Type.LOST_WRITE).ops()).containsExactly(2L);
    }

    @Test
    void aGeneratedSerialHistoryOfThousandsOfOperationsIsValid() {
        History h = generated(new Random(7), 3000).build();
        CheckResult result = ListAppendChecker.check(h);
        assertThat(result.valid()).as(result.report()).isTrue();
        assertThat(result.figures().get("graph.edges.rt")).isPositive();
        assertThat(result.figures().get("graph.edges.rw")).isPositive();
    }

    // ------------------------------------------------------------------ broken on purpose

    @Test
    void aLostAcknowledgedWriteIsCaught() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .ok(20, 30, append(1, 2))
                .ok(40, 50, read(1, 1, 2))
                .finalList(1, 1)
                .build();
        Anomaly lost = only(h, Type.LOST_WRITE);
        assertThat(lost.ops()).containsExactly(2L);
        assertThat(lost.explanation()).contains("T2").contains("[a(1,2)]").contains("T3");
    }

    @Test
    void aLostWriteNobodyReadIsCaughtFromTheFinalState() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1), append(2, 2))
                .finalList(1, 1)
                .build();
        assertThat(only(h, Type.LOST_WRITE).explanation()).contains("no read observed it");
    }

    @Test
    void aStaleReadIsCaughtAndExplainedByItsTwoOperations() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .ok(20, 30, append(1, 2))
                .ok(40, 50, read(1, 1)) // invoked after T2 was acknowledged, yet misses 2
                .finalList(1, 1, 2)
                .build();
        CheckResult result = ListAppendChecker.check(h);
        Anomaly stale = only(result, Type.STALE_READ);
        assertThat(stale.ops()).containsExactly(3L, 2L);
        assertThat(stale.explanation()).contains("missing 2");
        Anomaly cycle = only(result, Type.G_SINGLE_REALTIME);
        assertThat(cycle.ops()).containsExactlyInAnyOrder(2L, 3L);
        assertThat(cycle.explanation()).contains("-rw(1)->").contains("-rt->");
        assertThat(result.types()).containsOnlyKeys(Type.STALE_READ, Type.G_SINGLE_REALTIME);
    }

    @Test
    void aStaleReadIsFoundAmongThousandsOfValidOperations() {
        HistoryBuilder b = generated(new Random(11), 2000);
        History valid = b.build();
        int key = valid.finalState().keySet().iterator().next();
        List<Long> list = valid.finalList(key);
        long last = list.get(list.size() - 1);
        long[] missingLast = list.subList(0, list.size() - 1).stream().mapToLong(Long::longValue)
                .toArray();
        long readerId = b.nextId();
        b.ok(1_000_000, 1_000_010, read(key, missingLast));
        CheckResult result = ListAppendChecker.check(b.build());
        Anomaly stale = only(result, Type.STALE_READ);
        assertThat(stale.explanation()).contains("missing " + last);
        assertThat(stale.ops()).contains(readerId).hasSize(2);
        assertThat(only(result, Type.G_SINGLE_REALTIME).ops()).hasSize(2).contains(readerId);
    }

    @Test
    void aDuplicateAppendIsCaughtInAReadAndInTheFinalState() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .failed(Outcome.UNKNOWN, 20, 30, append(1, 2))
                .ok(40, 50, read(1, 1, 2, 2))
                .finalList(1, 1, 2, 2)
                .build();
        Anomaly duplicate = only(h, Type.DUPLICATE);
        assertThat(duplicate.explanation()).contains("value 2 appears twice");
        assertThat(duplicate.ops()).contains(2L);
    }

    @Test
    void aReorderedListIsCaught() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .ok(0, 10, append(1, 2))
                .ok(20, 30, read(1, 1, 2))
                .ok(40, 50, read(1, 2, 1))
                .finalList(1, 1, 2)
                .build();
        Anomaly reorder = only(h, Type.INCOMPATIBLE_ORDER);
        assertThat(reorder.explanation()).contains("differ at position 0");
        assertThat(reorder.ops()).contains(4L);
    }

    @Test
    void anAbortedReadIsCaught() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .failed(Outcome.ROLLED_BACK, 20, 30, append(1, 2))
                .ok(40, 50, read(1, 1, 2))
                .finalList(1, 1)
                .build();
        Anomaly aborted = only(h, Type.ABORTED_READ);
        assertThat(aborted.ops()).containsExactly(3L, 2L);
        assertThat(aborted.explanation()).contains("ended ROLLED_BACK");
    }

    @Test
    void aNotStartedAppendThatPersistedIsCaught() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .failed(Outcome.NOT_STARTED, 20, 30, append(1, 2))
                .finalList(1, 1, 2)
                .build();
        assertThat(only(h, Type.ABORTED_READ).explanation()).contains("the final state")
                .contains("NOT_STARTED");
    }

    @Test
    void aRealTimeViolationIsCaught() {
        // T1 was acknowledged before T2 was invoked, yet T2's append comes first.
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .ok(20, 30, append(1, 2))
                .finalList(1, 2, 1)
                .build();
        CheckResult result = ListAppendChecker.check(h);
        assertThat(only(result, Type.REALTIME_ORDER).ops()).containsExactly(2L, 1L);
        Anomaly cycle = only(result, Type.G0_REALTIME);
        assertThat(cycle.explanation()).contains("-ww(1)->").contains("-rt->");
        assertThat(result.types()).containsOnlyKeys(Type.REALTIME_ORDER, Type.G0_REALTIME);
    }

    @Test
    void aWriteCycleIsG0() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1), append(2, 2))
                .ok(0, 10, append(1, 3), append(2, 4))
                .finalList(1, 1, 3).finalList(2, 4, 2)
                .build();
        assertThat(only(h, Type.G0).ops()).containsExactlyInAnyOrder(1L, 2L);
    }

    @Test
    void readingEachOthersWritesIsG1c() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1), read(2, 2))
                .ok(0, 10, append(2, 2), read(1, 1))
                .finalList(1, 1).finalList(2, 2)
                .build();
        assertThat(only(h, Type.G1C).explanation()).contains("-wr(1)->").contains("-wr(2)->");
    }

    @Test
    void aFracturedSnapshotIsGSingle() {
        // T2 sees T1's append to key 1 but not its append to key 2: not one snapshot.
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1), append(2, 2))
                .ok(5, 15, read(1, 1), read(2))
                .finalList(1, 1).finalList(2, 2)
                .build();
        Anomaly fractured = only(h, Type.G_SINGLE);
        assertThat(fractured.explanation()).contains("-wr(1)->").contains("-rw(2)->");
    }

    @Test
    void aLostUpdateIsGSingle() {
        // Both read the empty list and appended: one read is not the state it appended to.
        History h = new HistoryBuilder()
                .ok(0, 10, read(1), append(1, 1))
                .ok(0, 10, read(1), append(1, 2))
                .finalList(1, 1, 2)
                .build();
        assertThat(only(h, Type.G_SINGLE).ops()).containsExactlyInAnyOrder(1L, 2L);
    }

    @Test
    void writeSkewIsG2() {
        History h = new HistoryBuilder()
                .ok(0, 10, read(1), append(2, 1))
                .ok(0, 10, read(2), append(1, 2))
                .finalList(1, 2).finalList(2, 1)
                .build();
        assertThat(only(h, Type.G2).explanation()).contains("-rw(1)->").contains("-rw(2)->");
    }

    @Test
    void anIntermediateReadIsG1b() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1), append(1, 2))
                .ok(5, 15, read(1, 1))
                .finalList(1, 1, 2)
                .build();
        assertThat(only(h, Type.INTERMEDIATE_READ).ops()).containsExactly(2L, 1L);
    }

    @Test
    void aReadThatMissesItsOwnAppendIsInternal() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1), read(1))
                .finalList(1, 1)
                .build();
        assertThat(only(h, Type.INTERNAL).explanation()).contains("does not end with them");
    }

    @Test
    void aValueNobodyAppendedIsGarbage() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .ok(20, 30, read(1, 1, 99))
                .finalList(1, 1, 99)
                .build();
        assertThat(only(h, Type.GARBAGE).explanation()).contains("99");
    }

    @Test
    void anUnknownOperationThatPersistedInPartIsNonAtomic() {
        History h = new HistoryBuilder()
                .failed(Outcome.UNKNOWN, 0, 10, append(1, 1), append(2, 2))
                .finalList(1, 1)
                .build();
        assertThat(only(h, Type.NON_ATOMIC).explanation()).contains("a(2,2)");
    }

    @Test
    void aValueObservedOutsideACorkAndLostInACrashIsALostWrite() {
        History h = new HistoryBuilder()
                .incomplete(0, append(1, 1))
                .ok(20, 30, read(1, 1))
                .crashed()
                .finalList(1)
                .build();
        assertThat(only(h, Type.LOST_WRITE).explanation()).contains("was observed");
    }

    @Test
    void anAcknowledgedWriteOutsideAnyCorkLostInACrashIsALostWrite() {
        History h = new HistoryBuilder()
                .cork(0, 10)
                .ok(20, 30, append(1, 1))
                .uncork(40, 50, Outcome.OK)
                .ok(60, 70, append(1, 2))
                .crashed()
                .finalList(1, 1)
                .build();
        assertThat(only(h, Type.LOST_WRITE).ops()).containsExactly(4L);
    }

    @Test
    void aCorkedWriteThatSurvivedACrashBeforeAnyUncorkIsPrematurelyDurable() {
        History h = new HistoryBuilder()
                .cork(0, 10)
                .ok(20, 30, append(1, 1))
                .crashed()
                .finalList(1, 1)
                .build();
        assertThat(only(h, Type.PREMATURELY_DURABLE).ops()).containsExactly(2L);
    }

    @Test
    void anUncorkThatReportsLostWritesIsFlaggedAsOutsideTheModel() {
        History h = new HistoryBuilder()
                .cork(0, 10)
                .uncork(20, 30, Outcome.ROLLED_BACK)
                .build();
        assertThat(only(h, Type.CORK_REVOKED).ops()).containsExactly(2L);
    }

    @Test
    void aValueAppendedTwiceByTheWorkloadIsAMalformedHistoryNotAnAnomaly() {
        History h = new HistoryBuilder()
                .ok(0, 10, append(1, 1))
                .ok(20, 30, append(2, 1))
                .build();
        assertThatThrownBy(() -> ListAppendChecker.check(h))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("value 1");
    }

    // ------------------------------------------------------------------ helpers

    private static void assertValid(History h) {
        CheckResult result = ListAppendChecker.check(h);
        assertThat(result.anomalies()).as(result.report()).isEmpty();
    }

    private static Anomaly only(History h, Type type) {
        return only(ListAppendChecker.check(h), type);
    }

    /** The one anomaly of {@code type}; the report is the failure message otherwise. */
    private static Anomaly only(CheckResult result, Type type) {
        List<Anomaly> found = result.anomalies().stream().filter(a -> a.type() == type).toList();
        assertThat(found).as(result.report()).hasSize(1);
        return found.get(0);
    }

    /**
     * A valid history of {@code n} transactions over six keys (at most one append per key and
     * transaction, so that dropping a list's last element misses one whole transaction), run in
     * a serial order whose commit points are 10 apart; each operation's interval surrounds its
     * commit point by up to 25 on either side, so neighbours overlap and real time agrees with
     * the serial order.
     */
    private static HistoryBuilder generated(Random random, int n) {
        HistoryBuilder b = new HistoryBuilder();
        Map<Integer, List<Long>> state = new HashMap<>();
        long value = 0;
        for (int i = 0; i < n; i++) {
            long commit = 100 + 10L * i;
            List<Mop> mops = new ArrayList<>();
            java.util.Set<Integer> appended = new java.util.HashSet<>();
            for (int m = 1 + random.nextInt(3); m > 0; m--) {
                int key = random.nextInt(6);
                List<Long> list = state.computeIfAbsent(key, k -> new ArrayList<>());
                if (random.nextBoolean() && appended.add(key)) {
                    list.add(++value);
                    mops.add(append(key, value));
                } else {
                    mops.add(read(key, list.stream().mapToLong(Long::longValue).toArray()));
                }
            }
            b.ok(commit - random.nextInt(26), commit + random.nextInt(26), mops.toArray(new Mop[0]));
        }
        state.forEach((k, v) -> b.finalList(k, v.stream().mapToLong(Long::longValue).toArray()));
        return b;
    }
}
