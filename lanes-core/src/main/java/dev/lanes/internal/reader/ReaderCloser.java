package dev.lanes.internal.reader;

import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.util.Threads;
import java.util.List;

/**
 * Closes reader connections the {@link ReaderSet} let go of, always on a platform thread: inline
 * when the caller is one, else as a pool task, since a native close may not run on a virtual
 * thread. Each close is counted off the connection budget; the last one completes the set's
 * close ({@link ReaderSet#closedNow}). Stateless but for its final references; the connections handed over
 * belong to it alone (the set took them out of its slots under its lock), and it is called
 * after that lock is released.
 */
final class ReaderCloser {
    private final String name;
    private final ConnectionBudget budget;
    private final WorkerPool pool;
    private final ReaderSet set;

    ReaderCloser(String name, ConnectionBudget budget, WorkerPool pool, ReaderSet set) {
        this.name = name;
        this.budget = budget;
        this.pool = pool;
        this.set = set;
    }

    /** Closes {@code connections} (may be null), then completes the close when {@code last}. */
    void close(List<ReaderConnection> connections, boolean last) {
        if ((connections == null || connections.isEmpty()) && !last) {
            return;
        }
        Runnable closing = () -> {
            if (connections != null) {
                for (ReaderConnection c : connections) {
                    c.close();
                    budget.closed();
                }
            }
            if (last) {
                set.closedNow();
            }
        };
        if (connections == null || connections.isEmpty() || !Threads.currentIsVirtual()) {
            closing.run();
        } else {
            pool.submit(new OneShot(name, closing));
        }
    }
}
