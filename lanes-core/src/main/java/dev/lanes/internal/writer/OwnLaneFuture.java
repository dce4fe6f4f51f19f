package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of a write that a body queued to its own lane ({@code db.writeAsync} inside {@code
 * db.write}). That write runs only after the body's turn ends, so a wait for it on the lane's
 * holder would wait forever: {@link #join()} and {@link #get()} refuse it at once there, with a
 * typed {@code NOT_STARTED} refusal, and withdraw the write unrun when it is still queued. On
 * any other thread, or once the turn is over, it is an ordinary future. Stages derived from it
 * ({@code thenApply}, ...) are of this class too, so a wait on them is refused the same way. A
 * wait through anything else ({@code allOf}, a latch a callback counts down) is not seen here:
 * {@link OwnLaneWatch} ends it once the holder stayed parked, by withdrawing the write.
 *
 * <p>Concurrency: completed once, from the request's own future, by whoever delivers it; the
 * check asks the lane under its lock whether the calling thread holds it.
 */
final class OwnLaneFuture<T> extends CompletableFuture<T> {
    private final WriterLane lane;
    private final WriteRequest request;

    OwnLaneFuture(WriterLane lane, WriteRequest request) {
        this.lane = lane;
        this.request = request;
    }

    /** Completes this one as {@code source} completes; returns this. */
    @SuppressWarnings("unchecked")
    OwnLaneFuture<T> following(CompletableFuture<?> source) {
        source.whenComplete((v, e) -> {
            if (e != null) {
                completeExceptionally(e);
            } else {
                complete((T) v);
            }
        });
        return this;
    }

    private void refuseOnHolder() {
        if (!isDone()) {
            LanesException refusal = lane.refuseWaitOnHolder(request);
            if (refusal != null) {
                throw refusal;
            }
        }
    }

    @Override
    public T join() {
        refuseOnHolder();
        return super.join();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        refuseOnHolder();
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        refuseOnHolder();
        return super.get(timeout, unit);
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new OwnLaneFuture<>(lane, request);
    }
}
