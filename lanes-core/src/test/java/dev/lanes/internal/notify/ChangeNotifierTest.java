package dev.lanes.internal.notify;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.lanes.Change;
import dev.lanes.LogCapture;
import dev.lanes.Subscription;
import dev.lanes.TestLanes;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One database's change notifications ({@link ChangeNotifier}) on a real dispatcher thread: the
 * version counts every commit, deliveries come in version order off the committing thread, a
 * backlog past {@link ChangeNotifier#MAX_PENDING} is merged into its newest change, a delivery
 * task hands out at most {@link ChangeNotifier#BATCH} changes before other databases get the
 * thread, and a failing listener harms nobody else.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChangeNotifierTest {
    private final ChangeDispatcher dispatcher = new ChangeDispatcher("notify-test");
    private final List<CountDownLatch> stalls = new ArrayList<>();

    @AfterEach
    void stop() {
        stalls.forEach(CountDownLatch::countDown);
        dispatcher.shutdown();
    }

    private static void commit(ChangeNotifier n, String... tables) {
        n.committed(new HashSet<>(List.of(tables)));
    }

    /** Holds the dispatcher thread inside a listener of a notifier of its own until released. */
    private CountDownLatch stallTheDispatcher() {
        ChangeNotifier staller = new ChangeNotifier("staller.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        stalls.add(release);
        staller.subscribe(change -> {
            inside.countDown();
            awaitQuietly(release);
        });
        commit(staller, "s");
        await(inside, "the dispatcher to be held");
        return release;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records deliveries, and waits for a number of them. */
    private static final class Recorder implements Consumer<Change> {
        final List<Change> changes = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        @Override
        public void accept(Change c) {
            changes.add(c);
            threads.add(Thread.currentThread());
        }

        List<Long> versions() {
            return changes.stream().map(Change::version).toList();
        }

        void awaitCount(int n) {
            awaitTrue(n + " changes", () -> changes.size() >= n);
        }
    }

    @Test
    void theVersionCountsEveryCommitAndTablesAreTrackedOnlyWhileSomeoneListens() {
        ChangeNotifier n = new ChangeNotifier("a.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
        assertThat(n.tracksTables()).isFalse();
        commit(n, "t");
        commit(n, "t");
        assertThat(n.version()).isEqualTo(2);

        Recorder r = new Recorder();
        Subscription s = n.subscribe(r);
        assertThat(n.tracksTables()).isTrue();
        assertThat(n.subscribers()).isEqualTo(1);
        commit(n, "u");
        r.awaitCount(1);
        assertThat(r.changes).as("only changes after the subscription")
                .containsExactly(new Change(3, Set.of("u")));

        s.close();
        s.close(); // idempotent
        assertThat(s.isActive()).isFalse();
        assertThat(n.tracksTables()).isFalse();
        assertThat(n.subscribers()).isZero();
        commit(n, "v");
        assertThat(n.version()).isEqualTo(4);
    }

    @Test
    void changesAreDeliveredInVersionOrderOnTheDispatcherThreadNeverTheCommittingOne() {
        ChangeNotifier n = new ChangeNotifier("order.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
        Recorder r = new Recorder();
        n.subscribe(r);
        for (int i = 1; i <= 300; i++) {
            commit(n, "t" + (i % 3));
        }
        r.awaitCount(300);
        List<Long> expected = new ArrayList<>();
        for (long v = 1; v <= 300; v++) {
            expected.add(v);
        }
        assertThat(r.versions()).isEqualTo(expected);
        assertThat(r.threads).allSatisfy(t -> {
            assertThat(t).isNotSameAs(Thread.currentThread());
            assertThat(t.getName()).isEqualTo("notify-test-changes");
        });
    }

    @Test
    void aBacklogPastTheBoundIsMergedIntoItsNewestChangeKeepingEveryTable() {
        int max = ChangeNotifier.MAX_PENDING;
        ChangeNotifier n = new ChangeNotifier("backlog.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        stalls.add(release);
        Recorder r = new Recorder();
        n.subscribe(change -> {
            r.accept(change);
            if (change.version() == 1) {
                first.countDown();
                awaitQuietly(release); // a slow listener: the backlog builds up behind it
            }
        });
        commit(n, "t0");
        await(first, "the first delivery");
        int extra = 10;
        for (int i = 1; i <= max + extra; i++) {
            commit(n, "t" + i);
        }
        release.countDown();
        r.awaitCount(1 + max);

        assertThat(n.version()).isEqualTo(1 + max + extra);
        assertThat(r.changes).as("the first, the %d waiting, no more", max).hasSize(1 + max);
        List<Change> each = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            each.add(new Change(i + 1, Set.of("t" + i)));
        }
        assertThat(r.changes.subList(0, max)).as("each delivered alone, in order").isEqualTo(each);
        Change merged = r.changes.get(max);
        assertThat(merged.version()).as("the newest version").isEqualTo(1 + max + extra);
        Set<String> tables = new HashSet<>();
        for (int i = max; i <= max + extra; i++) {
            tables.add("t" + i);
        }
        assertThat(merged.tables()).as("the union of the merged changes' tables")
                .isEqualTo(tables);
    }

    @Test
    void aDeliveryTaskHandsOutABatchThenLetsAnotherDatabaseHaveTheThread() {
        int batch = ChangeNotifier.BATCH;
        CountDownLatch held = stallTheDispatcher();
        List<String> delivered = new CopyOnWriteArrayList<>();
        ChangeNotifier a = new ChangeNotifier("a.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
        ChangeNotifier b = new ChangeNotifier("b.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
        a.subscribe(c -> delivered.add("a" + c.version()));
        b.subscribe(c -> delivered.add("b" + c.version()));
        int each = batch + batch / 2;
        for (int i = 0; i < each; i++) {
            commit(a, "t");
        }
        for (int i = 0; i < each; i++) {
            commit(b, "t");
        }
        held.countDown();
        awaitTrue("every change", () -> delivered.size() == 2 * each);

        List<String> expected = new ArrayList<>();
        for (int[] run : new int[][] {{'a', 1, batch}, {'b', 1, batch}, {'a', batch + 1, each},
                {'b', batch + 1, each}}) {
            for (int v = run[1]; v <= run[2]; v++) {
                expected.add((char) run[0] + String.valueOf(v));
            }
        }
        assertThat(delivered).isEqualTo(expected);
    }

    @Test
    void aListenerThatThrowsIsLoggedAndTheOtherListenersAndCommitsGoOn() {
        try (LogCapture log = LogCapture.of(LogNames.NOTIFY).quiet()) {
            ChangeNotifier n = new ChangeNotifier("throwing.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
            n.subscribe(c -> {
                throw new IllegalStateException("listener failed");
            });
            Recorder r = new Recorder();
            n.subscribe(r);
            commit(n, "t");
            commit(n, "t");
            r.awaitCount(2);
            assertThat(r.versions()).containsExactly(1L, 2L);
            awaitTrue("both failures logged", () -> log.messages(Level.WARN).size() == 2);
            assertThat(log.messages(Level.WARN)).allSatisfy(m -> assertThat(m)
                    .startsWith("throwing.db: a change listener failed on change ")
                    .contains("other listeners and the database are unaffected"));
            assertThat(log.events()).allSatisfy(e -> assertThat(e.getThrowableProxy().getMessage())
                    .isEqualTo("listener failed"));
        }
    }

    @Test
    void afterTheRuntimeClosedACommitStillCountsAndNothingIsDelivered() {
        ChangeNotifier n = new ChangeNotifier("closed.db", dispatcher, Clock.SYSTEM,
                MetricsReporter.NONE);
        Recorder r = new Recorder();
        n.subscribe(r);
        dispatcher.shutdown();
        commit(n, "t");
        commit(n, "t");
        assertThat(n.version()).isEqualTo(2);
        assertThat(r.changes).isEmpty();
    }
}
