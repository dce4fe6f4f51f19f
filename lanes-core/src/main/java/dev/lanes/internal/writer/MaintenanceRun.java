package dev.lanes.internal.writer;

import dev.lanes.InvalidRequestException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.writer.WriteRequest.Maintenance;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/**
 * A maintenance request's turn: its body runs alone, without the transaction wrap, so that it
 * may run what cannot run in a transaction (VACUUM, a checkpoint). Statements outside a
 * transaction autocommit one by one, so a failure after one of them committed is {@code
 * UNKNOWN}; a body that leaves a transaction open, or fails with an I/O error (a VACUUM or
 * checkpoint whose sync failed), leaves the file's state unknown and poisons the writer; but the
 * database's own background maintenance (the checkpointer's tail) fails without poisoning, and
 * neither counts as a commit. It is refused while corked, since it cannot run inside the cork's
 * transaction.
 *
 * <p>Concurrency: none of its own; it runs on the lane's holder, on the writer connection.
 */
final class MaintenanceRun {
    private final String name;
    private final LaneTransaction transaction;
    private final Cork cork;
    private final WriteTelemetry telemetry;
    private final Clock clock;
    private final DiskReserve diskReserve;
    private final Consumer<String> poison;

    MaintenanceRun(LaneTransaction transaction, Cork cork, WriteTelemetry telemetry, Clock clock,
            DiskReserve diskReserve, Consumer<String> poison) {
        this.name = transaction.name();
        this.transaction = transaction;
        this.cork = cork;
        this.telemetry = telemetry;
        this.clock = clock;
        this.diskReserve = diskReserve;
        this.poison = poison;
    }

    void run(Maintenance r, WriterConnection c) {
        if (cork.corked()) {
            r.stages.fail(new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                    + ": maintenance is refused while corked (it cannot run inside the cork's "
                    + "transaction); uncork first", null));
            return;
        }
        if (!r.background && !fencePassed(r, c)) {
            return;
        }
        LaneConnection.Watch watch = c.watch();
        Stages.Ran once = r.stages.runOnce(clock,
                () -> c.runGuarded(r.body, false, diskReserve::checkVacuumHeadroom));
        Object value = once.value();
        Throwable failure = once.failure();
        if ((failure == null || watch.committed()) && !r.background
                && !transaction.heldThroughCommit("a maintenance request")) {
            r.stages.fail(new WriteFailedException(WriteOutcome.UNKNOWN, name + ": the commit "
                    + "fence could not confirm that this writer held the right to write through "
                    + "the maintenance request; whether it persisted is unknown", failure));
        } else if (leftOpen(c)) {
            boolean clean = c.rollbackVerified();
            r.stages.fail(new WriteFailedException(WriteOutcome.UNKNOWN, name + ": the maintenance "
                    + "request left a transaction open" + (clean ? " (rolled back)" : ""), failure));
            poison.accept("a maintenance request left a transaction open");
        } else if (failure != null) {
            boolean ioFailure = SqliteConnections.causedByIoFailure(failure);
            r.stages.fail(transaction.failure(r, watch.committed() || ioFailure
                    ? WriteOutcome.UNKNOWN : WriteOutcome.ROLLED_BACK, failure));
            // The database's own checkpoint tail leaves every frame in the WAL when it fails,
            // and SQLite advances what it copied only after a sync succeeded: like the
            // autocheckpoint inside a commit, its failure is the checkpointer's to retry, not
            // the writer's (a full disk would otherwise poison a database that frees space).
            if (ioFailure && !r.background) {
                poison.accept("a maintenance request failed with an I/O error (" + failure
                        + "); the file's state is not known");
            }
        } else {
            r.stages.succeed(value);
            if (!r.background) {
                telemetry.counters.increment(WriterCounters.COMMITTED);
            }
        }
    }

    /**
     * A maintenance body runs outside a transaction, so the commit fence is passed in a
     * transaction of its own just before the body, and asked after it whether it held. A fence
     * that refuses fails the request {@code NOT_STARTED}: the body never ran.
     */
    private boolean fencePassed(Maintenance r, WriterConnection c) {
        if (!transaction.fenced()) {
            return true;
        }
        if (!transaction.begin(c, List.of(r))) {
            return false;
        }
        String what = "the commit fence's transaction before a maintenance request";
        LaneTransaction.CommitResult result = transaction.commit(c, what,
                LaneTransaction.Committed.UNCOUNTED);
        if (result.committed()) {
            return true;
        }
        r.stages.fail(new WriteFailedException(WriteOutcome.NOT_STARTED, name + ": " + result.what()
                + " before the maintenance request; it never ran", result.failure()));
        return false;
    }

    /** Whether the body left a transaction open; one that cannot be asked counts as open. */
    private static boolean leftOpen(WriterConnection c) {
        try {
            return c.inTransaction();
        } catch (SQLException e) {
            return true;
        }
    }
}
