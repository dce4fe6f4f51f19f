package dev.lanes.internal.engine;

import dev.lanes.DatabaseState;
import dev.lanes.MetricsListener;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.reader.ReaderSet;
import dev.lanes.internal.writer.WriterLane;
import java.util.function.Supplier;

/**
 * The gauges of one database that the metrics listener reads, each from the part that holds the
 * value.
 *
 * <p>Concurrency: read from any thread (the listener's). None takes a lock a turn holds or runs
 * SQL: each reads a volatile or atomic mirror of its part, and the WAL's size costs one {@code
 * stat}.
 */
final class DatabaseGauges implements MetricsListener.DatabaseGauges {
    private final WriterLane lane;
    private final DatabaseGuards guards;
    private final ReaderSet readers;
    private final DiskReserve diskReserve;
    private final long diskReserveBytes;
    private final Supplier<DatabaseState> state;

    DatabaseGauges(WriterLane lane, DatabaseGuards guards, ReaderSet readers,
            DiskReserve diskReserve, long diskReserveBytes, Supplier<DatabaseState> state) {
        this.lane = lane;
        this.guards = guards;
        this.readers = readers;
        this.diskReserve = diskReserve;
        this.diskReserveBytes = diskReserveBytes;
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
    public long walBytes() {
        return guards.walBytes();
    }

    @Override
    public int readersInUse() {
        return readers.inUse();
    }

    @Override
    public int readersWaiting() {
        return readers.waiting();
    }

    @Override
    public long freeBytes() {
        return diskReserve.lastFreeBytes();
    }

    @Override
    public long diskReserveBytes() {
        return diskReserveBytes;
    }

    @Override
    public DatabaseState state() {
        return state.get();
    }
}
