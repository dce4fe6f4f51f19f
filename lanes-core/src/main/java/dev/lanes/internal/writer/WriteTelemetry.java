package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import dev.lanes.MetricsListener;
import dev.lanes.WriteObservation;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one writer lane tells the outside about its writes: the counters behind diagnostics, the
 * stages of the latest write ({@link #lastWrite()}), the metrics listener, and one warning per
 * turn whose writes were slower than {@code slowWriteThreshold}, with their labels.
 *
 * <h2>Requests</h2>
 * Each request a caller submits is bracketed for the listener: {@link #started} on the submitting
 * thread when the request is made, and {@link #completed} exactly once, when its outcome is
 * delivered ({@link #delivered}, which every recorded outcome passes on its way to the caller),
 * when admission refuses it ({@link #refused}), or when it is dropped unrun because its caller
 * cancelled it ({@link #dropped}). An interactive transaction is one request from {@code begin()}
 * to its end: its begin request carries the bracket, and the delivery of the step it ended in
 * completes it. Without a listener nothing is bracketed and nothing is allocated.
 *
 * <h2>Concurrency</h2>
 * {@link #observe} runs on the lane's holder before the lane is released, so a caller who sees
 * its outcome also sees its observation, and a later group's can never be overwritten by an
 * earlier one; {@link #lastWrite} is volatile for readers on other threads, and refers to an
 * immutable {@link Observed} (numbers, not the public record's {@code Duration}s, which a
 * database would keep six of for as long as it stays open; {@link #lastWrite()} makes the record
 * when asked). The counters are atomic ({@link WriterCounters}), written by the holder and, for
 * refusals at admission, by callers.
 */
final class WriteTelemetry {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    /** Labels a slow-write warning carries at most. */
    static final int MAX_WRITE_LABELS = 8;

    final WriterCounters counters = new WriterCounters();
    /** The lane's name, options, clock and metrics: one reference, kept by every database. */
    private final LaneSetup setup;
    private volatile Observed lastWrite;

    /**
     * The stages of the latest observed write, as {@link WriteObservation} reports them. Its
     * moment is one count of nanoseconds since the epoch (good until 2262), not an {@link
     * Instant}'s seconds and nanoseconds, and the labels, which only a slow write has, are null
     * for a fast one: 72 bytes kept per written database instead of 80.
     */
    private record Observed(long queueWaitNanos, long acquireNanos, long bodyNanos,
            long commitNanos, long totalNanos, int depthAtEntry, int groupSize,
            long observedAtEpochNanos, SlowLabels slow) {
        WriteObservation view() {
            return new WriteObservation(Duration.ofNanos(queueWaitNanos),
                    Duration.ofNanos(acquireNanos), Duration.ofNanos(bodyNanos),
                    Duration.ofNanos(commitNanos), Duration.ofNanos(totalNanos), depthAtEntry,
                    groupSize, Instant.ofEpochSecond(0, observedAtEpochNanos),
                    slow == null ? List.of() : slow.labels, slow == null ? 0 : slow.truncated);
        }
    }

    /** The labels of a slow latest write, and how many past the bound were left out. */
    private record SlowLabels(List<String> labels, int truncated) {}

    WriteTelemetry(LaneSetup setup) {
        this.setup = setup;
    }

    WriteObservation lastWrite() {
        Observed o = lastWrite;
        return o == null ? null : o.view();
    }

    /** The lane's clock, on which stages are timed. */
    Clock clock() {
        return setup.clock();
    }

    MetricsReporter metrics() {
        return setup.metrics();
    }

    /**
     * Records a turn's stages: {@link #lastWrite}, the metrics, and one WARN when writes were
     * slower than the threshold. Labels are resolved only for slow writes, so a fast write never
     * allocates for them.
     */
    /** The writer connection closed while idle: the last write's observation goes with it. */
    void forgetLastWrite() {
        lastWrite = null;
    }

    void observe(List<WriteRequest> group) {
        long now = setup.clock().nanoTime();
        long slowNanos = setup.options().slowWriteThreshold().toNanos();
        WriteRequest last = null;
        Labels labels = null;
        int slow = 0;
        long slowest = 0;
        for (WriteRequest r : group) {
            if (!r.observed()) {
                continue;
            }
            last = r;
            long total = now - r.ticket.enqueuedAt;
            if (total >= slowNanos) {
                slow++;
                slowest = Math.max(slowest, total);
                if (r.options.label().isPresent()) {
                    if (labels == null) {
                        labels = new Labels();
                    }
                    labels.add(r.options.label().get());
                }
            }
        }
        if (last == null) {
            return;
        }
        if (setup.metrics().enabled()) {
            reportMetrics(group);
        }
        long lastTotal = now - last.ticket.enqueuedAt;
        boolean lastSlow = lastTotal >= slowNanos && labels != null;
        Instant observedAt = Instant.now();
        Stages stages = last.stages;
        lastWrite = new Observed(Math.max(0, stages.startedAt - last.ticket.enqueuedAt),
                stages.acquireNanos, stages.bodyNanos, stages.commitNanos, lastTotal,
                stages.depthAtEntry, stages.groupSize,
                observedAt.getEpochSecond() * 1_000_000_000L + observedAt.getNano(),
                lastSlow ? new SlowLabels(List.copyOf(labels.kept), labels.dropped()) : null);
        if (slow > 0) {
            warnSlow(slow, slowest, labels, last);
        }
    }

    private void warnSlow(int slow, long slowest, Labels labels, WriteRequest last) {
        int truncated = labels == null ? 0 : labels.dropped();
        log.warn("{}: {} slow write(s), the slowest {} ms (slowWriteThreshold {} ms), labels "
                + "{}{}; last stages: queue wait {} ms, acquire {} ms, body {} ms, commit {} "
                + "ms, group of {}", setup.name(), slow, TimeUnit.NANOSECONDS.toMillis(slowest),
                setup.options().slowWriteThreshold().toMillis(),
                labels == null ? List.of() : labels.kept,
                truncated > 0 ? " (+" + truncated + " more)" : "",
                TimeUnit.NANOSECONDS.toMillis(last.stages.startedAt - last.ticket.enqueuedAt),
                TimeUnit.NANOSECONDS.toMillis(last.stages.acquireNanos),
                TimeUnit.NANOSECONDS.toMillis(last.stages.bodyNanos),
                TimeUnit.NANOSECONDS.toMillis(last.stages.commitNanos), last.stages.groupSize);
        setup.metrics().report(m -> m.slowWrite(setup.name(), Duration.ofNanos(slowest)));
    }

    /** The distinct labels of a turn's slow writes: the first few kept, the rest counted. */
    private static final class Labels {
        final List<String> kept = new ArrayList<>(4);
        private List<String> dropped;

        void add(String label) {
            if (kept.contains(label)) {
                return;
            }
            if (kept.size() < MAX_WRITE_LABELS) {
                kept.add(label);
            } else {
                if (dropped == null) {
                    dropped = new ArrayList<>(4);
                }
                if (!dropped.contains(label)) {
                    dropped.add(label); // distinct labels past the bound count once
                }
            }
        }

        int dropped() {
            return dropped == null ? 0 : dropped.size();
        }
    }

    private void reportMetrics(List<WriteRequest> group) {
        setup.metrics().report(m -> {
            for (WriteRequest r : group) {
                if (!r.observed()) {
                    continue;
                }
                m.queueWait(setup.name(), Math.max(0, r.stages.startedAt - r.ticket.enqueuedAt));
                LanesException failure = r.stages.failure();
                m.command(setup.name(), r.operation(), !(r instanceof WriteRequest.Maintenance),
                        r.statementKind(), r.stages.bodyNanos, failure == null);
                if (failure != null) {
                    m.error(setup.name(), failure.code());
                }
            }
        });
    }

    void overload() {
        counters.increment(WriterCounters.OVERLOADS);
        setup.metrics().report(m -> m.overload(setup.name()));
    }

    void groupCommitted(int size, long nanos) {
        setup.metrics().report(m -> m.groupCommitted(setup.name(), size, nanos));
    }

    void crash() {
        setup.metrics().report(m -> m.crash(setup.name()));
    }

    void closed(long nanos, boolean timedOut) {
        setup.metrics().report(m -> m.databaseClosed(setup.name(), nanos, timedOut));
    }

    void uncleanClose() {
        setup.metrics().report(m -> m.uncleanClose(setup.name()));
    }

    /** A request's outcome is being delivered: counts it when it failed. */
    void delivered(WriteRequest r) {
        LanesException failure = r.stages.failure();
        if (failure != null) {
            counters.increment(WriterCounters.FAILED);
            if (failure.outcome() == WriteOutcome.UNKNOWN) {
                counters.increment(WriterCounters.UNKNOWN);
            }
        }
        if (r.ticket.traced != null) {
            completed(r, failure);
        } else if (r instanceof WriteRequest.TransactionStep) {
            InteractiveTransaction tx = ((WriteRequest.TransactionStep) r).tx;
            if (tx.endedBy == r && tx.begun != null && tx.begun.ticket.traced != null) {
                transactionEnded(tx, (WriteRequest.TransactionStep) r);
            }
        }
    }

    // ------------------------------------------------------------------ request brackets

    /** Brackets {@code r}, just made by its caller's thread, as {@code operation}. */
    void started(WriteRequest r, MetricsListener.Operation operation) {
        if (!setup.metrics().enabled()) {
            return;
        }
        r.ticket.traced = operation;
        r.ticket.trace = setup.metrics().requestStarted(operation, r.options.label().orElse(null));
    }

    /** Admission refused {@code r} (it never ran); called before the caller gets {@code e}. */
    void refused(WriteRequest r, LanesException e) {
        if (r.ticket.traced != null) {
            completed(r, e);
        }
    }

    /** The queue dropped {@code r} unrun: its caller cancelled its future. */
    void dropped(List<WriteRequest> requests) {
        for (WriteRequest r : requests) {
            if (r.ticket.traced != null) {
                completed(r, new dev.lanes.CancelledException(WriteOutcome.NOT_STARTED,
                        setup.name() + ": the request was cancelled before it ran; it never ran",
                        null));
            }
        }
    }

    /**
     * Reports {@code r}'s outcome, once; a begun transaction goes on, and completes when it ends.
     */
    // by whoever delivers r, once the lane recorded its outcome (or refused it)
    private void completed(WriteRequest r, LanesException failure) {
        if (r instanceof WriteRequest.TransactionBegin && failure == null) {
            return; // the transaction is open: its end completes it (see transactionEnded)
        }
        MetricsListener.Operation operation = r.ticket.traced;
        r.ticket.traced = null;
        MetricsListener.Outcome outcome = operation == MetricsListener.Operation.READ
                ? (failure == null ? MetricsListener.Outcome.SUCCEEDED
                        : MetricsListener.Outcome.FAILED)
                : MetricsReporter.writeOutcome(failure);
        int groupSize = operation == MetricsListener.Operation.WRITE ? r.stages.groupSize
                : Math.min(r.stages.groupSize, 1);
        setup.metrics().requestCompleted(r.ticket.trace, operation, r.options.label().orElse(null),
                outcome, failure, r.stages.runs > 1, groupSize, queueWait(r),
                setup.clock().nanoTime() - r.ticket.enqueuedAt);
    }

    /** The transaction that {@code step} ended is over: its bracket, begun by begin(), ends. */
    private void transactionEnded(InteractiveTransaction tx, WriteRequest.TransactionStep step) {
        WriteRequest begun = tx.begun;
        MetricsListener.Operation operation = begun.ticket.traced;
        begun.ticket.traced = null;
        LanesException failure = step.stages.failure();
        MetricsListener.Outcome outcome = tx.state == InteractiveTransaction.State.COMMITTED
                ? MetricsListener.Outcome.COMMITTED
                : tx.state == InteractiveTransaction.State.UNKNOWN
                        ? MetricsListener.Outcome.UNKNOWN : MetricsListener.Outcome.ROLLED_BACK;
        if (failure == null && outcome != MetricsListener.Outcome.COMMITTED
                && !(step instanceof WriteRequest.Rollback
                        && ((WriteRequest.Rollback) step).byCaller())) {
            failure = tx.notOpen(); // an idle timeout, a shutdown: what its next call is told
        }
        setup.metrics().requestCompleted(begun.ticket.trace, operation,
                begun.options.label().orElse(null), outcome, failure, false, 1, queueWait(begun),
                setup.clock().nanoTime() - begun.ticket.enqueuedAt);
    }

    /** From submission until its turn began; 0 when it never began. */
    private static long queueWait(WriteRequest r) {
        return r.stages.groupSize > 0 ? r.stages.startedAt - r.ticket.enqueuedAt : 0;
    }

    /** The writer connection opened again after an eviction, taking {@code nanos}. */
    void reopened(long nanos) {
        setup.metrics().connectionReopened(nanos);
    }
}
