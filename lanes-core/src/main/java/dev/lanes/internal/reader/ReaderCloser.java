package dev.lanes.internal.reader;

import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.util.Threads;
import java.util.List;

/**
 * Closes the connections a {@link ReaderSet} let go of, with its lock released, each counted off
 * the runtime's connection budget, and then, for the set's last close, completes the set's close.
 * Always on a platform thread: inline when the caller is one, else as a pool task, since a
 * native close may not run on a virtual thread. Stateless.
 */
final class ReaderCloser {
    private ReaderCloser() {}

    /**
     * Closes {@code connections} (may be null; taken out of their slots under the set's lock,
     * they belong to the caller alone), then runs {@code then} when not null.
     *
     * @param name the database's, for the pool task
     */
    static void close(String name, List<ReaderConnection> connections, Runnable then,
            ConnectionBudget budget, WorkerPool pool) {
        boolean none = connections == null || connections.isEmpty();
        if (none && then == null) {
            return;
        }
        Runnable closing = () -> {
            if (connections != null) {
                for (ReaderConnection c : connections) {
                    c.close();
                    budget.closed();
                }
            }
            if (then != null) {
                then.run();
            }
        };
        if (none || !Threads.currentIsVirtual()) {
            closing.run();
        } else {
            pool.submit(new OneShot(name, closing));
        }
    }
}
