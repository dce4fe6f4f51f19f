package dev.lanes.micrometer;

import dev.lanes.ErrorCode;
import dev.lanes.MetricsListener;
import java.time.Duration;

/**
 * Hands every event to two listeners, so that one real runtime feeds two bindings at once (two
 * tagging policies side by side). {@link #requestStarted} keeps both listeners' objects.
 */
final class FanOut implements MetricsListener {
    private final MetricsListener a;
    private final MetricsListener b;

    FanOut(MetricsListener a, MetricsListener b) {
        this.a = a;
        this.b = b;
    }

    private record Both(Object a, Object b) {}

    @Override
    public void runtimeStarted(PoolGauges pool) {
        a.runtimeStarted(pool);
        b.runtimeStarted(pool);
    }

    @Override
    public void databaseOpened(String db, DatabaseGauges gauges) {
        a.databaseOpened(db, gauges);
        b.databaseOpened(db, gauges);
    }

    @Override
    public void databaseClosed(String db, long nanos, boolean timedOut) {
        a.databaseClosed(db, nanos, timedOut);
        b.databaseClosed(db, nanos, timedOut);
    }

    @Override
    public void queueWait(String db, long nanos) {
        a.queueWait(db, nanos);
        b.queueWait(db, nanos);
    }

    @Override
    public void command(String db, Operation operation, boolean inTransaction,
            String statementKind, long nanos, boolean success) {
        a.command(db, operation, inTransaction, statementKind, nanos, success);
        b.command(db, operation, inTransaction, statementKind, nanos, success);
    }

    @Override
    public void groupCommitted(String db, int size, long nanos) {
        a.groupCommitted(db, size, nanos);
        b.groupCommitted(db, size, nanos);
    }

    @Override
    public void error(String db, ErrorCode code) {
        a.error(db, code);
        b.error(db, code);
    }

    @Override
    public void overload(String db) {
        a.overload(db);
        b.overload(db);
    }

    @Override
    public void crash(String db) {
        a.crash(db);
        b.crash(db);
    }

    @Override
    public void uncleanClose(String db) {
        a.uncleanClose(db);
        b.uncleanClose(db);
    }

    @Override
    public void slowWrite(String db, Duration total) {
        a.slowWrite(db, total);
        b.slowWrite(db, total);
    }

    @Override
    public void runtimeClosed() {
        a.runtimeClosed();
        b.runtimeClosed();
    }

    @Override
    public Object requestStarted(String db, Operation operation, String label) {
        Object first = a.requestStarted(db, operation, label);
        Object second = b.requestStarted(db, operation, label);
        return first == null && second == null ? null : new Both(first, second);
    }

    @Override
    public void requestCompleted(Object started, String db, Operation operation, String label,
            Outcome outcome, Throwable failure, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {
        Both both = started instanceof Both ? (Both) started : new Both(null, null);
        a.requestCompleted(both.a(), db, operation, label, outcome, failure, replayed, groupSize,
                queueWaitNanos, totalNanos);
        b.requestCompleted(both.b(), db, operation, label, outcome, failure, replayed, groupSize,
                queueWaitNanos, totalNanos);
    }

    @Override
    public void checkpoint(String db, CheckpointType type, CheckpointTrigger trigger, long nanos,
            int walFrames, int checkpointedFrames, boolean busy, boolean failed) {
        a.checkpoint(db, type, trigger, nanos, walFrames, checkpointedFrames, busy, failed);
        b.checkpoint(db, type, trigger, nanos, walFrames, checkpointedFrames, busy, failed);
    }

    @Override
    public void readerCheckout(String db, long waitNanos, boolean acquired) {
        a.readerCheckout(db, waitNanos, acquired);
        b.readerCheckout(db, waitNanos, acquired);
    }

    @Override
    public void connectionsEvicted(String db, int connections) {
        a.connectionsEvicted(db, connections);
        b.connectionsEvicted(db, connections);
    }

    @Override
    public void connectionReopened(String db, long nanos) {
        a.connectionReopened(db, nanos);
        b.connectionReopened(db, nanos);
    }

    @Override
    public void diskFloorRefused(String db, long freeBytes, long floorBytes) {
        a.diskFloorRefused(db, freeBytes, floorBytes);
        b.diskFloorRefused(db, freeBytes, floorBytes);
    }

    @Override
    public void changeDelivered(String db, long lagNanos) {
        a.changeDelivered(db, lagNanos);
        b.changeDelivered(db, lagNanos);
    }
}
