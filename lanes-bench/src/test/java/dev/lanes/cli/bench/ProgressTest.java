package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    void withoutATerminalProgressIsPlainLinesOnTheErrorStream() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Progress progress = Progress.forConsole(false, new PrintWriter(out), new PrintWriter(err));
        BenchListener listener = progress.around(new BenchListener() {
            @Override
            public void status(String text) {
                new PrintWriter(out, true).println("table saw " + text);
            }

            @Override
            public void systemFinished(List<RunResult> repetitions) {
                new PrintWriter(out, true).println("table saw " + repetitions.size() + " runs");
            }
        });

        listener.benchStarting(2);
        listener.runStarting("write: lanes, 64 threads, NORMAL", Duration.ofSeconds(6));
        listener.status("tenants: creating 10 databases");
        listener.systemFinished(RepeatedFixtures.tenants().runsOfLanes());
        progress.close();

        assertThat(err.toString()).isEqualTo(String.format(
                "[1/2] write: lanes, 64 threads, NORMAL (6s)%n[1/2] tenants: creating 10 databases%n"));
        assertThat(out.toString()).isEqualTo(String.format(
                "table saw tenants: creating 10 databases%ntable saw 3 runs%n"));
    }

    @Test
    void onATerminalTheBarShowsRunsDoneAndTheCurrentRunsShare() {
        StringWriter out = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(out));
        try {
            bar.benchStarting(4);
            bar.runStarting("write: lanes, 64 threads, NORMAL", Duration.ofSeconds(10));
            bar.runStarting("write: hikari, 64 threads, NORMAL", Duration.ofSeconds(10));
            // the second of 4 runs, half way: 1.5 of 4 runs done, 7.5 of 20 marks
            String line = bar.line(System.nanoTime() + Duration.ofSeconds(5).toNanos());

            assertThat(line).startsWith("[########............]  2/4  write: hikari, 64 threads");
            assertThat(line).endsWith("/10s");
            assertThat(line.length()).isLessThanOrEqualTo(78);
        } finally {
            bar.close();
        }
    }

    @Test
    void theBarClearsItselfAroundPrintedLinesAndAtTheEnd() {
        StringWriter out = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(out));
        bar.benchStarting(1);
        bar.runStarting("a label far too long to fit on one line of a terminal, so it is cut short "
                + "with an ellipsis", Duration.ofSeconds(1));

        bar.print(() -> new PrintWriter(out, true).println("a table row"));
        bar.close();

        String text = out.toString();
        assertThat(text).contains("\r\033[Ka table row");
        assertThat(text).endsWith("\r\033[K");
        assertThat(text).contains("...");
    }
}
