package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reads reach the metrics listener. (A read that holds its snapshot too long is logged: {@code
 * internal.reader.LongReadWarningTest}, on a manual clock.)
 */
@Timeout(30)
class ReadObservabilityTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    record Command(String db, MetricsListener.Operation operation, String kind, boolean success) {}

    @Test
    void readsAndTheirFailuresAreReportedAsReadCommands() throws Exception {
        List<Command> commands = new CopyOnWriteArrayList<>();
        List<ErrorCode> errors = new CopyOnWriteArrayList<>();
        MetricsListener listener = new MetricsListener() {
            @Override
            public void command(String db, Operation operation, boolean inTransaction,
                    String statementKind, long nanos, boolean success) {
                commands.add(new Command(db, operation, statementKind, success));
            }

            @Override
            public void error(String db, ErrorCode code) {
                errors.add(code);
            }
        };
        runtime.start(Lanes.builder().metrics(listener));
        Database db = runtime.open("reads.db");
        db.execute("CREATE TABLE t(v)");
        commands.clear();

        db.query("/* lead */ SELECT count(*) FROM t");
        db.read(c -> 1);
        db.readAsync(c -> 2).get(10, TimeUnit.SECONDS);
        Throwable refused = catchThrowable(() -> db.query("DELETE FROM t"));

        assertThat(refused).isInstanceOf(ReadOnlyViolationException.class);
        List<Command> reads = commands.stream()
                .filter(c -> c.operation() == MetricsListener.Operation.READ).toList();
        assertThat(reads).extracting(Command::kind)
                .containsExactlyInAnyOrder("SELECT", "BODY", "BODY", "DELETE");
        assertThat(reads).filteredOn(c -> !c.success()).extracting(Command::kind)
                .containsExactly("DELETE");
        assertThat(reads).allSatisfy(c -> assertThat(c.db()).isEqualTo("reads.db"));
        assertThat(errors).containsExactly(ErrorCode.READ_ONLY_VIOLATION);
    }
}
