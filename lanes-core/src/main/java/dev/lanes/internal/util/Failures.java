package dev.lanes.internal.util;

import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How a request's recorded failure reaches the caller that waited for it. Stateless. */
public final class Failures {
    private Failures() {}

    /**
     * The failure to throw to the caller. Outcomes are always recorded as {@link LanesException};
     * anything else is a defect, reported as {@code UNKNOWN} so that no caller is told a write
     * failed when it may have committed.
     */
    public static LanesException asLanes(Throwable cause) {
        Throwable t = cause;
        if ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof LanesException) {
            return (LanesException) t;
        }
        return new WriteFailedException(WriteOutcome.UNKNOWN, "unexpected failure: " + t, t);
    }

    /** Waits for {@code future}, uninterruptibly (an accepted write may still commit). */
    @SuppressWarnings("unchecked")
    public static <T> T join(CompletableFuture<?> future) {
        try {
            return (T) future.join();
        } catch (CompletionException e) {
            throw asLanes(e.getCause());
        }
    }
}
