package dev.lanes.cli.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Progress as a bar on a terminal, redrawn in place a few times a second:
 * {@code [#########...........]  3/11  read: lanes, 8 threads, NORMAL  2.4s/6s}. The bar counts
 * whole runs plus the elapsed share of the current one (a run's length is known in advance:
 * warm-up plus measured window). Table lines printed meanwhile go through {@link #print}, which
 * clears the bar, prints, and draws the bar again below them.
 *
 * <h2>Concurrency</h2>
 * Two threads touch it: the bench's thread (every callback) and one daemon ticker thread
 * (redraws). {@link #lock} guards every field below it and every write to {@link #out}; the
 * ticker only reads the state under it.
 */
final class ProgressBar implements Progress {
    private static final int BAR_WIDTH = 20;
    // a line longer than the terminal would wrap, and "\r" would then redraw only its tail
    private static final int MAX_LINE = 78;
    private static final long TICK_MILLIS = 200;

    private final PrintWriter out;
    private final ScheduledExecutorService ticker;
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private int total;
    private int started;
    private String label = "starting";
    private long runStartNanos;
    private long runExpectedNanos;
    private boolean closed;

    ProgressBar(PrintWriter out) {
        this.out = out;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lanes-bench-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::redraw, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void benchStarting(int runs) {
        update(() -> total = runs);
    }

    @Override
    public void runStarting(String text, Duration expected) {
        update(() -> {
            started++;
            label = text;
            runStartNanos = System.nanoTime();
            runExpectedNanos = expected.toNanos();
        });
    }

    @Override
    public void status(String text) {
        update(() -> {
            label = text;
            runExpectedNanos = 0;
        });
    }

    @Override
    public void print(Runnable printing) {
        lock.lock();
        try {
            if (!closed) {
                out.print("\r\033[K");
            }
            printing.run();
            draw();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            out.print("\r\033[K");
            out.flush();
        } finally {
            lock.unlock();
        }
        ticker.shutdownNow();
    }

    private void update(Runnable change) {
        lock.lock();
        try {
            change.run();
            draw();
        } finally {
            lock.unlock();
        }
    }

    private void redraw() {
        lock.lock();
        try {
            draw();
        } finally {
            lock.unlock();
        }
    }

    // guarded by lock
    private void draw() {
        if (closed) {
            return;
        }
        out.print("\r" + line(System.nanoTime()) + "\033[K");
        out.flush();
    }

    /** The bar as it stands at {@code now}; package-private for tests. */
    String line(long now) {
        double elapsed = runExpectedNanos > 0 ? (now - runStartNanos) / 1e9 : 0;
        double share = runExpectedNanos > 0
                ? Math.min(1.0, (now - runStartNanos) / (double) runExpectedNanos) : 0;
        double done = total == 0 ? 0 : (Math.max(0, started - 1) + share) / total;
        int filled = (int) Math.round(done * BAR_WIDTH);
        StringBuilder s = new StringBuilder("[");
        s.append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("] ");
        s.append(String.format(Locale.ROOT, "%2d/%d  ", started, total));
        String time = runExpectedNanos > 0
                ? String.format(Locale.ROOT, "  %.1fs/%s", elapsed,
                        ReportTable.human(Duration.ofNanos(runExpectedNanos)))
                : "";
        int room = MAX_LINE - s.length() - time.length();
        s.append(label.length() > room ? label.substring(0, Math.max(0, room - 3)) + "..." : label);
        return s.append(time).toString();
    }
}
