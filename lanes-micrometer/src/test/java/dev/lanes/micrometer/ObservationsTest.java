package dev.lanes.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener.Outcome;
import dev.lanes.MetricsListener;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One observation per request, with the key values a trace needs. */
class ObservationsTest {
    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final MicrometerMetrics metrics = MicrometerMetrics.builder(new SimpleMeterRegistry())
            .observations(observations).build();

    @Test
    void committedRolledBackAndUnknownWritesEachEndTheirObservationWithTheirOutcome() {
        WriteFailedException rolledBack =
                new WriteFailedException(WriteOutcome.ROLLED_BACK, "bad row", null);
        WriteFailedException unknown =
                new WriteFailedException(WriteOutcome.UNKNOWN, "commit failed", null);

        FakeCore.write(metrics, "orders.db", "orders.insert", Outcome.COMMITTED, null, false, 7,
                1_500, 20_000);
        FakeCore.write(metrics, "orders.db", null, Outcome.ROLLED_BACK, rolledBack, false, 3,
                100, 900);
        FakeCore.write(metrics, "orders.db", null, Outcome.UNKNOWN, unknown, true, 3, 100, 900);

        List<Observation.Context> contexts = handled();
        assertThat(contexts).hasSize(3).allSatisfy(c -> {
            assertThat(c.getName()).isEqualTo("lanes.request");
            assertThat(c.getContextualName()).isEqualTo("write orders.db");
            assertThat(low(c, "db.system.name")).isEqualTo("sqlite");
            assertThat(low(c, "db.operation")).isEqualTo("write");
            assertThat(high(c, "db.namespace")).isEqualTo("orders.db");
        });
        Observation.Context committed = contexts.get(0);
        assertThat(low(committed, "outcome")).isEqualTo("committed");
        assertThat(low(committed, "replayed")).isEqualTo("false");
        assertThat(high(committed, "lanes.label")).isEqualTo("orders.insert");
        assertThat(high(committed, "lanes.group.size")).isEqualTo("7");
        assertThat(high(committed, "lanes.queue.wait.nanos")).isEqualTo("1500");
        assertThat(committed.getError()).isNull();

        Observation.Context failed = contexts.get(1);
        assertThat(low(failed, "outcome")).isEqualTo("rolled_back");
        assertThat(failed.getError()).isSameAs(rolledBack);
        assertThat(failed.getHighCardinalityKeyValue("lanes.label")).isNull();

        Observation.Context lost = contexts.get(2);
        assertThat(low(lost, "outcome")).isEqualTo("unknown");
        assertThat(low(lost, "replayed")).isEqualTo("true");
        assertThat(lost.getError()).isSameAs(unknown);
        assertThat(((LanesObservationContext) lost).outcome()).isEqualTo(Outcome.UNKNOWN);
    }

    @Test
    void theObservationIsAChildOfTheSubmittingThreadsCurrentOne() throws Exception {
        Observation parent = Observation.start("http.request", observations);
        Object started;
        try (Observation.Scope scope = parent.openScope()) {
            started = metrics.requestStarted("a.db", MetricsListener.Operation.READ, null);
        }
        // completed on another thread, as the pool completes a request
        Thread completer = new Thread(() -> metrics.requestCompleted(started, "a.db",
                MetricsListener.Operation.READ, null, Outcome.SUCCEEDED, null, false, 1, 0, 10));
        completer.start();
        completer.join();
        parent.stop();

        Observation.Context read = handled().stream()
                .filter(c -> c.getName().equals("lanes.request")).findFirst().orElseThrow();
        assertThat(read.getParentObservation()).isSameAs(parent);
        assertThat(low(read, "outcome")).isEqualTo("success");
        assertThat(low(read, "db.operation")).isEqualTo("read");
    }

    @Test
    void withoutAnObservationRegistryNothingIsStartedOrKept() {
        MicrometerMetrics plain = new MicrometerMetrics(new SimpleMeterRegistry());
        assertThat(plain.requestStarted("a.db", MetricsListener.Operation.WRITE, "x")).isNull();
        assertThat(MetricsListener.NONE.requestStarted("a.db", MetricsListener.Operation.WRITE,
                "x")).isNull();
    }

    /**
     * The same three outcomes from a real runtime, with a transaction and a read: the runtime
     * calls {@link MetricsListener#requestStarted} and {@link MetricsListener#requestCompleted}
     * for every request.
     */
    @Test
    void aRealRuntimeObservesWritesReadsTransactionsAndUnknownOutcomes(@TempDir Path dir) {
        try (Lanes lanes = Lanes.builder().name("traced").maxThreads(2).metrics(metrics).build()) {
            Database db = lanes.open(dir.resolve("traced.db"));
            db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
            observations.clear();

            db.write(WriteOptions.builder().label("ok").build(), c -> {
                try (var s = c.prepareStatement("INSERT INTO t(v) VALUES ('a')")) {
                    return s.executeUpdate();
                }
            });
            try {
                db.write(c -> {
                    throw new SQLException("refused by the body");
                });
            } catch (WriteFailedException expected) {
                assertThat(expected.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            }
            try (Transaction tx = db.begin()) {
                tx.execute("INSERT INTO t(v) VALUES ('b')");
                tx.commit();
            }
            assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);

            List<Observation.Context> contexts = handled();
            assertThat(contexts).extracting(c -> low(c, "outcome"))
                    .containsExactly("committed", "rolled_back", "committed", "success");
            assertThat(contexts).extracting(c -> low(c, "db.operation"))
                    .containsExactly("write", "write", "transaction", "read");
            assertThat(contexts).allSatisfy(c -> assertThat(high(c, "db.namespace"))
                    .isEqualTo("traced.db"));
            assertThat(high(contexts.get(0), "lanes.label")).isEqualTo("ok");
            assertThat(contexts.get(1).getError()).isInstanceOf(WriteFailedException.class);

            // a COMMIT that took effect and then reported a failure (a failed sync) is UNKNOWN
            Database lost = lanes.open(dir.resolve("lost.db"));
            lost.execute("CREATE TABLE t(v TEXT)");
            ((DatabaseImpl) lost).faults(new FaultInjector() {
                @Override
                public void before(Point point) {}

                @Override
                public void after(Point point) throws SQLException {
                    if (point == Point.COMMIT) {
                        throw new SQLException("injected: the sync after COMMIT failed");
                    }
                }
            });
            observations.clear();
            try {
                lost.execute("INSERT INTO t(v) VALUES ('maybe')");
            } catch (LanesException expected) {
                assertThat(expected.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
            }
            Observation.Context unknown = handled().get(0);
            assertThat(low(unknown, "outcome")).isEqualTo("unknown");
            assertThat(unknown.getError()).isInstanceOf(LanesException.class);
        }
    }

    private List<Observation.Context> handled() {
        List<Observation.Context> contexts = new ArrayList<>();
        assertThat(observations).hasHandledContextsThatSatisfy(contexts::addAll);
        return contexts;
    }

    private static String low(Observation.Context c, String key) {
        KeyValue value = c.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    private static String high(Observation.Context c, String key) {
        KeyValue value = c.getHighCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }
}
