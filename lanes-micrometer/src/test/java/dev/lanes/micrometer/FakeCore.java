package dev.lanes.micrometer;

import dev.lanes.DatabaseState;
import dev.lanes.MetricsListener;

/**
 * Stands in for the parts of lanes-core that do not call the newer listener methods yet: its
 * gauges are fields a test sets, and its methods call a listener in the order the core is to
 * call it (see {@link MetricsListener}'s Javadoc). Once the core calls them, the tests that run
 * a real runtime cover the same meters end to end.
 */
final class FakeCore {
    private FakeCore() {}

    /** The runtime's gauges. */
    static final class Pool implements MetricsListener.PoolGauges {
        volatile int live = 2;
        volatile int busy = 1;
        volatile int runnable;
        volatile int max = 64;
        volatile int connections = 3;
        volatile int budget;

        @Override
        public int liveThreads() {
            return live;
        }

        @Override
        public int busyThreads() {
            return busy;
        }

        @Override
        public int runnable() {
            return runnable;
        }

        @Override
        public int maxThreads() {
            return max;
        }

        @Override
        public int openConnections() {
            return connections;
        }

        @Override
        public int connectionBudget() {
            return budget;
        }
    }

    /** One database's gauges. */
    static final class Db implements MetricsListener.DatabaseGauges {
        volatile int queue;
        volatile boolean poisoned;
        volatile boolean transaction;
        volatile long wal;
        volatile int readers;
        volatile int waiting;
        volatile long free = -1;
        volatile long reserve = 64L << 20;
        volatile DatabaseState state = DatabaseState.RUNNING;

        @Override
        public int queueDepth() {
            return queue;
        }

        @Override
        public boolean writerPoisoned() {
            return poisoned;
        }

        @Override
        public boolean transactionOpen() {
            return transaction;
        }

        @Override
        public long walBytes() {
            return wal;
        }

        @Override
        public int readersInUse() {
            return readers;
        }

        @Override
        public int readersWaiting() {
            return waiting;
        }

        @Override
        public long freeBytes() {
            return free;
        }

        @Override
        public long diskReserveBytes() {
            return reserve;
        }

        @Override
        public DatabaseState state() {
            return state;
        }
    }

    /**
     * One write request, as the writer lane reports it: submitted, queued, run in a group,
     * completed.
     */
    static void write(MetricsListener listener, String db, String label,
            MetricsListener.Outcome outcome, Throwable failure, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {
        Object started = listener.requestStarted(db, MetricsListener.Operation.WRITE, label);
        listener.queueWait(db, queueWaitNanos);
        listener.command(db, MetricsListener.Operation.WRITE, true, "INSERT", totalNanos / 2,
                failure == null);
        if (failure != null && failure instanceof dev.lanes.LanesException) {
            listener.error(db, ((dev.lanes.LanesException) failure).code());
        }
        listener.requestCompleted(started, db, MetricsListener.Operation.WRITE, label, outcome,
                failure, replayed, groupSize, queueWaitNanos, totalNanos);
    }
}
