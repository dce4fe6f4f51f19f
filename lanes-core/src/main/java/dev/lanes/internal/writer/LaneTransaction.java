package dev.lanes.internal.writer;

import dev.lanes.BatchFailedException;
import dev.lanes.BusyException;
import dev.lanes.CapacityFloorException;
import dev.lanes.ConstraintViolationException;
import dev.lanes.DeadlineExceededException;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sql.BatchFailure;
import dev.lanes.internal.sqlite.Constraints;
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
 * The one transaction protocol of a writer lane, which group commit, the pinned transaction, the
 * cork and maintenance all call, so that each outcome rule is written once:
 *
 * <ul>
 *   <li>{@link #begin}: {@code BEGIN IMMEDIATE}; refused busy for the whole {@code busyTimeout}
 *       it fails the members {@link BusyException}; failing otherwise, {@code NOT_STARTED}, and
 *       the writer is poisoned when the connection's state cannot be verified afterwards;
 *   <li>{@link #aboveFloor}: the disk floor, sampled once the write lock is held: below it the
 *       members fail {@code NOT_STARTED} and the transaction just begun is rolled back, verified;
 *   <li>{@link #runMember}: one member isolated inside the open transaction: {@code SAVEPOINT},
 *       run, {@code RELEASE}, or its undo ({@code ROLLBACK TO}); the result says which step
 *       ended how, and whether the member ended the whole transaction;
 *   <li>{@link #commit}: the changes since {@code BEGIN}, the commit fence, {@code COMMIT}, and
 *       the outcome: committed (counted, and the commit observer told), rolled back when that is
 *       certain, or {@code UNKNOWN}, which poisons the writer; a commit proven not applied (a
 *       cluster's) is rolled back and says so, so that group commit may run its members again;
 *   <li>{@link #rollBack}: the verified rollback, which poisons the writer when it cannot be
 *       verified;
 *   <li>and the failure a member gets when its body or statement failed ({@link #failure}).
 * </ul>
 * The members are whatever shares the transaction: the writes of a group, the steps of one
 * interactive transaction, or the cork's writes. Several interactive transactions can become
 * members of one shared transaction the same way, each in its own savepoint: {@link #runMember}
 * isolates a member whatever it is, and {@link #commit} decides the outcome of all members at
 * once.
 *
 * <p>Stateless but for its settings; used by the lane's holder only.
 */
final class LaneTransaction {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    private final String name;
    private final Duration busyTimeout;
    private final DiskReserve diskReserve;
    private final Consumer<String> poison;
    /** The database's commit fence, or null. */
    private final CommitFence fence;
    /** Counts commits and reports them. */
    private final WriteTelemetry telemetry;

    LaneTransaction(String name, Duration busyTimeout, DiskReserve diskReserve,
            Consumer<String> poison, CommitFence fence, WriteTelemetry telemetry) {
        this.name = name;
        this.busyTimeout = busyTimeout;
        this.diskReserve = diskReserve;
        this.poison = poison;
        this.fence = fence;
        this.telemetry = telemetry;
    }

    /**
     * How a commit ended: committed ({@link #failure} null), or failed with the outcome of
     * everything in the transaction and a phrase that says what failed.
     *
     * @param changed the rows the transaction changed
     */
    record CommitResult(long changed, WriteOutcome outcome, Exception failure, String what,
            boolean notApplied) {
        static final CommitResult COMMITTED = new CommitResult(0, null, null, null, false);

        static CommitResult failed(WriteOutcome outcome, Exception failure, String what) {
            return new CommitResult(0, outcome, failure, what, false);
        }

        boolean committed() {
            return failure == null;
        }

        /** Proven not applied and rolled back: its members may run again in a fresh one. */
        boolean replayable() {
            return notApplied && outcome == WriteOutcome.ROLLED_BACK;
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
    CommitResult commit(LaneConnection c, String what, Committed committed) {
        long changed;
        try {
            changed = c.changesSinceBegin();
        } catch (SQLException e) {
            return CommitResult.failed(commitFailed(c, e, what), e, failedText(e));
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
            return new CommitResult(0, commitFailed(c, e, what), e, "COMMIT did not apply ("
                    + e.getMessage() + ")", true);
        } catch (SQLException e) {
            return CommitResult.failed(commitFailed(c, e, what), e, failedText(e));
        }
        if (!heldThroughCommit(what)) {
            return CommitResult.failed(WriteOutcome.UNKNOWN, new IllegalStateException("the "
                    + "commit fence could not confirm that the right to write was held through "
                    + what), "the commit fence could not confirm that this writer held the right "
                    + "to write through " + what);
        }
        if (committed.members() > 0) {
            telemetry.counters.add(WriterCounters.COMMITTED, committed.members());
            telemetry.groupCommitted(committed.members(),
                    telemetry.clock().nanoTime() - committed.startedNanos());
        }
        if (committed.members() >= 0) {
            telemetry.counters.increment(WriterCounters.GROUPS);
        }
        committed(c, changed, committed.observer());
        return CommitResult.COMMITTED;
    }

    private static String failedText(SQLException e) {
        return "COMMIT failed (" + e.getMessage() + ")";
    }

    /**
     * What a successful commit reports: {@code members} committed (0 for the cork's, whose writes
     * were counted as they applied; -1 for one that is no group at all), the transaction's start on the lane's clock for the
     * metrics, and the observer told of the tables changed.
     */
    record Committed(int members, long startedNanos, CommitObserver observer) {
        /** A commit of the lane's own (the initializer's, a fence's, a close's): not counted. */
        static final Committed UNCOUNTED = new Committed(-1, 0, CommitObserver.NONE);
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
        return CommitResult.failed(clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN,
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

    /**
     * Rolls the open transaction back, if any, and verifies the connection is outside one; when
     * it cannot be verified, poisons the writer with {@code poisonCause}.
     *
     * @return whether the rollback was verified
     */
    boolean rollBack(LaneConnection c, String poisonCause) {
        boolean clean = c.rollbackVerified();
        if (!clean) {
            poison(poisonCause);
        }
        return clean;
    }

    /** How one member's isolated run inside the open transaction ended. */
    enum Isolation {
        /** It ran and its savepoint, if any, was released: it stays in the transaction. */
        DONE,
        /** It failed and its savepoint undid it; the transaction stays open. */
        UNDONE,
        /** It failed without a savepoint: undone by SQLite (a statement) or not at all. */
        FAILED_BARE,
        /** The transaction ended inside it (committed or rolled back under the lane). */
        ENDED,
        /** {@code SAVEPOINT} failed: it never ran; only the whole rollback is certain. */
        SAVEPOINT_FAILED,
        /** {@code RELEASE} failed after it ran: only the whole rollback undoes it. */
        RELEASE_FAILED,
        /** {@code ROLLBACK TO} failed after it failed: only the whole rollback undoes it. */
        UNDO_FAILED
    }

    /**
     * What {@link #runMember} gave: how it ended, the member's value or failure, the savepoint
     * step's own failure, and the watch on the transaction's end.
     */
    record Isolated(Isolation how, Object value, Throwable failure, SQLException stepFailure,
            LaneConnection.Watch watch) {}

    /**
     * Runs one member inside the open transaction, isolated by its own savepoint when {@code
     * savepoint}: {@code SAVEPOINT}, the member once ({@link Stages#runOnce}), then {@code
     * RELEASE}, or {@code ROLLBACK TO} when it failed. Records no outcome: the caller decides it
     * from the result, by its own rules for what follows.
     */
    Isolated runMember(LaneConnection c, WriteRequest r, boolean savepoint,
            Stages.Body body) {
        if (savepoint) {
            try {
                c.savepoint();
            } catch (SQLException e) {
                return new Isolated(Isolation.SAVEPOINT_FAILED, null, null, e, null);
            }
        }
        LaneConnection.Watch watch = c.watch();
        Stages.Ran once = r.stages.runOnce(telemetry.clock(), body);
        Throwable failure = once.failure();
        if (watch.ended()) {
            return new Isolated(Isolation.ENDED, null, failure, null, watch);
        }
        if (!savepoint) {
            return new Isolated(failure == null ? Isolation.DONE : Isolation.FAILED_BARE, once.value(),
                    failure, null, watch);
        }
        try {
            if (failure == null) {
                c.releaseSavepoint();
                return new Isolated(Isolation.DONE, once.value(), null, null, watch);
            }
            c.rollBackToSavepoint();
            return new Isolated(Isolation.UNDONE, null, failure, null, watch);
        } catch (SQLException e) {
            return new Isolated(failure == null ? Isolation.RELEASE_FAILED : Isolation.UNDO_FAILED, null,
                    failure, e, watch);
        }
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
                r.stages.fail(new BusyException(name + ": SQLite's write lock stayed taken by "
                        + "another connection for "
                        + TimeUnit.NANOSECONDS.toMillis(busy.waitedNanos) + " ms (busyTimeout "
                        + busyTimeout.toMillis() + " ms); the write never "
                        + "ran. Is another process writing to it?", busy.getCause()));
            }
            return false;
        } catch (SQLException e) {
            boolean clean = c.rollbackVerified();
            for (WriteRequest r : requests) {
                r.stages.fail(new WriteFailedException(WriteOutcome.NOT_STARTED, name + ": BEGIN "
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
                r.stages.fail(new CapacityFloorException(e.getMessage()));
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
            // One statement refused before SQLite ran it (a parameter it cannot bind) did not
            // start; a body's refusal may follow statements it ran.
            boolean unstarted = outcome == WriteOutcome.ROLLED_BACK
                    && ((InvalidRequestException) cause).outcome() == WriteOutcome.NOT_STARTED
                    && r.singleStatement();
            return new InvalidRequestException(unstarted ? WriteOutcome.NOT_STARTED : outcome,
                    cause.getMessage(), cause);
        }
        if (cause instanceof StepDeadline.Exceeded) {
            return new DeadlineExceededException(outcome, name + ": " + r.describe() + " "
                    + cause.getMessage() + "; " + (outcome == WriteOutcome.UNKNOWN ? "whether "
                    + "the transaction persisted is unknown" : outcome == WriteOutcome.ROLLED_BACK
                    && r instanceof WriteRequest.TransactionStep
                    && ((WriteRequest.TransactionStep) r).tx.isOpen() ? "the transaction "
                    + "stays open" : "the transaction was rolled back"), cause.getCause());
        }
        if (cause instanceof CapacityFloorException && outcome == WriteOutcome.ROLLED_BACK) {
            return new CapacityFloorException(cause.getMessage(), cause);
        }
        String what = outcome == WriteOutcome.UNKNOWN ? "failed, and whether it persisted in "
                + "part is unknown" : "failed and was rolled back";
        ConstraintViolationException.Kind constraint = Constraints.kindOf(cause);
        if (constraint != null) {
            return new ConstraintViolationException(constraint, outcome, name + ": "
                    + r.describe() + " " + what + ": " + constraintMessage(cause), cause);
        }
        return new WriteFailedException(outcome, name + ": " + r.describe() + " " + what + ": "
                + cause, cause);
    }

    /**
     * SQLite's own words for a constraint failure ({@code UNIQUE constraint failed: t.email}),
     * without the driver's prefix ({@code [SQLITE_CONSTRAINT_UNIQUE] A UNIQUE constraint failed
     * (…)}).
     */
    private static String constraintMessage(Throwable cause) {
        SQLException sqlite = Constraints.sqliteError(cause);
        String m = sqlite == null ? null : sqlite.getMessage();
        if (m == null) {
            return String.valueOf(cause);
        }
        int open = m.startsWith("[") ? m.indexOf(" (", m.indexOf(']')) : -1;
        return open > 0 && m.endsWith(")") ? m.substring(open + 2, m.length() - 1) : m;
    }
}
