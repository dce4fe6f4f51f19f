package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The interactive-transaction state is observable: a query and a listener of its changes. */
@Timeout(30)
class TransactionStateListenerTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.withLanesDefaults();

    @Test
    void listenersHearEachTransactionOpenAndEndInOrderOffTheWriterThread() throws Exception {
        Database db = runtime.open("tx.db");
        db.execute("CREATE TABLE t(v)");
        BlockingQueue<Boolean> heard = new LinkedBlockingQueue<>();
        BlockingQueue<String> threads = new LinkedBlockingQueue<>();
        Subscription s = db.onTransactionStateChange(open -> {
            heard.add(open);
            threads.add(Thread.currentThread().getName());
        });

        assertThat(db.isTransactionOpen()).isFalse();
        try (Transaction tx = db.begin()) {
            assertThat(db.isTransactionOpen()).isTrue();
            tx.execute("INSERT INTO t VALUES (1)");
            tx.commit();
        }
        assertThat(db.isTransactionOpen()).isFalse();
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t VALUES (2)");
            // closed without commit: rolled back, which ends it too
        }

        for (boolean expected : List.of(true, false, true, false)) {
            assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo(expected);
        }
        assertThat(threads).allSatisfy(name -> assertThat(name).doesNotContain("worker"));

        s.close();
        assertThat(s.isActive()).isFalse();
        try (Transaction tx = db.begin()) {
            tx.commit();
        }
        // a later write queued on the same notification thread proves nothing more came
        BlockingQueue<Boolean> after = new LinkedBlockingQueue<>();
        Subscription probe = db.onTransactionStateChange(after::add);
        try (Transaction tx = db.begin()) {
            tx.commit();
        }
        assertThat(after.poll(10, TimeUnit.SECONDS)).isTrue();
        assertThat(after.poll(10, TimeUnit.SECONDS)).isFalse();
        assertThat(heard).isEmpty();
        probe.close();
    }

    @Test
    void aThrowingListenerAffectsNothingElse() throws Exception {
        Database db = runtime.open("throwing.db");
        db.execute("CREATE TABLE t(v)");
        BlockingQueue<Boolean> heard = new LinkedBlockingQueue<>();
        db.onTransactionStateChange(open -> {
            throw new IllegalStateException("listener failed");
        });
        db.onTransactionStateChange(heard::add);
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t VALUES (1)");
            tx.commit();
        }
        assertThat(heard.poll(10, TimeUnit.SECONDS)).isTrue();
        assertThat(heard.poll(10, TimeUnit.SECONDS)).isFalse();
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(1);
    }
}
