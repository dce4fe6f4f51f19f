package dev.lanes.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Lanes;
import dev.lanes.history.Op.Kind;
import dev.lanes.history.Op.Outcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kill -9 in the middle of the list-append workload. The child ({@link HistoryCrashChild}) streams
 * its history; the parent kills it, reopens the database, and completes the history with the
 * final state: operations without a completion are UNKNOWN. The checker then holds everything
 * acknowledged present, everything failed absent, every UNKNOWN append present at most once in
 * one consistent place, and, for a kill while corked, every write applied after that cork absent.
 */
@Tag("slow")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListAppendCrashTest {
    /** Completions the parent waits for (after the last cork, when corked) before the kill. */
    static final int COMPLETIONS_BEFORE_KILL = 2500;
    static final int COMPLETIONS_WHILE_CORKED = 300;

    @TempDir Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"plain", "cork"})
    void aKillNineMidRunLeavesAHistoryConsistentWithTheReopenedDatabase(String mode)
            throws Exception {
        Path db = dir.resolve("crash-" + mode + ".db");
        Path stderr = dir.resolve("child-" + mode + ".err");
        boolean corked = mode.equals("cork");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (Runtime.version().feature() >= 22) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                HistoryCrashChild.class.getName(), db.toString(), mode, "17"));
        Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();

        HistoryCodec.Decoder decoder = new HistoryCodec.Decoder();
        int corks = 0;
        long completionsAtLastCork = -1;
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            boolean killed = false;
            String line;
            while ((line = lines.readLine()) != null) {
                Op op = decoder.accept(line);
                if (op != null && op.kind() == Kind.CORK && op.outcome() == Outcome.OK) {
                    corks++;
                    completionsAtLastCork = decoder.completions();
                }
                boolean due = corked
                        ? corks > HistoryCrashChild.CORK_EPOCHS && decoder.completions()
                                - completionsAtLastCork >= COMPLETIONS_WHILE_CORKED
                        : decoder.completions() >= COMPLETIONS_BEFORE_KILL;
                if (due && !killed) {
                    // SIGKILL: no shutdown hooks, no close, no uncork. Through the handle, which
                    // leaves the pipe open (Process.destroyForcibly closes it), so the lines the
                    // child wrote before it died can still be read: they are history too.
                    killed = child.toHandle().destroyForcibly();
                }
            }
            assertThat(killed).as("the child ended before the kill (%d completions); its "
                    + "stderr:\n%s", decoder.completions(), Files.readString(stderr)).isTrue();
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child died").isTrue();
        }
        assertThat(child.exitValue()).as("killed, not exited").isEqualTo(137);

        History history;
        try (Lanes lanes = Lanes.builder().name("history-reopen").maxThreads(2).build()) {
            history = new History(decoder.ops(), ListAppendWorkload.finalState(lanes.open(db)),
                    true);
        }
        CheckResult result = ListAppendChecker.check(history);
        assertThat(result.anomalies()).as(result.report()).isEmpty();
        assertThat(ListAppendRunTest.count(history, Outcome.UNKNOWN))
                .as("operations the kill left without a completion").isPositive();
        long acknowledgedAppends = history.ops().stream()
                .filter(op -> op.outcome() == Outcome.OK && op.appends() && !op.isCorkControl())
                .count();
        assertThat(acknowledgedAppends).isGreaterThan(500);
        if (corked) {
            Op lastCork = history.ops().stream().filter(op -> op.kind() == Kind.CORK)
                    .reduce((a, b) -> b).orElseThrow();
            long appliedWhileCorked = history.ops().stream()
                    .filter(op -> op.outcome() == Outcome.OK && op.appends()
                            && op.invoke() > lastCork.complete())
                    .count();
            assertThat(appliedWhileCorked).as("writes applied inside the cork the kill "
                    + "interrupted (the checker holds them absent)").isPositive();
            CheckResult asIfNotCrashed = ListAppendChecker.check(
                    new History(history.ops(), history.finalState(), false));
            assertThat(asIfNotCrashed.types()).as("the same history without the crash's "
                    + "allowance: the corked writes reads saw are gone").containsKey(
                    Anomaly.Type.LOST_WRITE);
            assertThat(history.ops().stream().filter(op -> op.kind() == Kind.UNCORK
                    && op.outcome() == Outcome.OK).count()).as("completed cork cycles")
                    .isEqualTo(HistoryCrashChild.CORK_EPOCHS);
        }
    }
}
