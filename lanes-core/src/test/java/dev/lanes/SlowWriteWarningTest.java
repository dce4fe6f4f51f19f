package dev.lanes;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.lanes.TestLanes.Blocker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fast writes log no slow-write warning and resolve no labels. (Writes slower than {@code
 * slowWriteThreshold}: {@code internal.writer.SlowGroupWarningTest}, on a manual clock.)
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SlowWriteWarningTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().name("slow")
            .maxThreads(1).build();
    LogCapture writerLog;

    @BeforeEach
    void start() {
        writerLog = LogCapture.of("dev.lanes.writer");
    }

    @AfterEach
    void stop() {
        writerLog.close();
    }

    @Test
    void fastWritesLogNoWarningAndResolveNoLabels() {
        Database db = runtime.openWithTable("fast.db"); // the default threshold, 2.5 s
        WriteOptions labelled = WriteOptions.builder().label("fast.insert").build();
        for (int i = 0; i < 20; i++) {
            db.write(labelled, insert("sync-" + i));
        }
        List<CompletableFuture<String>> queued = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 10; i++) {
                queued.add(db.writeAsync(labelled, insert("queued-" + i)));
            }
        }
        queued.forEach(TestLanes::join);
        awaitTrue("the queued group to be observed",
                () -> db.diagnostics().writer().lastWrite().map(w -> w.groupSize() == 10).orElse(false));
        db.close(); // every turn of this database has been observed and reported

        assertThat(slowWarnings("fast.db")).isEmpty();
        assertThat(writerLog.events()).noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.WARN));
        WriteObservation last = db.diagnostics().writer().lastWrite().orElseThrow();
        assertThat(last.labels()).isEmpty();
        assertThat(last.labelsTruncated()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    private List<ILoggingEvent> slowWarnings(String db) {
        return writerLog.events(Level.WARN, db, "slow write(s)");
    }
}
