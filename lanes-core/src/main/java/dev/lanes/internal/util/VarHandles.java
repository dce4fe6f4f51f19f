package dev.lanes.internal.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Finds the {@link VarHandle} of a field, for a class that sets a field once by compare-and-set
 * (an object made on first use, {@link #getOrSet}) or adds to it atomically, without an atomic
 * object beside it. Stateless.
 */
public final class VarHandles {
    private VarHandles() {}

    /**
     * The handle of the field {@code name} of type {@code type} in {@code lookup}'s class, which
     * passes its own lookup ({@code MethodHandles.lookup()}) so that private fields are found.
     */
    public static VarHandle field(MethodHandles.Lookup lookup, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(lookup.lookupClass(), name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The value of the volatile field behind {@code handle} in {@code owner}; when it is still
     * null, first sets it to one made by {@code make}, once, by compare-and-set, so that every
     * caller gets the same object (a caller that loses the race drops its own). An object
     * published so is seen whole by whoever reads the field, as its fields are final or
     * thread-safe.
     */
    /** The future {@link #complete} sets when nobody asked yet: completed, shared, read only. */
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /**
     * Completes the future made on first use ({@link #getOrSet}) behind {@code handle} in {@code
     * owner}, with null; when none was made yet, sets the field to one shared completed future
     * instead, so that a future nobody waited for costs nothing. Asking and completing meet in
     * the same future, whichever comes first, since both go from null by compare-and-set. Only
     * for a field whose future completes normally this way alone (an exceptional completion
     * afterwards is a no-op, as on any completed future), and which is never handed to users as
     * is (they could obtrude a value on the shared one): derive one ({@code thenApply}) for them.
     */
    @SuppressWarnings("unchecked")
    public static void complete(VarHandle handle, Object owner) {
        if (!handle.compareAndSet(owner, null, DONE)) {
            ((CompletableFuture<Void>) handle.getVolatile(owner)).complete(null);
        }
    }

    @SuppressWarnings("unchecked")
    public static <T> T getOrSet(VarHandle handle, Object owner, Supplier<? extends T> make) {
        T value = (T) handle.getVolatile(owner);
        if (value == null) {
            T made = make.get();
            value = handle.compareAndSet(owner, null, made) ? made
                    : (T) handle.getVolatile(owner);
        }
        return value;
    }
}
