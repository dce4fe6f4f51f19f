package dev.lanes.internal.telemetry;

import dev.lanes.LanesException;
import dev.lanes.MetricsListener;
import dev.lanes.internal.util.LogNames;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one database's reads tell the outside: each read to the metrics listener (its command,
 * and its bracket as a request: {@link #started}, then {@link #completed} once), and a warning
 * when a read held its snapshot longer than {@code maxReadDuration}, since a long reader keeps
 * checkpoints from resetting the WAL, which then grows. Stateless but for its settings;
 * thread-safe.
 */
public final class ReadTelemetry {
    private static final Logger log = LoggerFactory.getLogger(LogNames.READS);

    private final String name;
    private final long maxReadNanos;
    private final Duration maxReadDuration;
    private final MetricsReporter metrics;

    public ReadTelemetry(String name, Duration maxReadDuration, MetricsReporter metrics) {
        this.name = name;
        this.maxReadDuration = maxReadDuration;
        this.maxReadNanos = maxReadDuration.toNanos();
        this.metrics = metrics;
    }

    /** Whether reads are bracketed for the listener; without a listener nothing is. */
    public boolean tracing() {
        return metrics.enabled();
    }

    /**
     * A read was asked for, on its caller's thread; call only when {@link #tracing()}, and then
     * {@link #completed} once.
     *
     * @return what the listener returned, for {@link #completed}
     */
    public Object started() {
        return metrics.requestStarted(MetricsListener.Operation.READ, null);
    }

    /**
     * The read {@link #started} began ended, {@code nanos} after it was asked for; called before
     * its caller sees the outcome.
     *
     * @param failure what the caller gets when it failed, or null
     */
    public void completed(Object started, long nanos, Throwable failure) {
        metrics.requestCompleted(started, MetricsListener.Operation.READ, null,
                failure == null ? MetricsListener.Outcome.SUCCEEDED
                        : MetricsListener.Outcome.FAILED, failure, false, 1, 0, nanos);
    }

    /**
     * A read held its snapshot for {@code nanos}: warned about past {@code maxReadDuration}. A
     * streamed JDBC result set says so when it ends, its first page having finished as a read.
     */
    public void held(long nanos) {
        if (nanos > maxReadNanos) {
            log.warn("{}: a read held its snapshot for {} ms (maxReadDuration {} ms); long reads "
                    + "keep checkpoints from resetting the WAL, which then grows", name,
                    TimeUnit.NANOSECONDS.toMillis(nanos), maxReadDuration.toMillis());
        }
    }

    /**
     * A read finished.
     *
     * @param kind the query's first keyword (see {@code StatementShape#firstKeyword}), or null
     *     for a read body
     * @param failure why it failed, or null
     */
    public void finished(String kind, long nanos, Throwable failure) {
        held(nanos);
        if (!metrics.enabled()) {
            return;
        }
        metrics.report(m -> {
            m.command(name, MetricsListener.Operation.READ, false,
                    kind == null ? "BODY" : kind, nanos, failure == null);
            if (failure instanceof LanesException) {
                m.error(name, ((LanesException) failure).code());
            }
        });
    }
}
