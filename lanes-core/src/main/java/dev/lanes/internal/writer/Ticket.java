package dev.lanes.internal.writer;

import dev.lanes.MetricsListener;
import dev.lanes.internal.util.Timer;
import java.util.concurrent.CompletableFuture;

/**
 * A request's ticket: how its caller waits for it and how the lane finds that caller. It owns
 * the future the caller waits on, the leader hand-off to a blocked platform caller, the start
 * deadline and the telemetry bracket. What the request runs is its command ({@link
 * WriteRequest}); what its runs did, {@link Stages}.
 *
 * <h2>Concurrency</h2>
 * Several threads share a ticket, each field with its own writer:
 *
 * <ul>
 *   <li>{@link #future} is completed only by {@link Stages#deliver}, after the turn released the
 *       lane, so that callbacks a caller chained on it never run while the lane is held.
 *   <li>The fields of the leader hand-off are volatile: {@link #waiter} is set by the caller
 *       before admission, {@link #leadGranted} under the lane's lock (and cleared by the waiter),
 *       {@link #wake} by the waiter before it checks again.
 *   <li>{@link #startTimeoutNanos} is set by the caller before admission, {@link #queuedInTurn}
 *       under the lane's lock at admission; later readers see them through that lock or, for the
 *       timer task the caller arms after admission, through the task's scheduling. {@link
 *       #startExpiry} is volatile: armed by the caller after admission, cancelled by it once the
 *       outcome arrived.
 *   <li>The tracing fields ({@link #traced}, {@link #trace}) are set by the submitting thread
 *       before admission and read, and {@code traced} cleared, by whoever reports the outcome
 *       (see {@link WriteTelemetry#completed}); admission under the lane's lock orders the two.
 * </ul>
 */
final class Ticket {
    /** The future the caller waits on; completed only by {@link Stages#deliver}. */
    final CompletableFuture<Object> future = new CompletableFuture<>();
    /** When the request was made, on the lane's clock. */
    final long enqueuedAt;
    /**
     * The platform thread blocked on this request that may be handed the lane to lead the turn
     * that runs it; null for asynchronous and virtual-thread callers.
     */
    volatile Thread waiter;
    /** Set, under the lane's lock, when the lane was handed to {@link #waiter}. */
    volatile boolean leadGranted;
    /**
     * Completed to wake {@link #waiter}: when its outcome is delivered or the lane is handed to
     * it. The waiter replaces a completed one before it checks again. A future, not a bare
     * unpark, so that no stray permit is ever left on the caller's thread.
     */
    volatile CompletableFuture<Void> wake;
    /**
     * How long it may wait in the queue for a turn to take it before it is withdrawn unrun
     * ({@link WriterLane#runAndWait(WriteRequest, boolean, java.time.Duration)}); 0 for no limit.
     * Set by its caller before admission.
     */
    long startTimeoutNanos;
    /**
     * The lane's turn in which its holder queued it, from inside a body of the same lane (set
     * under the lane's lock at admission); 0 when anyone else queued it. Its future then refuses
     * to be waited for on the holder ({@link OwnLaneFuture}), and {@link OwnLaneWatch} withdraws
     * it when that turn's holder stays parked.
     */
    long queuedInTurn;
    /** The timer task that withdraws it, armed when it was queued. */
    volatile Timer.Scheduled startExpiry;
    /**
     * The operation {@code requestStarted} bracketed it as, or null when it is not bracketed (no
     * metrics listener, a lane command, or its {@code requestCompleted} was reported already).
     */
    MetricsListener.Operation traced;
    /** What the listener's {@code requestStarted} returned for it. */
    Object trace;

    Ticket(long enqueuedAt) {
        this.enqueuedAt = enqueuedAt;
    }

    /** Arms the leader hand-off for a platform caller that will block on the outcome. */
    void waitedForBy(Thread caller) {
        wake = new CompletableFuture<>();
        waiter = caller;
    }
}
