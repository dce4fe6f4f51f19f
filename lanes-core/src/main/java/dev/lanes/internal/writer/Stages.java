package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import dev.lanes.internal.util.Clock;
import java.util.concurrent.CompletableFuture;

/**
 * What a request's runs did: its run count, its stage timings and its recorded outcome. The
 * command it runs is its {@link WriteRequest}; how its caller waits, its {@link Ticket}.
 *
 * <h2>Concurrency</h2>
 * Plain fields, written by the request's one owner at a time: the lane's holder once a turn took
 * it, or the thread that took it out of the queue unrun under the lane's lock (a withdrawal, a
 * close, a poisoning), which no turn then ever sees. {@link #depthAtEntry} is written at
 * admission, under the lane's lock, before any turn can take the request. The holder records the
 * outcome ({@link #succeed}, {@link #fail}) during the turn and delivers it ({@link #deliver})
 * only after the turn released the lane, so that callbacks a caller chained on the future never
 * run while the lane is held. The stages are read by the delivering thread, or after delivery by
 * a thread that saw the future complete: its completion orders the writes before the reads.
 */
final class Stages {
    /** How many times the request has started; bounded replays read it. */
    int runs;
    /** How many writes were queued when it was admitted. */
    int depthAtEntry;
    /** The size of the group it last ran in (its turn's or a replay's); 0 until a turn took it. */
    int groupSize;
    /** When the turn that took it began, on the lane's clock. */
    long startedAt;
    long acquireNanos;
    long bodyNanos;
    long commitNanos;
    // the recorded outcome, until deliver()
    private Object result;
    private LanesException failure;
    private boolean recorded;

    /** A request's body or statement, run once by the lane's holder. */
    interface Body {
        Object run() throws Throwable;
    }

    /** What one run of a body gave: its value, or what it threw (then {@code value} is null). */
    record Ran(Object value, Throwable failure) {}

    /**
     * Runs {@code body} once: counts the run ({@link #runs}), times it ({@link #bodyNanos}) and
     * returns what it gave or threw, whatever it threw. Holder only.
     */
    Ran runOnce(Clock clock, Body body) {
        runs++;
        long start = clock.nanoTime();
        Object value = null;
        Throwable failure = null;
        try {
            value = body.run();
        } catch (Throwable t) {
            failure = t;
        }
        bodyNanos = clock.nanoTime() - start;
        return new Ran(value, failure);
    }

    void succeed(Object value) {
        result = value;
        failure = null;
        recorded = true;
    }

    void fail(LanesException e) {
        result = null;
        failure = e;
        recorded = true;
    }

    boolean recorded() {
        return recorded;
    }

    /** The recorded failure, or null. */
    LanesException failure() {
        return failure;
    }

    /** Forgets a recorded outcome before the request runs again in a fresh group. */
    void reset() {
        result = null;
        failure = null;
        recorded = false;
    }

    /**
     * Completes the ticket's future with the recorded outcome, and wakes a waiter parked on it.
     */
    void deliver(Ticket ticket) {
        if (failure != null) {
            ticket.future.completeExceptionally(failure);
        } else {
            ticket.future.complete(result);
        }
        CompletableFuture<Void> w = ticket.wake;
        if (w != null) {
            w.complete(null);
        }
    }
}
