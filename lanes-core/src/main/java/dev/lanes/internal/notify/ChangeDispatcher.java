package dev.lanes.internal.notify;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The thread that delivers change notifications for every database of one runtime, so that a
 * listener never runs on a writer's thread.
 *
 * <p>Concurrency: one daemon platform thread, started on first use and gone after a minute
 * without work; deliveries run one at a time in submission order. Each database submits at most
 * one delivery task at a time and each task delivers a bounded batch (see {@link
 * ChangeNotifier}), so one busy database cannot starve the others; a listener that blocks does
 * delay every database of the runtime.
 */
public final class ChangeDispatcher {
    private final ThreadPoolExecutor executor;

    public ChangeDispatcher(String runtimeName) {
        executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, runtimeName + "-changes");
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
    }

    /**
     * Queues a delivery task; returns at once.
     *
     * @return false when the runtime has shut the dispatcher down
     */
    public boolean submit(Runnable delivery) {
        try {
            executor.execute(delivery);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Stops the thread once queued deliveries ran. */
    public void shutdown() {
        executor.shutdown();
    }
}
