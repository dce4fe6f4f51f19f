package dev.lanes.internal.reader;

import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.scheduler.WorkerPool;
import java.util.concurrent.Callable;

/**
 * Runs one step of a reader held across calls (a {@link ReadSnapshot}'s statement, a {@link
 * PagedRead}'s page) on a platform thread, through {@link WorkerPool#onPlatform}: the caller's
 * own when it is one, else the pool's, while the virtual caller parks on a future. The future's
 * completion orders the pool thread's use of the connection before the caller's next step,
 * whichever thread runs that. Failures arrive as {@link LanesException}s. Stateless.
 */
final class OnPlatform {
    private OnPlatform() {}

    static <T> T call(Reads reads, WorkerPool pool, String name, Callable<T> call) {
        try {
            return pool.onPlatform(() -> typed(reads, name, call), false);
        } catch (RuntimeException e) {
            throw e; // typed: a LanesException already
        } catch (Exception e) {
            throw reads.failureOf(e); // unreachable: typed throws none
        }
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
