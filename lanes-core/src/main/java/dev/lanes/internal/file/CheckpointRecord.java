package dev.lanes.internal.file;

import dev.lanes.CheckpointMode;
import dev.lanes.CheckpointResult;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.internal.util.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The checkpoint record of one database, whoever ran them (the checkpointer, {@link
 * dev.lanes.Database#checkpoint()}). Thread-safe: one volatile snapshot, replaced whole by
 * compare-and-set ({@link #SNAPSHOT}), so that concurrent records never lose one another;
 * every database starts from the one shared {@link #NONE}.
 */
public final class CheckpointRecord {
    private record Snapshot(CheckpointResult last, String lastMode, Instant lastAt, long count,
            long failures, String lastFailure) {}

    private static final Snapshot NONE = new Snapshot(null, null, null, 0, 0, null);
    private static final VarHandle SNAPSHOT =
            VarHandles.field(MethodHandles.lookup(), "snapshot", Snapshot.class);

    private final CheckpointMode mode;
    private volatile Snapshot snapshot = NONE;

    public CheckpointRecord(CheckpointMode mode) {
        this.mode = mode;
    }

    public void record(String how, CheckpointResult result) {
        update(s -> new Snapshot(result, how, Instant.now(), s.count + 1, s.failures,
                s.lastFailure));
    }

    public void failed(String how, Throwable cause) {
        update(s -> new Snapshot(s.last, s.lastMode, s.lastAt, s.count, s.failures + 1,
                how + ": " + cause));
    }

    private void update(UnaryOperator<Snapshot> change) {
        Snapshot s;
        do {
            s = snapshot;
        } while (!SNAPSHOT.compareAndSet(this, s, change.apply(s)));
    }

    /** The diagnostics view, with the WAL's size read now from the file system. */
    public DatabaseDiagnostics.Checkpoints view(Path database) {
        Snapshot s = snapshot;
        return new DatabaseDiagnostics.Checkpoints(mode, Checkpointer.walBytes(database),
                Optional.ofNullable(s.last), Optional.ofNullable(s.lastMode),
                Optional.ofNullable(s.lastAt), s.count, s.failures,
                Optional.ofNullable(s.lastFailure));
    }
}
