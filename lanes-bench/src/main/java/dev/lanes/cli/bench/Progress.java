package dev.lanes.cli.bench;

import java.io.PrintWriter;

/**
 * Shows how far a bench has got while it runs: a redrawn bar on a terminal ({@link ProgressBar}),
 * plain lines elsewhere ({@link ProgressLines}), so that a log or a pipe gets no control
 * characters. It also decides how the bench's printed output and its own display share the
 * screen: {@link #around} routes the table through {@link #print}.
 */
interface Progress extends BenchListener, AutoCloseable {

    /**
     * The display for this process: a bar on {@code out} when the JVM has a console (standard
     * input and output are a terminal), else lines on {@code err}, away from the results.
     */
    static Progress forConsole(boolean console, PrintWriter out, PrintWriter err) {
        return console ? new ProgressBar(out) : new ProgressLines(err);
    }

    /** Prints what {@code printing} prints without it mixing with the progress display. */
    void print(Runnable printing);

    /** Stops and clears the display; idempotent. */
    @Override
    void close();

    /**
     * A listener that tells this display every step, and {@code output} (the table) what it
     * prints, through {@link #print}.
     */
    default BenchListener around(BenchListener output) {
        return new ProgressRouting(this, output);
    }
}
