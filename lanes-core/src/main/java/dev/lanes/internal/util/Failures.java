package dev.lanes.internal.util;

import dev.lanes.BatchFailedException;
import dev.lanes.ConstraintViolationException;
import dev.lanes.ErrorCode;
import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.lang.reflect.Constructor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How a request's recorded failure reaches the caller that waited for it. Stateless. */
public final class Failures {
    /** The constructor shapes of {@link LanesException}s that {@link #forCaller} copies. */
    private static final Class<?>[][] SHAPES = {
        {WriteOutcome.class, String.class, Throwable.class},
        {String.class, Throwable.class},
    };
    private static final ClassValue<Constructor<?>> COPIER = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> type) {
            for (Class<?>[] shape : SHAPES) {
                try {
                    return type.getConstructor(shape);
                } catch (NoSuchMethodException e) {
                    // the next shape
                }
            }
            return null;
        }
    };

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

    /**
     * The failure to throw to a caller that waited for it on its own thread: {@link
     * #asLanes}, as a copy made here, so that its stack trace shows where the caller called from
     * (the failure was mostly made on a pool thread, whose stack says nothing of the caller), as
     * {@code CompletableFuture.join} does. The copy has the same class, code, outcome, message
     * and cause; the original, with the pool thread's stack, is attached as suppressed. A
     * failure of a class this does not know how to copy is thrown as it is.
     */
    public static LanesException rethrown(Throwable cause) {
        return forCaller(asLanes(cause));
    }

    /** Waits for {@code future}, uninterruptibly (an accepted write may still commit). */
    @SuppressWarnings("unchecked")
    public static <T> T join(CompletableFuture<?> future) {
        try {
            return (T) future.join();
        } catch (CompletionException e) {
            throw rethrown(e.getCause());
        }
    }

    private static LanesException forCaller(LanesException e) {
        LanesException copy;
        try {
            copy = copyOf(e);
        } catch (ReflectiveOperationException | RuntimeException notCopied) {
            return e;
        }
        if (copy == null || copy.code() != e.code() || copy.outcome() != e.outcome()) {
            return e;
        }
        copy.addSuppressed(e);
        return copy;
    }

    private static LanesException copyOf(LanesException e) throws ReflectiveOperationException {
        String message = e.getMessage();
        Throwable cause = e.getCause();
        if (e instanceof ConstraintViolationException c) {
            return new ConstraintViolationException(c.kind(), c.outcome(), message, cause);
        }
        if (e instanceof BatchFailedException b) {
            return new BatchFailedException(b.outcome(), message, b.failedIndex(), b.executed(),
                    cause);
        }
        if (e.getClass() == LanesException.class) {
            ErrorCode code = e.code();
            return new LanesException(code, e.outcome(), message, cause);
        }
        Constructor<?> copier = COPIER.get(e.getClass());
        if (copier == null) {
            return null;
        }
        Object copy = copier.getParameterCount() == 3
                ? copier.newInstance(e.outcome(), message, cause)
                : copier.newInstance(message, cause);
        return (LanesException) copy;
    }
}
