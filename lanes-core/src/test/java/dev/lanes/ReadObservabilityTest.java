package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Reads reach the metrics listener, and a read that holds its snapshot too long is logged. */
@Timeout(30)
class ReadObservabilityTest {
    @TempDir Path dir;

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
        try (Lanes lanes = Lanes.builder().metrics(listener).build()) {
            Database db = lanes.open(dir.resolve("reads.db"));
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

    @Test
    void aReadHoldingItsSnapshotPastMaxReadDurationIsLogged() {
        Logger lane = (Logger) LoggerFactory.getLogger("dev.lanes.reads");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.list = new CopyOnWriteArrayList<>();
        logged.start();
        lane.addAppender(logged);
        try (Lanes lanes = Lanes.create()) {
            Database db = lanes.open(dir.resolve("long.db"), DatabaseOptions.builder()
                    .maxReadDuration(Duration.ofMillis(50)).build());
            db.execute("CREATE TABLE t(v)");

            db.query("SELECT count(*) FROM t"); // fast: nothing logged
            assertThat(warnings(logged)).isEmpty();

            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(120);
            db.read(c -> {
                try (var s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM t")) {
                    rs.next();
                    // holds the snapshot past the bound: time passes, nothing is ordered by it
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    return rs.getLong(1);
                }
            });
            assertThat(warnings(logged)).singleElement().asString()
                    .contains("long.db").contains("held its snapshot").contains("maxReadDuration 50 ms");
        } finally {
            lane.detachAppender(logged);
        }
    }

    private static List<String> warnings(ListAppender<ILoggingEvent> logged) {
        return logged.list.stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }
}
