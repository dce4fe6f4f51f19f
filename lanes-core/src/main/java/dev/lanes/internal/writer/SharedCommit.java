package dev.lanes.internal.writer;

import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.writer.InteractiveTransaction.State;
import dev.lanes.internal.writer.WriteRequest.TransactionBegin;
import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Group commit for interactive transactions ({@code db.begin()}, and the data source's
 * transactions, which Spring's {@code @Transactional} and JPA run): while transactions arrive
 * faster than they commit, several of them share one SQLite transaction and one {@code COMMIT}.
 *
 * <ol>
 *   <li>The first runs as any interactive transaction does, under {@code BEGIN IMMEDIATE}.
 *   <li>When it commits while another transaction's begin waits at the head of the lane's queue,
 *       its {@code COMMIT} is deferred ({@link #defers}): its caller keeps waiting, and the lane
 *       moves on to that begin.
 *   <li>Each later member runs inside its own savepoint of the same SQLite transaction, on the
 *       lane as before; its commit releases the savepoint and, again, waits; its rollback undoes
 *       its savepoint only.
 *   <li>One {@code COMMIT} acknowledges them all ({@link #commit}): when a member commits with no
 *       begin waiting, when the group holds {@code maxGroupSize} members, when its oldest member
 *       has waited {@link #MAX_WAIT_NANOS}, or when any other work takes the lane.
 * </ol>
 *
 * <h2>Outcomes</h2>
 * No member is acknowledged before the shared {@code COMMIT} returned. If it fails, every member
 * gets its outcome: rolled back when the rollback was verified, else unknown. When a later
 * member's statement, or a failed undo of its savepoint, ends the shared transaction, the members
 * that waited run again ({@link #lost}, {@link StepLog}); one that cannot lost its work the same
 * way. A member that reads sees what was
 * committed plus the members released before it, which is serializable in the lane's order: each
 * member ran alone on the writer, after the members before it, and none of them is acknowledged
 * unless all of them are durable.
 *
 * <h2>Concurrency</h2>
 * Holder only: made by {@link LaneTurn} for the lane's first interactive transaction, used by
 * the thread that holds the lane, one turn at a time (the lane lock's hand-offs order one holder's writes before the next one's
 * reads). Whether members wait is mirrored in {@link LaneState#sharedCommit}, so that the lane is
 * scheduled, not left idle, while members wait for their {@code COMMIT}.
 */
final class SharedCommit {
    /**
     * How long the oldest member may wait for its {@code COMMIT} before no member joins the group:
     * the bound that keeps a member's latency close to what it was without grouping.
     */
    static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final String name;
    private final LaneState state;
    private final LaneTransaction transaction;
    private final int maxMembers;
    /** Takes the members' commit steps once their outcome is known, for delivery after the turn. */
    private final Consumer<WriteRequest> afterTurn;

    // holder only
    /** The commit steps of the members released into the open SQLite transaction. */
    private final List<TransactionStep> waiting = new ArrayList<>(4);
    /** When the first member's commit was deferred, on the lane's clock. */
    private long firstDeferredAt;
    /** When the first member began, for the group's commit latency. */
    private long startedAt;

    SharedCommit(String name, LaneState state, LaneTransaction transaction, int maxMembers,
            Consumer<WriteRequest> afterTurn) {
        this.name = name;
        this.state = state;
        this.transaction = transaction;
        this.maxMembers = maxMembers;
        this.afterTurn = afterTurn;
    }

    /** Whether members wait for the shared {@code COMMIT}: the SQLite transaction is open. */
    boolean open() {
        return !waiting.isEmpty();
    }

    /** Whether {@code r}'s delivery waits for the shared {@code COMMIT}. */
    boolean holds(WriteRequest r) {
        return !waiting.isEmpty() && waiting.contains(r);
    }

    /**
     * Whether the open group lets {@code head} run inside it: a step of the member pinned now, or
     * a begin while the group has room and its oldest member has not waited too long. Anything
     * else (a write, maintenance, the cork, a close, an empty turn) commits the group first.
     */
    boolean admits(WriteRequest head, InteractiveTransaction pinned, long now) {
        if (head instanceof TransactionStep) {
            return pinned != null && ((TransactionStep) head).tx == pinned;
        }
        return head instanceof TransactionBegin && hasRoom(now);
    }

    /**
     * Whether the commit of a member should wait for the transactions behind it: another begin
     * waits at the head of the queue, and the group would still have room and time.
     */
    boolean defers(long now) {
        return maxMembers > 1 && (waiting.isEmpty() || hasRoom(now)) && state.beginWaits();
    }

    private boolean hasRoom(long now) {
        return waiting.size() + 1 < maxMembers && now - firstDeferredAt < MAX_WAIT_NANOS;
    }

    /** The member {@code tx}, released, waits for the shared {@code COMMIT} with {@code commit}. */
    void defer(InteractiveTransaction tx, TransactionStep commit, long now) {
        if (waiting.isEmpty()) {
            firstDeferredAt = now;
            startedAt = tx.openedAtNanos;
            state.sharedCommit(true, null, null, null);
        }
        waiting.add(commit);
    }

    /**
     * {@code COMMIT}s the shared transaction for the waiting members and {@code alsoCommitting}
     * more (the member whose commit runs now, which its caller settles), and settles the waiting
     * members with its outcome.
     */
    LaneTransaction.CommitResult commit(WriterConnection c, int alsoCommitting,
            CommitObserver observer) {
        int members = waiting.size() + alsoCommitting;
        LaneTransaction.CommitResult result = transaction.commit(c, "the shared COMMIT of "
                + members + " interactive transactions",
                new LaneTransaction.Committed(members, startedAt, observer));
        if (result.committed()) {
            settle(State.COMMITTED, null, "committed");
        } else {
            boolean clean = result.outcome() == WriteOutcome.ROLLED_BACK;
            settle(clean ? State.ROLLED_BACK : State.UNKNOWN, result.failure(), "the shared "
                    + result.what() + (clean ? "; the transaction was rolled back"
                    : "; whether it persisted is unknown"));
        }
        return result;
    }

    /**
     * The shared transaction ended before its {@code COMMIT}; {@code reason} says what ended it.
     * When the rollback was verified ({@code outcome} {@code ROLLED_BACK}) and {@code c} is
     * given, the waiting members run again in a fresh transaction ({@link #replay}); those that
     * cannot end rolled back, or unknown when the rollback was not verified.
     */
    void lost(WriteOutcome outcome, String reason, WriterConnection c) {
        if (waiting.isEmpty()) {
            return;
        }
        State end = outcome == WriteOutcome.ROLLED_BACK ? State.ROLLED_BACK : State.UNKNOWN;
        List<TransactionStep> failed = end == State.ROLLED_BACK && c != null ? replay(c) : null;
        if (failed == null) { // not run again, or its own rollback could not be verified
            failed = new ArrayList<>(waiting);
            end = end == State.ROLLED_BACK && c != null ? State.UNKNOWN : end;
        }
        waiting.removeAll(failed);
        settle(failed, end, new IllegalStateException(reason), reason);
    }

    /**
     * Runs every waiting member again, in order, each in its own savepoint of a fresh {@code
     * BEGIN IMMEDIATE}, from its {@link StepLog}: a member stays only if every step gives what it
     * gave its caller the first time, so that its caller cannot tell the runs apart. The members
     * before it ran first both times, and the state they started from is the same: what was
     * committed before the shared transaction.
     *
     * @return the members that could not run again, which lost their work; null when a rollback
     *     of the run again could not be verified (the writer is then poisoned)
     */
    private List<TransactionStep> replay(WriterConnection c) {
        String unverified = "the rollback of a shared transaction run again could not be verified";
        try {
            c.beginImmediate();
        } catch (SQLException | BusyTimeout e) {
            return transaction.rollBack(c, unverified) ? new ArrayList<>(waiting) : null;
        }
        List<TransactionStep> failed = new ArrayList<>();
        for (TransactionStep member : waiting) {
            Boolean same = replayed(member.tx.log, c);
            if (same == null) { // the run again ended the transaction: nothing of it stays
                return transaction.rollBack(c, unverified) ? new ArrayList<>(waiting) : null;
            }
            if (!same) {
                failed.add(member);
            }
        }
        if (failed.size() == waiting.size() && !transaction.rollBack(c, unverified)) {
            return null; // nothing was left in it
        }
        return failed;
    }

    /**
     * Runs one member's logged steps again inside its own savepoint: whether it gave the same
     * (and stays), or not (its savepoint is undone); null when the transaction ended.
     */
    private Boolean replayed(StepLog log, WriterConnection c) {
        if (!log.replayable()) {
            return false;
        }
        try {
            c.beginNested();
        } catch (SQLException e) {
            return null;
        }
        boolean same = true;
        for (int i = 0; i < log.size() && same; i++) {
            TransactionStep step = log.step(i);
            LaneTransaction.Isolated run = transaction.runMember(c, step,
                    PinnedTransaction.mayFailAfterChanging(step),
                    () -> PinnedTransaction.run(step, c));
            switch (run.how()) {
                case DONE:
                    same = Objects.equals(run.value(), log.result(i));
                    break;
                case FAILED_BARE:
                case UNDONE:
                    same = log.result(i) == StepLog.FAILED
                            && !(run.failure() instanceof Statements.ChangedThenFailed);
                    break;
                default:
                    return null;
            }
        }
        try {
            if (same) {
                c.releaseNested();
            } else {
                c.rollBackNested();
            }
            return same;
        } catch (SQLException e) {
            return null;
        }
    }

    private void settle(State end, Throwable failure, String reason) {
        List<TransactionStep> all = new ArrayList<>(waiting);
        waiting.clear();
        settle(all, end, failure, reason);
    }

    private void settle(List<TransactionStep> steps, State end, Throwable failure,
            String reason) {
        if (steps.isEmpty()) {
            return;
        }
        List<InteractiveTransaction> members = new ArrayList<>(steps.size());
        steps.forEach(step -> members.add(step.tx));
        state.sharedCommit(!waiting.isEmpty(), members, end, reason);
        for (TransactionStep step : steps) {
            if (end == State.COMMITTED) {
                step.stages.succeed(null);
            } else {
                step.stages.fail(new WriteFailedException(end == State.ROLLED_BACK
                        ? WriteOutcome.ROLLED_BACK : WriteOutcome.UNKNOWN,
                        name + ": " + reason, failure));
            }
            afterTurn.accept(step);
        }
    }
}
