package dev.lanes.internal.writer;

import dev.lanes.DatabaseState;
import dev.lanes.MetricsListener;
import java.util.function.Supplier;

/**
 * The gauges a writer lane answers for its database: queue depth, poisoning, an open interactive
 * transaction, and the database's state. A local database adds the file's and the readers'
 * gauges; a cluster database has only these.
 *
 * <p>Concurrency: read from any thread (the listener's). Each reads a volatile mirror the lane
 * keeps (see {@link WriterLane}); none takes the lane's lock or runs SQL.
 */
public class LaneGauges implements MetricsListener.DatabaseGauges {
    private final WriterLane lane;
    private final Supplier<DatabaseState> state;

    /** @param state the database's state, which may differ from the lane's (a closing reader) */
    public LaneGauges(WriterLane lane, Supplier<DatabaseState> state) {
        this.lane = lane;
        this.state = state;
    }

    @Override
    public int queueDepth() {
        return lane.queueDepth();
    }

    @Override
    public boolean writerPoisoned() {
        return lane.poisoned();
    }

    @Override
    public boolean transactionOpen() {
        return lane.transactionOpen();
    }

    @Override
    public DatabaseState state() {
        return state.get();
    }
}
