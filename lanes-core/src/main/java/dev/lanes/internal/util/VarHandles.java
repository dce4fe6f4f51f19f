package dev.lanes.internal.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Finds the {@link VarHandle} of a field, for a class that sets a field once by compare-and-set
 * (an object made on first use) or adds to it atomically, without an atomic object beside it.
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
}
