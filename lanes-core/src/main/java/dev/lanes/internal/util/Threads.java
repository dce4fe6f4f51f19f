package dev.lanes.internal.util;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** Thread facts the runtime needs on every JDK from 17 on. */
public final class Threads {
    /** {@code Thread.isVirtual()}, present from JDK 21; null before. */
    private static final MethodHandle IS_VIRTUAL = findIsVirtual();

    private Threads() {}

    private static MethodHandle findIsVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** Whether the current thread is virtual, so must never run SQLite (a native call pins it). */
    public static boolean currentIsVirtual() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            return false;
        }
    }
}
