package dev.lanes.internal.reader;

import dev.lanes.LanesException;
import dev.lanes.internal.reader.Reads.Outcome;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A read's future. Completed by the runtime through {@link #succeed}/{@link #fail}; any other
 * completion ({@code cancel}, {@code orTimeout}, {@code complete} by the caller) stops the read:
 * it fails inside SQLite and returns its reader.
 *
 * <p>Concurrency: {@link #internal} is written by the runtime's thread before it completes the
 * future, so the completion callback (run by whoever completes it) sees it; {@link
 * #onExternalCompletion} is set once by the read's owner, which runs it itself when the future
 * completed before. Its {@link #outcome} is told once, whichever completion comes first: the
 * field is taken by an atomic get-and-set.
 */
final class ReadFuture<T> extends CompletableFuture<T> {
    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<ReadFuture, Outcome> OUTCOME =
            AtomicReferenceFieldUpdater.newUpdater(ReadFuture.class, Outcome.class, "outcome");

    private final String name;
    private volatile boolean internal;
    private volatile Runnable onExternalCompletion;
    volatile Outcome outcome;

    ReadFuture(String name) {
        this(name, null);
    }

    ReadFuture(String name, Outcome outcome) {
        this.name = name;
        this.outcome = outcome;
        whenComplete((v, e) -> {
            Runnable stop = onExternalCompletion;
            if (!internal && stop != null) {
                stop.run();
            }
            if (!internal) {
                tell(e);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private void tell(Throwable failure) {
        Outcome o = OUTCOME.getAndSet(this, null);
        if (o != null) {
            o.ended(failure);
        }
    }

    void onExternalCompletion(Runnable stop) {
        this.onExternalCompletion = stop;
        if (isDone() && !internal) {
            stop.run();
        }
    }

    void succeed(T value) {
        internal = true;
        tell(null);
        complete(value);
    }

    void fail(LanesException failure) {
        internal = true;
        tell(failure);
        completeExceptionally(failure);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        CancellationException e = new CancellationException(name + ": the read was "
                + "cancelled");
        boolean cancelled = completeExceptionally(e);
        return cancelled || isCancelled();
    }
}
