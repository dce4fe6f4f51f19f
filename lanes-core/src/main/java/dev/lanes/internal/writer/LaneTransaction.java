package dev.lanes.internal.writer;

import dev.lanes.BatchFailedException;
import dev.lanes.BusyException;
import dev.lanes.CapacityFloorException;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sql.BatchFailure;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.util.LogNames;
import dev.lanes.spi.CommitFence;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lane's own transaction steps and the outcomes they give requests, shared by group
 * commit, the pinned transaction and the cork:
 *
 * <ul>
 *   <li>{@code BEGIN IMMEDIATE}: refused busy for the whole {@code busyTimeout} it fails the
 *       requests {@link BusyException}; failing otherwise, {@code NOT_STARTED}, and the writer
 *       is poisoned when the connection's state cannot be verified afterwards;
 *   <li>the disk floor, sampled once the write lock is held: below it the requests fail {@code
 *       NOT_STARTED} and the transaction just begun is rolled back, verified;
 *   <li>a failed {@code COMMIT}: rolled back only when that is certain (see {@link
 *       LaneConnection#rolledBackAfterFailedCommit}), else {@code UNKNOWN}, and the writer is
 *       poisoned;
 *   <li>a committed transaction that changed rows tells the commit observer;
 *   <li>and the failure a request gets when its body or statement failed ({@link #failure}).
 * </ul>
 * Stateless but for its settings; used by the lane's holder only.
 */
final class LaneTransaction {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    private final String name;
    private final Duration busyTimeout;
    private final DiskReserve diskReserve;
    private final Consumer<String> poison;
    /** The database's commit fence, or null. */
    private final CommitFence fence;

    LaneTransaction(String name, Duration busyTimeout, DiskReserve diskReserve,
            Consumer<String> poison, CommitFence fence) {
        this.name = name;
        this.busyTimeout = busyTimeout;
        this.diskReserve = diskReserve;
        this.poison = poison;
        this.fence = fence;
    }

    /**
     * How a commit ended: committed ({@link #failure} null), or failed with the outcome of
     * everything in the transaction and a phrase that says what failed.
     *
     * @param changed the rows the transaction changed
     */
    record CommitResult(long changed, WriteOutcome outcome, Exception failure, String what) {
        static CommitResult committed(long changed) {
            return new CommitResult(changed, null, null, null);
        }

        boolean committed() {
            return failure == null;
        }
    }

    /**
     * Commits the open transaction behind the database's commit fence: the fence runs inside it
     * just before {@code COMMIT}; a fence that throws refuses the commit (rolled back, verified,
     * else unknown); a failed {@code COMMIT} ends as {@link #commitFailed} says; and a fence that
     * cannot say it held the right to write through the commit makes the outcome unknown. An
     * unknown outcome poisons the writer.
     *
     * @param what the commit, for the poison cause ("COMMIT", "uncork's COMMIT", ...)
     * @throws LaneConnection.CommitNotApplied when the commit is proven not applied (a cluster's)
     */
    CommitResult commit(LaneConnection c, String what) throws LaneConnection.CommitNotApplied {
        long changed;
        try {
            changed = c.changesSinceBegin();
        } catch (SQLException e) {
            return new CommitResult(0, commitFailed(c, e, what), e, "COMMIT failed ("
                    + e.getMessage() + ")");
        }
        if (fence != null) {
            CommitResult refused = fenceBeforeCommit(c, what);
            if (refused != null) {
                return refused;
            }
        }
        try {
            c.commit();
        } catch (LaneConnection.CommitNotApplied e) {
            throw e;
        } catch (SQLException e) {
            return new CommitResult(0, commitFailed(c, e, what), e, "COMMIT failed ("
                    + e.getMessage() + ")");
        }
        if (!heldThroughCommit(what)) {
            return new CommitResult(changed, WriteOutcome.UNKNOWN, new IllegalStateException(
                    "the commit fence could not confirm that the right to write was held through "
                    + what), "the commit fence could not confirm that this writer held the right "
                    + "to write through " + what);
        }
        return CommitResult.committed(changed);
    }

    /** Runs the fence; null when it let the commit go on, else the refused commit's result. */
    private CommitResult fenceBeforeCommit(LaneConnection c, String what) {
        LaneConnection.Watch watch = c.watch();
        Exception refusal = null;
        try {
            c.beforeCommit(fence);
        } catch (Exception e) {
            refusal = e;
        }
        if (refusal == null && !watch.ended()) {
            return null;
        }
        if (refusal == null) {
            refusal = new IllegalStateException("the commit fence ended the transaction");
        }
        boolean clean = !watch.committed() && c.rollbackVerified();
        if (!clean) {
            poison("the commit fence refused " + what + " (" + refusal + ") and the rollback "
                    + "could not be verified");
        }
        return new CommitResult(0, clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN,
                refusal, "the commit fence refused the commit (" + refusal.getMessage() + ")");
    }

    /**
     * After a commit (or, for maintenance, after its body): whether the fence, if any, held the
     * right to write through it. When it did not, the writer is poisoned.
     */
    boolean heldThroughCommit(String what) {
        if (fence == null) {
            return true;
        }
        boolean held;
        try {
            held = fence.heldThroughCommit();
        } catch (RuntimeException e) {
            log.error("{}: the commit fence failed after {}", name, what, e);
            held = false;
        }
        if (!held) {
            poison("the commit fence could not confirm that this writer held the right to write "
                    + "through " + what + "; whether it persisted is unknown");
        }
        return held;
    }

    /** Whether the database has a commit fence. */
    boolean fenced() {
        return fence != null;
    }

    String name() {
        return name;
    }

    void poison(String cause) {
        poison.accept(cause);
    }

    /**
     * {@code BEGIN IMMEDIATE} for {@code requests}; on failure they all fail {@code
     * NOT_STARTED}.
     *
     * @return whether the transaction is open
     */
    boolean begin(LaneConnection c, Collection<? extends WriteRequest> requests) {
        try {
            c.beginImmediate();
            return true;
        } catch (BusyTimeout busy) {
            for (WriteRequest r : requests) {
                r.fail(new BusyException(name + ": SQLite's write lock stayed taken by another "
                        + "connection for " + TimeUnit.NANOSECONDS.toMillis(busy.waitedNanos)
                        + " ms (busyTimeout " + busyTimeout.toMillis() + " ms); the write never "
                        + "ran. Is another process writing to it?", busy.getCause()));
            }
            return false;
        } catch (SQLException e) {
            boolean clean = c.rollbackVerified();
            for (WriteRequest r : requests) {
                r.fail(new WriteFailedException(WriteOutcome.NOT_STARTED, name + ": BEGIN "
                        + "IMMEDIATE failed (" + e.getMessage() + "); the write never ran", e));
            }
            if (!clean) {
                poison("BEGIN IMMEDIATE failed and the connection's transaction state could not "
                        + "be verified: " + e.getMessage());
            }
            return false;
        }
    }

    /**
     * Samples free space once the write lock is held; below the floor every request fails
     * {@code NOT_STARTED} and, with {@code rollBack}, the transaction just begun is rolled back.
     *
     * @return whether the turn may write
     */
    boolean aboveFloor(LaneConnection c, Collection<? extends WriteRequest> requests,
            boolean rollBack) {
        try {
            diskReserve.check();
            return true;
        } catch (CapacityFloorException e) {
            for (WriteRequest r : requests) {
                r.fail(new CapacityFloorException(e.getMessage()));
            }
            if (rollBack && !c.rollbackVerified()) {
                poison("the rollback after a refused turn could not be verified");
            }
            return false;
        }
    }

    /**
     * {@code COMMIT} failed: ends the transaction and returns the outcome of everything in it,
     * poisoning the writer when that is {@code UNKNOWN}.
     *
     * @param what the commit, for the poison cause ("COMMIT", "uncork's COMMIT", …)
     */
    WriteOutcome commitFailed(LaneConnection c, SQLException e, String what) {
        if (c.rolledBackAfterFailedCommit(e)) {
            return WriteOutcome.ROLLED_BACK;
        }
        poison(commitUnknown(what, e));
        return WriteOutcome.UNKNOWN;
    }

    /** The poison cause after a failed commit whose outcome is unknown. */
    private static String commitUnknown(String what, SQLException failure) {
        return what + " failed (" + failure.getMessage() + ") "
                + (SqliteConnections.isIoFailure(failure) ? "with an I/O error: its frames may "
                + "be in the WAL, where crash recovery replays them, and the file's state is not "
                + "known" : "and it could not be verified that nothing of it persisted");
    }

    /** A transaction committed: tells the observer when it changed rows; never throws. */
    void committed(LaneConnection c, long changed, CommitObserver observer) {
        if (changed <= 0) {
            return;
        }
        try {
            observer.committed(c.takeChangedTables());
        } catch (RuntimeException e) {
            log.error("{}: the commit observer failed; the commit stands", name, e);
        }
    }

    /** The failure a request gets when its body or statement failed with {@code cause}. */
    LanesException failure(WriteRequest r, WriteOutcome outcome, Throwable cause) {
        if (cause instanceof BatchFailure) {
            BatchFailure b = (BatchFailure) cause;
            return new BatchFailedException(outcome, name + ": " + b.getMessage()
                    + (outcome == WriteOutcome.ROLLED_BACK ? "; the whole batch was rolled back"
                    : "; whether the batch persisted in part is unknown"), b.index, b.index,
                    b.getCause());
        }
        if (cause instanceof InvalidRequestException) {
            return new InvalidRequestException(outcome, cause.getMessage(), cause);
        }
        if (cause instanceof CapacityFloorException && outcome == WriteOutcome.ROLLED_BACK) {
            return new CapacityFloorException(cause.getMessage(), cause);
        }
        String what = outcome == WriteOutcome.UNKNOWN ? "failed, and whether it persisted in "
                + "part is unknown" : "failed and was rolled back";
        return new WriteFailedException(outcome, name + ": " + r.describe() + " " + what + ": "
                + cause, cause);
    }
}
