package dev.lanes.internal.engine;

import dev.lanes.DatabaseState;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.reader.ReaderSet;
import dev.lanes.internal.writer.LaneGauges;
import dev.lanes.internal.writer.WriterLane;
import java.util.function.Supplier;

/**
 * The gauges of one local database that the metrics listener reads, each from the part that
 * holds the value: the lane's ({@link LaneGauges}), the file's and the readers'.
 *
 * <p>Concurrency: read from any thread (the listener's). None takes a lock a turn holds or runs
 * SQL: each reads a volatile or atomic mirror of its part, and the WAL's size costs one {@code
 * stat}.
 */
final class DatabaseGauges extends LaneGauges {
    private final DatabaseGuards guards;
    private final ReaderSet readers;
    private final DiskReserve diskReserve;
    private final long diskReserveBytes;

    DatabaseGauges(WriterLane lane, DatabaseGuards guards, ReaderSet readers,
            DiskReserve diskReserve, long diskReserveBytes, Supplier<DatabaseState> state) {
        super(lane, state);
        this.guards = guards;
        this.readers = readers;
        this.diskReserve = diskReserve;
        this.diskReserveBytes = diskReserveBytes;
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
}
