package dev.lanes.internal.util;

import dev.lanes.CloseTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;

/** A database's wait for its own close. Stateless. */
public final class CloseWait {
    private CloseWait() {}

    /**
     * Waits, uninterruptibly (the interrupt is kept) and at most {@code timeout}, for {@code
     * closed}; past it tells {@code timedOut} and throws, while the close goes on.
     *
     * @param queued the writes still queued, for the message
     * @throws CloseTimeoutException when the close did not finish in time
     */
    public static void await(CompletableFuture<Void> closed, Duration timeout, String name,
            LongConsumer timedOut, IntSupplier queued) {
        long nanos = timeout.toNanos();
        long deadline = System.nanoTime() + nanos;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    closed.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // keep waiting; the close is under way either way
                } catch (ExecutionException e) {
                    throw Failures.asLanes(e.getCause());
                } catch (TimeoutException e) {
                    timedOut.accept(nanos);
                    throw new CloseTimeoutException(name + ": close did not finish within "
                            + timeout.toMillis() + " ms (" + queued.getAsInt() + " writes still "
                            + "queued); it goes on in the background");
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
