package dev.lanes.cli.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads, where the running JVM has them (JDK 21 and later), without compiling against
 * their API: the bench compiles for Java 17. {@code Thread.ofVirtual().factory()} is looked up
 * once through method handles; on a JVM without it (or with it only as a preview that is not
 * enabled) there is no factory, and {@link #unavailable()} says why and how to run on one that
 * has it.
 */
final class VirtualThreads {
    private static final Object FACTORY_OR_REASON = lookUp();

    private VirtualThreads() {}

    /** A factory of unstarted virtual threads; null when the JVM has none. */
    static ThreadFactory factory() {
        return FACTORY_OR_REASON instanceof ThreadFactory ? (ThreadFactory) FACTORY_OR_REASON : null;
    }

    /** Why there are no virtual threads, and what to do about it; null when there are. */
    static String unavailable() {
        return FACTORY_OR_REASON instanceof String ? (String) FACTORY_OR_REASON : null;
    }

    private static Object lookUp() {
        String java = System.getProperty("java.version");
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle newBuilder = lookup.findStatic(Thread.class, "ofVirtual",
                    MethodType.methodType(ofVirtual));
            MethodHandle factory = lookup.findVirtual(builder, "factory",
                    MethodType.methodType(ThreadFactory.class));
            return (ThreadFactory) factory.invoke(newBuilder.invoke());
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
            return "this JVM (Java " + java + ") has no virtual threads; run on JDK 21 or later,"
                    + " e.g. JAVA_HOME=/path/to/jdk-21 ./lanes bench --scenario vt";
        } catch (Throwable e) {
            // JDK 19 and 20 have them as a preview only, refused without --enable-preview
            return "this JVM (Java " + java + ") refused to make a virtual thread (" + e
                    + "); run on JDK 21 or later, e.g. JAVA_HOME=/path/to/jdk-21 ./lanes bench"
                    + " --scenario vt";
        }
    }
}
