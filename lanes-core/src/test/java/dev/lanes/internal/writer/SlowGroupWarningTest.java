package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.insert;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.LogCapture;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteObservation;
import dev.lanes.WriteOptions;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes slower than {@code slowWriteThreshold} log one WARN per slow group, carrying the
 * group's labels deduplicated and bounded; fast writes log nothing and resolve no labels.
 *
 * <p>A write is made slow without sleeping: its group waits behind a body held on a latch, while
 * the test advances the runtime's manual clock well past the threshold. One pool thread makes the
 * order of the groups' reports fixed. (Fast writes: {@code dev.lanes.SlowWriteWarningTest}.)
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SlowGroupWarningTest {
    private static final Duration THRESHOLD = Duration.ofMillis(50);
    /** "labels [a, b](+n more);" in the WARN. */
    private static final Pattern LABELS = Pattern.compile("labels \\[([^\\]]*)\\]( \\(\\+(\\d+) more\\))?;");

    final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().name("slow")
            .maxThreads(1).clock(clock).build();
    LogCapture writerLog;

    @BeforeEach
    void start() {
        writerLog = LogCapture.of(LogNames.WRITER);
    }

    @AfterEach
    void stop() {
        writerLog.close();
    }

    @Test
    void aSlowGroupLogsOneWarnCarryingItsLabelsOnce() {
        Database db = runtime.openWithTable("orders.db",
                DatabaseOptions.builder().slowWriteThreshold(THRESHOLD).build());
        List<String> labels = List.of("orders.insert", "orders.update", "orders.insert",
                "orders.insert", "orders.update", "orders.delete");

        runSlowGroup(db, labels);

        List<ILoggingEvent> warnings = slowWarnings("orders.db");
        // the held body's group (no label) and the labelled group: one WARN each, in order
        assertThat(warnings).hasSize(2);
        ILoggingEvent labelled = warnings.get(1);
        assertThat(labelsOf(labelled)).containsExactly("orders.insert", "orders.update",
                "orders.delete");
        assertThat(truncatedOf(labelled)).isZero();
        assertThat(labelled.getFormattedMessage())
                .startsWith("orders.db: 6 slow write(s)")
                .contains("slowWriteThreshold 50 ms")
                .contains("group of 6");
        assertThat(labelsOf(warnings.get(0))).as("the held body has no label").isEmpty();

        WriteObservation last = db.diagnostics().writer().lastWrite().orElseThrow();
        assertThat(last.groupSize()).isEqualTo(6);
        assertThat(last.total()).isGreaterThanOrEqualTo(THRESHOLD);
        assertThat(last.labels()).containsExactly("orders.insert", "orders.update",
                "orders.delete");
        assertThat(last.labelsTruncated()).isZero();
    }

    @Test
    void labelsAreBoundedAtEightAndTheRestAreCounted() {
        Database db = runtime.openWithTable("many.db",
                DatabaseOptions.builder().slowWriteThreshold(THRESHOLD).build());
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            labels.add("label-" + i);
            if (i < 8) {
                labels.add("label-" + i); // duplicates within the bound take no room
            }
        }

        runSlowGroup(db, labels);

        List<ILoggingEvent> warnings = slowWarnings("many.db");
        assertThat(warnings).hasSize(2);
        ILoggingEvent labelled = warnings.get(1);
        assertThat(labelsOf(labelled)).containsExactly("label-0", "label-1", "label-2",
                "label-3", "label-4", "label-5", "label-6", "label-7");
        assertThat(truncatedOf(labelled)).as("label-8, label-9 and label-10 left out")
                .isEqualTo(3);

        WriteObservation last = db.diagnostics().writer().lastWrite().orElseThrow();
        assertThat(last.labels()).hasSize(8).doesNotHaveDuplicates();
        assertThat(last.labelsTruncated()).isEqualTo(3);
    }

    @Test
    void labelsLeftOutPastTheBoundAreCountedOnceEach() {
        Database db = runtime.openWithTable("repeat.db",
                DatabaseOptions.builder().slowWriteThreshold(THRESHOLD).build());
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            labels.add("label-" + i);
        }
        labels.add("label-9"); // a repeat of a label left out past the bound
        labels.add("label-8");

        runSlowGroup(db, labels);

        ILoggingEvent labelled = slowWarnings("repeat.db").get(1);
        assertThat(labelsOf(labelled)).hasSize(8);
        assertThat(truncatedOf(labelled)).as("distinct labels left out: label-8 and label-9")
                .isEqualTo(2);
        assertThat(db.diagnostics().writer().lastWrite().orElseThrow().labelsTruncated()).isEqualTo(2);
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Queues one write per label behind a held body, advances the clock well beyond the
     * threshold, releases the body, and returns once both groups were observed (the labelled
     * group is the last one, and the database is closed).
     */
    private void runSlowGroup(Database db, List<String> labels) {
        writerLog.clear();
        List<CompletableFuture<String>> queued = new ArrayList<>();
        long queuedAt;
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < labels.size(); i++) {
                queued.add(db.writeAsync(WriteOptions.builder().label(labels.get(i)).build(),
                        insert("w" + i)));
            }
            queuedAt = clock.nanoTime();
            // the queued writes become older than twice the threshold
            clock.advance(THRESHOLD.multipliedBy(2).plusMillis(1));
        }
        queued.forEach(TestLanes::join);
        db.close(); // on the single pool thread, the close runs after both groups were observed
        assertThat(TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - queuedAt))
                .isGreaterThan(2 * THRESHOLD.toMillis());
    }

    private List<ILoggingEvent> slowWarnings(String db) {
        return writerLog.events(Level.WARN, db, "slow write(s)");
    }

    private static List<String> labelsOf(ILoggingEvent warning) {
        Matcher m = LABELS.matcher(warning.getFormattedMessage());
        assertThat(m.find()).as("labels in: " + warning.getFormattedMessage()).isTrue();
        return m.group(1).isEmpty() ? List.of() : List.of(m.group(1).split(", "));
    }

    private static int truncatedOf(ILoggingEvent warning) {
        Matcher m = LABELS.matcher(warning.getFormattedMessage());
        assertThat(m.find()).as("labels in: " + warning.getFormattedMessage()).isTrue();
        return m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
    }
}
