package dev.lanes;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * JDK 21 virtual-thread API for tests that compile with {@code --release 17}: reached
 * reflectively, and skipped (an assumption) on an older JDK.
 */
final class VirtualThreads {
    private VirtualThreads() {}

    /** Skips the calling test unless the JDK has virtual threads. */
    static void assumeAvailable() {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
    }

    static boolean isVirtual(Thread t) {
        try {
            return (boolean) Thread.class.getMethod("isVirtual").invoke(t);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}. */
    static ExecutorService perTaskExecutor() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
    }

    /** {@code Thread.ofVirtual().start(body)}. */
    static Thread start(Runnable body) throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (Thread) Class.forName("java.lang.Thread$Builder")
                .getMethod("start", Runnable.class).invoke(builder, body);
    }
}
