package dev.lanes;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.TestLanes.Blocker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * After each commit that changed rows the change version goes up once and subscribers are told
 * which tables changed, on a dispatcher thread; rollbacks and writes that change nothing are
 * silent, and a failing listener harms nobody.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChangeNotificationTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("changes.db");
        db.execute("CREATE TABLE u(id INTEGER PRIMARY KEY, w TEXT)");
    }

    /** Records every change it is told of. */
    static final class Recorder implements java.util.function.Consumer<Change> {
        final BlockingQueue<Change> changes = new LinkedBlockingQueue<>();
        final BlockingQueue<Thread> threads = new LinkedBlockingQueue<>();

        @Override
        public void accept(Change change) {
            threads.add(Thread.currentThread());
            changes.add(change);
        }

        Change next() throws InterruptedException {
            Change c = changes.poll(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(c).as("a change notification within " + TestLanes.WAIT).isNotNull();
            return c;
        }
    }

    @Test
    void eachCommitNotifiesOnceWithTheTablesItChanged() throws Exception {
        Recorder recorder = new Recorder();
        long v0 = db.changeVersion();
        try (Subscription s = db.onChange(recorder)) {
            assertThat(s.isActive()).isTrue();
            db.execute("INSERT INTO t(v) VALUES ('a')");
            db.write(c -> {
                c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('b')");
                c.createStatement().executeUpdate("INSERT INTO u(w) VALUES ('b')");
                return null;
            });
            db.execute("UPDATE u SET w = 'c'");
            db.execute("DELETE FROM t WHERE v = 'a'");

            assertThat(recorder.next()).isEqualTo(new Change(v0 + 1, Set.of("t")));
            assertThat(recorder.next()).isEqualTo(new Change(v0 + 2, Set.of("t", "u")));
            assertThat(recorder.next()).isEqualTo(new Change(v0 + 3, Set.of("u")));
            assertThat(recorder.next()).isEqualTo(new Change(v0 + 4, Set.of("t")));
            assertThat(db.changeVersion()).isEqualTo(v0 + 4);
        }
    }

    @Test
    void rollbacksAndWritesThatChangeNothingDoNotNotify() throws Exception {
        Recorder recorder = new Recorder();
        db.onChange(recorder);
        long v0 = db.changeVersion();

        assertThat(catchThrowable(() -> db.write(c -> {
            c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('rolled back')");
            throw new IllegalStateException("the body fails after writing");
        }))).isInstanceOf(WriteFailedException.class);
        assertThat(catchThrowable(
                () -> db.execute("INSERT INTO t(id, v) VALUES (1, 'x'), (1, 'dup')")))
                .isInstanceOf(WriteFailedException.class);
        assertThat(db.execute("UPDATE t SET v = 'nobody' WHERE id = -1")).isZero();
        assertThat(db.<Long>write(c -> {
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return rs.getLong(1);
            }
        })).isZero();
        assertThat(db.changeVersion()).as("nothing committed a change").isEqualTo(v0);

        db.execute("INSERT INTO u(w) VALUES ('the first real change')");
        assertThat(recorder.next()).as("the first notification is the real change")
                .isEqualTo(new Change(v0 + 1, Set.of("u")));
        assertThat(recorder.changes).isEmpty();
    }

    @Test
    void theVersionIncreasesOncePerCommitGroupNotPerWrite() {
        long v0 = db.changeVersion();
        long groups0 = db.diagnostics().writer().counters().groupsCommitted();
        long writes0 = db.diagnostics().writer().counters().committed();
        List<CompletableFuture<String>> queued = new ArrayList<>();
        try (Blocker blocker = block(db, insert("blocker"))) {
            for (int i = 0; i < 5; i++) {
                queued.add(db.writeAsync(insert("queued-" + i)));
            }
            blocker.release();
            join(blocker.future);
        }
        queued.forEach(TestLanes::join);
        long groups = db.diagnostics().writer().counters().groupsCommitted() - groups0;
        long writes = db.diagnostics().writer().counters().committed() - writes0;
        assertThat(writes).isEqualTo(6);
        assertThat(groups).as("the queued writes shared a commit").isLessThan(writes);
        assertThat(db.changeVersion() - v0).isEqualTo(groups);
    }

    @Test
    void listenersRunOnADispatcherThreadNeverTheWritersAndOnlyForLaterCommits() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('before subscribing')");
        long v0 = db.changeVersion();
        Recorder recorder = new Recorder();
        db.onChange(recorder);
        AtomicReference<Thread> writer = new AtomicReference<>();
        db.write(c -> {
            writer.set(Thread.currentThread());
            return insert("after").apply(c);
        });
        assertThat(recorder.next().version()).isEqualTo(v0 + 1);
        Thread listenerThread = recorder.threads.poll();
        assertThat(listenerThread).isNotSameAs(writer.get()).isNotSameAs(Thread.currentThread());
        assertThat(listenerThread.getName()).isEqualTo("test-changes");
        assertThat(listenerThread.isDaemon()).isTrue();
    }

    @Test
    void aThrowingListenerIsLoggedAndAffectsNeitherOtherListenersNorTheDatabase()
            throws Exception {
        AtomicInteger throwingCalls = new AtomicInteger();
        db.onChange(change -> {
            throwingCalls.incrementAndGet();
            throw new IllegalStateException("listener bug");
        });
        db.onChange(change -> {
            throwingCalls.incrementAndGet();
            throw new AssertionError("listener error");
        });
        Recorder recorder = new Recorder();
        db.onChange(recorder);
        long v0 = db.changeVersion();

        db.execute("INSERT INTO t(v) VALUES ('one')");
        db.execute("INSERT INTO t(v) VALUES ('two')");
        assertThat(recorder.next().version()).isEqualTo(v0 + 1);
        assertThat(recorder.next().version()).isEqualTo(v0 + 2);
        assertThat(throwingCalls).hasValue(4);
        assertThat(TestLanes.countOf(db, "two")).isEqualTo(1);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void aClosedSubscriptionIsToldNothingMore() throws Exception {
        Recorder closed = new Recorder();
        Recorder open = new Recorder();
        Subscription s = db.onChange(closed);
        db.onChange(open);
        s.close();
        s.close(); // idempotent
        assertThat(s.isActive()).isFalse();

        db.execute("INSERT INTO t(v) VALUES ('x')");
        open.next();
        // The open recorder's delivery ran after the closed one's would have: nothing came.
        assertThat(closed.changes).isEmpty();
    }

    @Test
    void aListenerMayCloseItsOwnSubscriptionAndUseTheDatabase() throws Exception {
        Recorder after = new Recorder();
        AtomicReference<Subscription> self = new AtomicReference<>();
        AtomicReference<Object> readInListener = new AtomicReference<>();
        CountDownLatch called = new CountDownLatch(1);
        self.set(db.onChange(change -> {
            readInListener.set(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"));
            self.get().close();
            called.countDown();
        }));
        db.execute("INSERT INTO t(v) VALUES ('x')");
        await(called, "the listener");
        assertThat(readInListener.get()).isEqualTo(1L);
        db.onChange(after);
        db.execute("INSERT INTO t(v) VALUES ('y')");
        after.next();
        assertThat(self.get().isActive()).isFalse();
    }

    @Test
    void aSlowListenerCostsBoundedMemoryAndSeesMergedChangesInOrder() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstCall = new CountDownLatch(1);
        List<Change> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        db.onChange(change -> {
            firstCall.countDown();
            try {
                release.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            seen.add(change);
        });
        long v0 = db.changeVersion();
        db.execute("INSERT INTO t(v) VALUES ('first')");
        await(firstCall, "the listener to block on the first change");
        int commits = 1500;
        for (int i = 0; i < commits; i++) {
            db.execute(i % 2 == 0 ? "INSERT INTO t(v) VALUES ('x')"
                    : "INSERT INTO u(w) VALUES ('x')");
        }
        long last = db.changeVersion();
        assertThat(last).isEqualTo(v0 + 1 + commits);
        release.countDown();
        TestLanes.awaitTrue("the last change to arrive",
                () -> !seen.isEmpty() && seen.get(seen.size() - 1).version() == last);

        assertThat(seen.size()).as("merged under the backlog").isLessThan(commits + 1);
        Set<String> tables = new HashSet<>();
        long previous = v0;
        for (Change c : seen) {
            assertThat(c.version()).isGreaterThan(previous);
            previous = c.version();
            tables.addAll(c.tables());
        }
        assertThat(tables).containsExactlyInAnyOrder("t", "u");
    }
}
