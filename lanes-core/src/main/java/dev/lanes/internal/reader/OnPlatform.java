package dev.lanes.internal.reader;

import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.Threads;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one step of a reader held across calls (a {@link ReadSnapshot}'s statement, a {@link
 * PagedRead}'s page) on a platform thread: the caller's own when it is one, else the pool's,
 * while the virtual caller parks on a future. The future's completion orders the pool thread's
 * use of the connection before the caller's next step, whichever thread runs that. Failures
 * arrive as {@link LanesException}s. Stateless.
 */
final class OnPlatform {
    private OnPlatform() {}

    static <T> T call(Reads reads, WorkerPool pool, String name, Callable<T> call) {
        if (!Threads.currentIsVirtual()) {
            return typed(reads, name, call);
        }
        CompletableFuture<T> done = new CompletableFuture<>();
        pool.submit(new WorkerPool.Task() {
            @Override
            public void runTurn() {
                try {
                    done.complete(typed(reads, name, call));
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            }

            @Override
            public boolean background() {
                return false;
            }
        });
        return Failures.join(done);
    }

    private static <T> T typed(Reads reads, String name, Callable<T> call) {
        try {
            return call.call();
        } catch (LanesException e) {
            throw e;
        } catch (Exception e) {
            throw reads.failureOf(e);
        } catch (Error e) {
            throw new ReadFailedException(WriteOutcome.ROLLED_BACK, name + ": the read failed: "
                    + e, e);
        }
    }
}
