package dev.lanes.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a database's writer lane with a body that waits on a latch, so that the writes queued
 * meanwhile are drained together into one commit group when it is released. No sleeps: the
 * writes queued behind it are in the queue as soon as {@code writeAsync} returned.
 */
final class LaneBlocker implements AutoCloseable {
    static final long TIMEOUT_SECONDS = 10;

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<Void> blocker;

    /** Queues the blocking write and returns once its body is running on the lane. */
    LaneBlocker(Database db) throws InterruptedException {
        blocker = db.writeAsync(conn -> {
            entered.countDown();
            if (!release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the lane");
            }
            return null;
        });
        assertThat(entered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .as("the blocking body started").isTrue();
    }

    /** Lets the blocking body return; the queued writes then run as one group. */
    void release() throws Exception {
        release.countDown();
        blocker.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        release.countDown();
    }
}
