package dev.lanes.cli.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * Progress as plain lines, for output that is not a terminal (a log, a pipe, CI): one line when a
 * run starts, {@code [3/11] read: lanes, 8 threads, NORMAL (6s)}, and one per status. It writes
 * to the error stream, so that the results on the output stream stay a clean table.
 *
 * <p>Not thread-safe: the bench calls it from the thread that runs it.
 */
final class ProgressLines implements Progress {
    private final PrintWriter err;
    private int total;
    private int started;

    ProgressLines(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void benchStarting(int runs) {
        total = runs;
    }

    @Override
    public void runStarting(String label, Duration expected) {
        started++;
        err.printf(Locale.ROOT, "[%d/%d] %s (%s)%n", started, total, label,
                ReportTable.human(expected));
        err.flush();
    }

    @Override
    public void status(String text) {
        err.printf(Locale.ROOT, "[%d/%d] %s%n", started, total, text);
        err.flush();
    }

    @Override
    public void print(Runnable printing) {
        printing.run();
    }

    @Override
    public void close() {
        err.flush();
    }
}
