package dev.lanes.internal.reader;

import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.util.LogNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reader housekeeping handed to the pool: a native close for a virtual thread, or the delivery
 * of timed-out waits. Runs once on one pool thread; a failure is logged, never thrown into the
 * pool.
 */
final class OneShot implements WorkerPool.Task {
    private static final Logger log = LoggerFactory.getLogger(LogNames.READS);

    private final String database;
    private final Runnable action;

    OneShot(String database, Runnable action) {
        this.database = database;
        this.action = action;
    }

    @Override
    public void runTurn() {
        try {
            action.run();
        } catch (RuntimeException e) {
            log.warn("{}: reader housekeeping failed", database, e);
        }
    }

    @Override
    public boolean background() {
        return false;
    }
}
