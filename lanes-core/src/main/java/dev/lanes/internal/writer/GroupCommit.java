package dev.lanes.internal.writer;

import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.writer.WriteRequest.BodyWrite;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.StatementWrite;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One commit group: adjacent queued writes run in one transaction, {@code BEGIN IMMEDIATE}, each
 * request, {@code COMMIT}, so that one sync serves them all, and each request is all or nothing
 * and independent of its neighbours.
 *
 * <h2>Isolation</h2>
 * A body that shares its transaction (a group of two or more, or any write while corked) runs
 * inside {@code SAVEPOINT}; when it fails, {@code ROLLBACK TO} and {@code RELEASE} undo it
 * alone. A statement needs no savepoint (SQLite undoes a failed statement by itself), nor does a
 * lone body (the whole transaction is rolled back, verified).
 *
 * <h2>A failure that ends the group's transaction</h2>
 * A conflict clause {@code OR ROLLBACK}, {@code RAISE(ROLLBACK)} or an I/O error can end the
 * whole transaction from inside one request; the connection's {@linkplain LaneConnection#watch()
 * watch} reveals it. Then nothing of the group persisted: the request that ended it (the culprit)
 * fails, and the ones that ran before it run again in a fresh transaction, unless not
 * {@linkplain dev.lanes.WriteOptions#replayable() replayable} (they then fail {@code
 * ROLLED_BACK}, naming the culprit); the ones after it keep their place. However many members
 * end the transaction, every innocent one commits: each ending takes its culprit out, so the
 * group runs at most as many transactions as it has members, and that is the bound on a
 * member's runs ({@link #runsBound}). A body that
 * committed the transaction behind the lane's back makes what ran before it durable (acknowledged,
 * never replayed) and its own outcome unknown. A savepoint step that fails gives up the whole
 * transaction the same way.
 *
 * <h2>A commit proven not applied</h2>
 * A cluster connection resolves a {@code COMMIT} whose outcome was uncertain (the leader was lost
 * during it); when it proves the commit did not apply it throws {@link
 * LaneConnection.CommitNotApplied}, and the group's writes run again in a fresh transaction
 * (replayable ones, at most twice: no member is to blame, so nothing is taken out), the others
 * failing {@code ROLLED_BACK}.
 *
 * <h2>Honest outcomes</h2>
 * Every rollback is verified. When it cannot be, what ran is {@code UNKNOWN}, what did not run
 * never started, and the writer is poisoned. A request's outcome is recorded here and delivered
 * by the lane after the turn.
 *
 * <p>Written against {@link LaneConnection}, so that these rules are tested without SQLite. Used
 * by the lane's holder only.
 */
final class GroupCommit {
    private final String name;
    private final LaneTransaction transaction;
    private final Cork cork;
    private final WriteTelemetry telemetry;
    private final Clock clock;
    /** The most runs a member may have: the size of the group as its turn took it. */
    private int runsBound;

    GroupCommit(LaneTransaction transaction, Cork cork, WriteTelemetry telemetry, Clock clock) {
        this.name = transaction.name();
        this.transaction = transaction;
        this.cork = cork;
        this.telemetry = telemetry;
        this.clock = clock;
    }

    /** Runs the group to its end, replays included; every request has its outcome recorded. */
    void runToEnd(List<GroupWrite> group, LaneConnection c, CommitObserver observer) {
        runsBound = Math.max(2, group.size());
        List<GroupWrite> pending = group;
        while (!pending.isEmpty()) {
            pending = run(pending, c, observer);
        }
    }

    /**
     * Runs one transaction over {@code group}.
     *
     * @return the requests to run again in a fresh transaction (empty when the group is done)
     */
    List<GroupWrite> run(List<GroupWrite> group, LaneConnection c, CommitObserver observer) {
        long transactionStart = clock.nanoTime();
        for (GroupWrite r : group) {
            // a replay runs in a smaller transaction than its turn
            r.stages.groupSize = group.size();
        }
        boolean inCork = cork.corked();
        if (!open(group, c, observer, inCork, transactionStart)) {
            return List.of();
        }
        boolean isolate = inCork || group.size() > 1;
        List<GroupWrite> ran = new ArrayList<>(group.size());
        for (int i = 0; i < group.size(); i++) {
            List<GroupWrite> again = runMember(group, ran, i, c, isolate);
            if (again != null) {
                return again;
            }
        }
        if (inCork) {
            // Applied, not committed: the cork's outer transaction holds it until uncork.
            telemetry.counters.add(WriterCounters.COMMITTED, ran.size());
            return List.of();
        }
        return commit(ran, c, observer, transactionStart);
    }

    /** Begins the group's transaction (or joins the cork's) and checks the disk floor. */
    private boolean open(List<GroupWrite> group, LaneConnection c, CommitObserver observer,
            boolean inCork, long transactionStart) {
        if (inCork && cork.outerOpen()) {
            return transaction.aboveFloor(c, group, false);
        }
        c.trackTables(observer.tracksTables());
        boolean begun = transaction.begin(c, group);
        long acquire = clock.nanoTime() - transactionStart;
        for (WriteRequest r : group) {
            r.stages.acquireNanos = acquire;
        }
        if (!begun) {
            return false;
        }
        if (inCork) {
            cork.outerOpened();
        }
        return transaction.aboveFloor(c, group, !inCork);
    }

    /**
     * Runs the request at {@code index}, isolated by the protocol ({@link
     * LaneTransaction#runMember}): a body that shares the transaction in its own savepoint.
     *
     * @return null to go on with the next request, or the requests to run again (possibly none)
     *     when the transaction is over
     */
    private List<GroupWrite> runMember(List<GroupWrite> group, List<GroupWrite> ran, int index,
            LaneConnection c, boolean isolate) {
        GroupWrite r = group.get(index);
        LaneTransaction.Isolated run = transaction.runMember(c, r,
                isolate && r instanceof BodyWrite, () -> c.run(r));
        Throwable failure = run.failure();
        switch (run.how()) {
            case DONE:
                r.stages.succeed(run.value());
                ran.add(r);
                return null;
            case UNDONE:
                r.stages.fail(transaction.failure(r, WriteOutcome.ROLLED_BACK, failure));
                return null;
            case ENDED:
                return transactionEnded(group, ran, index, c, failure, run.watch());
            case SAVEPOINT_FAILED:
                return abandon(group, ran, index, c, run.stepFailure(), "SAVEPOINT failed", null);
            case RELEASE_FAILED:
                return abandon(group, ran, index, c, run.stepFailure(), "RELEASE failed", null);
            case UNDO_FAILED:
                return abandon(group, ran, index, c, run.stepFailure(), "ROLLBACK TO failed",
                        failure);
            case FAILED_BARE:
            default:
                return failedBare(group, ran, index, c, failure);
        }
    }

    /** The request failed without a savepoint, and the transaction is still open. */
    private List<GroupWrite> failedBare(List<GroupWrite> group, List<GroupWrite> ran, int index,
            LaneConnection c, Throwable failure) {
        GroupWrite r = group.get(index);
        if (r instanceof StatementWrite && changedBeforeFailing((StatementWrite) r, failure)) {
            return failedAfterChanging(group, ran, index, c, failure);
        }
        if (r instanceof StatementWrite) {
            // SQLite already undid the failed statement; the transaction stays usable.
            r.stages.fail(transaction.failure(r, WriteOutcome.ROLLED_BACK, failure));
            return null;
        }
        // A lone body without a savepoint: its transaction is the group's.
        boolean clean = transaction.rollBack(c, "the rollback after a failed write could not be "
                + "verified: " + failure);
        r.stages.fail(transaction.failure(r,
                clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN, failure));
        return List.of();
    }

    /**
     * The transaction ended inside the request at {@code index}. Statements it ran after that
     * point autocommitted on their own, so if anything committed, its outcome is unknown.
     */
    private List<GroupWrite> transactionEnded(List<GroupWrite> group, List<GroupWrite> ran,
            int index, LaneConnection c, Throwable failure, LaneConnection.Watch watch) {
        Throwable cause = failure != null ? failure : new IllegalStateException("the body "
                + "returned normally although the transaction ended inside it (it swallowed an "
                + "error, or committed behind the lane's back)");
        if (watch.firstEndWasCommit()) {
            return committedInsideBody(group, ran, index, c, cause);
        }
        return groupEnded(group, ran, index, c, cause, watch.committed());
    }

    /**
     * Commits what ran through the protocol; a failed commit fails them all with its outcome,
     * except one proven not applied: then they run again.
     *
     * @return the requests to run again in a fresh transaction (empty when the group is done)
     */
    private List<GroupWrite> commit(List<GroupWrite> ran, LaneConnection c,
            CommitObserver observer, long transactionStart) {
        long commitStart = clock.nanoTime();
        LaneTransaction.CommitResult result = transaction.commit(c, "COMMIT",
                new LaneTransaction.Committed(ran.size(), transactionStart, observer));
        if (result.replayable()) {
            return replayNotApplied(ran, result);
        }
        if (!result.committed()) {
            WriteOutcome outcome = result.outcome();
            for (GroupWrite r : ran) {
                r.stages.fail(new WriteFailedException(outcome, name + ": " + result.what()
                        + (outcome == WriteOutcome.ROLLED_BACK ? "; the write was rolled back"
                        : "; whether the write persisted is unknown"), result.failure()));
            }
            return List.of();
        }
        long commitNanos = clock.nanoTime() - commitStart;
        for (GroupWrite r : ran) {
            r.stages.commitNanos = commitNanos;
        }
        return List.of();
    }

    /**
     * The group's {@code COMMIT} was proven not applied: nothing of it persisted and no request
     * is to blame, so every one that ran goes again in a fresh transaction, as after a group-ending
     * failure (replayable ones that ran once only); the others fail {@code ROLLED_BACK}.
     */
    private List<GroupWrite> replayNotApplied(List<GroupWrite> ran,
            LaneTransaction.CommitResult result) {
        List<GroupWrite> again = new ArrayList<>(ran.size());
        for (GroupWrite r : ran) {
            if (requeued(r, 2)) {
                again.add(r);
            } else {
                r.stages.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name
                        + ": the group's COMMIT did not apply ("
                        + result.failure().getMessage() + ")"
                        + (r.options.replayable() ? " and the write already ran twice"
                        : " and the write is not replayable") + "; it did not persist",
                        result.failure()));
            }
        }
        return again;
    }

    /** Readies {@code r} to run again when it may (replayable, run fewer than {@code bound}). */
    private boolean requeued(GroupWrite r, int bound) {
        if (!r.options.replayable() || r.stages.runs >= bound) {
            return false;
        }
        r.stages.reset();
        telemetry.counters.increment(WriterCounters.REPLAYS);
        return true;
    }

    /**
     * The request at {@code index} ended the transaction. Nothing of the group persisted except
     * what that request's own body autocommitted after the end ({@code partial}).
     */
    private List<GroupWrite> groupEnded(List<GroupWrite> group, List<GroupWrite> ran, int index,
            LaneConnection c, Throwable failure, boolean partial) {
        GroupWrite culprit = group.get(index);
        // Make sure the connection is outside any transaction before the group runs again.
        boolean clean = c.rollbackVerified();
        cork.lost(culprit.describe() + " ended the transaction: " + failure);
        culprit.stages.fail(transaction.failure(culprit, partial || !clean ? WriteOutcome.UNKNOWN
                : WriteOutcome.ROLLED_BACK, failure));
        if (!clean) {
            failAfterPoison(group, ran, index);
            transaction.poison("the transaction ended inside " + culprit.describe() + " and the "
                    + "connection's state could not be verified: " + failure);
            return List.of();
        }
        return replay(group, ran, index, culprit);
    }

    /**
     * The body at {@code index} committed the group's transaction behind the lane's back: what
     * ran before it is durable and is acknowledged, never replayed; the body's own outcome is
     * unknown; the requests after it run in a fresh transaction.
     */
    private List<GroupWrite> committedInsideBody(List<GroupWrite> group, List<GroupWrite> ran,
            int index, LaneConnection c, Throwable failure) {
        GroupWrite culprit = group.get(index);
        boolean clean = c.rollbackVerified();
        cork.committedUnderneath();
        culprit.stages.fail(transaction.failure(culprit, WriteOutcome.UNKNOWN, failure));
        telemetry.counters.add(WriterCounters.COMMITTED, ran.size());
        telemetry.counters.increment(WriterCounters.GROUPS);
        if (!clean) {
            failAfterPoison(group, List.of(), index);
            transaction.poison("a body committed the transaction and the connection's state "
                    + "could not be verified: " + failure);
            return List.of();
        }
        return new ArrayList<>(group.subList(index + 1, group.size()));
    }

    /**
     * Whether {@code r} failed after SQLite ran it to the end, so that its changes are still in
     * the group's transaction: its rows outgrew {@code maxResultBytes} (an {@code INSERT …
     * RETURNING} makes every change in its first step), or reading its generated key failed.
     * Any other failure is SQLite's own, and SQLite undid the statement.
     */
    private static boolean changedBeforeFailing(StatementWrite r, Throwable failure) {
        return r.returns() == Returns.ROWS
                        && failure instanceof dev.lanes.ResultTooLargeException
                || failure instanceof Statements.ChangedThenFailed;
    }

    /**
     * The statement at {@code index} changed rows and then failed: only rolling the group's
     * transaction back undoes it. It fails {@code ROLLED_BACK} (or {@code UNKNOWN} when the
     * rollback cannot be verified, which poisons the writer); the others run again.
     */
    private List<GroupWrite> failedAfterChanging(List<GroupWrite> group, List<GroupWrite> ran,
            int index, LaneConnection c, Throwable failure) {
        GroupWrite r = group.get(index);
        boolean clean = c.rollbackVerified();
        String step = "a statement failed after it changed rows";
        cork.lost(step + ": " + failure);
        return afterGroupRollback(group, ran, index, clean, transaction.failure(r,
                clean ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN, failure),
                step + " and the rollback could not be verified: " + failure);
    }

    /**
     * A savepoint step failed: give up the whole transaction. The culprit fails, the others run
     * again; if even the rollback cannot be verified, the writer is poisoned.
     */
    private List<GroupWrite> abandon(List<GroupWrite> group, List<GroupWrite> ran, int index,
            LaneConnection c, SQLException e, String step, Throwable bodyFailure) {
        GroupWrite culprit = group.get(index);
        boolean clean = c.rollbackVerified();
        cork.lost(step + ": " + e.getMessage());
        boolean bodyRan = culprit.stages.runs > 0 && !step.startsWith("SAVEPOINT");
        WriteFailedException failure = new WriteFailedException(!clean ? WriteOutcome.UNKNOWN
                : bodyRan ? WriteOutcome.ROLLED_BACK : WriteOutcome.NOT_STARTED, name + ": "
                + step + " for " + culprit.describe() + " (" + e.getMessage() + ")"
                + (bodyFailure != null ? " after the body failed: " + bodyFailure : ""),
                bodyFailure != null ? bodyFailure : e);
        if (bodyFailure != null) {
            failure.addSuppressed(e);
        }
        return afterGroupRollback(group, ran, index, clean, failure,
                step + " and the rollback could not be verified: " + e.getMessage());
    }

    /**
     * The group's transaction was rolled back because of the request at {@code index}, which
     * fails with {@code failure}; {@code clean} says whether the rollback was verified. The
     * others run again; after an unverified rollback they fail and the writer is poisoned.
     */
    private List<GroupWrite> afterGroupRollback(List<GroupWrite> group, List<GroupWrite> ran,
            int index, boolean clean, LanesException failure, String poisonCause) {
        GroupWrite culprit = group.get(index);
        culprit.stages.fail(failure);
        if (!clean) {
            failAfterPoison(group, ran, index);
            transaction.poison(poisonCause);
            return List.of();
        }
        return replay(group, ran, index, culprit);
    }

    /** The requests to run again after {@code culprit} ended the transaction, in order. */
    private List<GroupWrite> replay(List<GroupWrite> group, List<GroupWrite> ran, int index,
            GroupWrite culprit) {
        List<GroupWrite> again = new ArrayList<>(group.size() - 1);
        for (GroupWrite r : ran) {
            if (requeued(r, runsBound)) {
                again.add(r);
            } else {
                r.stages.fail(new WriteFailedException(WriteOutcome.ROLLED_BACK, name
                        + ": rolled back because " + culprit.describe() + " in the same group "
                        + "ended the shared transaction" + (r.options.replayable()
                        ? " (the write already ran " + r.stages.runs + " times, as many as its "
                        + "group had members)" : " (the write is not replayable)"),
                        culprit.stages.failure()));
            }
        }
        // Requests after the culprit, and ones that failed alone before it, keep their place:
        // a failed one stays failed, an untouched one runs for the first time.
        for (int j = index + 1; j < group.size(); j++) {
            GroupWrite r = group.get(j);
            if (!r.stages.recorded()) {
                again.add(r);
            }
        }
        return again;
    }

    /** After an unverifiable rollback: what ran is unknown, what did not run never started. */
    private void failAfterPoison(List<GroupWrite> group, List<GroupWrite> ran, int index) {
        for (GroupWrite r : ran) {
            r.stages.fail(new WriteFailedException(WriteOutcome.UNKNOWN, name + ": the group's "
                    + "rollback could not be verified; whether this write persisted is unknown",
                    null));
        }
        for (int j = index + 1; j < group.size(); j++) {
            LanesException never = new WriterPoisonedException(WriteOutcome.NOT_STARTED, name
                    + ": the writer was poisoned before this write ran; it never ran", null);
            group.get(j).stages.fail(never);
        }
    }
}
