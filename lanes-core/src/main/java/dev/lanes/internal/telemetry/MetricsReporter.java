package dev.lanes.internal.telemetry;

import dev.lanes.MetricsListener;
import dev.lanes.internal.util.LogNames;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the runtime's {@link MetricsListener} on behalf of one database (or the runtime itself),
 * so that a failing listener never reaches a lane, a read or a caller: its first failure is
 * logged in full, later ones at debug.
 *
 * <p>Thread-safe: called from whichever thread reports (a lane's holder, a reader, the timer);
 * {@link #failed} is a one-way latch and only decides how loudly to log.
 */
public final class MetricsReporter {
    private static final Logger log = LoggerFactory.getLogger(LogNames.METRICS);

    private final String name;
    private final MetricsListener listener;
    private volatile boolean failed;

    public MetricsReporter(String name, MetricsListener listener) {
        this.name = name;
        this.listener = listener;
    }

    /** Whether a listener is installed; without one, callers skip preparing what they report. */
    public boolean enabled() {
        return listener != MetricsListener.NONE;
    }

    /** Calls the listener; its failures are logged and never thrown. */
    public void report(Consumer<MetricsListener> call) {
        if (!enabled()) {
            return;
        }
        try {
            call.accept(listener);
        } catch (RuntimeException | LinkageError e) {
            if (!failed) {
                failed = true;
                log.warn("{}: the metrics listener failed; its failures are ignored (logged at "
                        + "debug from now on)", name, e);
            } else {
                log.debug("{}: the metrics listener failed again", name, e);
            }
        }
    }
}
