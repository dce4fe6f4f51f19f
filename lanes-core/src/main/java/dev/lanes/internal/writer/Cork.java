package dev.lanes.internal.writer;

import dev.lanes.InvalidRequestException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.writer.LaneDecision.CorkPhase;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cork of one writer lane: while it holds, every write applies inside one outer transaction
 * (each write or group as a savepoint) and none is durable until uncork commits them as one.
 *
 * <h2>Phases</h2>
 * <pre>
 *   OFF ──cork() accepted──► REQUESTED ──its turn opened the outer transaction──► OPEN
 *    ▲                          │                                               │  ▲
 *    └──refused, or failed──────┘            a write ended the outer transaction ▼  │ the next
 *    └─────────────────uncork ran, or the lane closed─────────────────────── BROKEN ┘ write
 * </pre>
 * A lane is corked in {@code OPEN} and {@code BROKEN}: reads then run on the lane, to see the
 * corked writes, and maintenance is refused. In {@code BROKEN} the writes held so far are lost
 * ({@link #lostReason()} says why, and uncork reports it); the next write opens a new outer
 * transaction and the phase is {@code OPEN} again. An uncork may be requested once per cork
 * (see {@link LaneState#admitUncork}).
 *
 * <h2>Concurrency</h2>
 * The phase is {@link LaneState}'s, changed under its lock and read without it; this class runs
 * the cork's steps on the lane's holder, and {@link #lostReason} is touched only by the holder.
 */
final class Cork {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    private final String name;
    /** Where the phase lives. */
    private final LaneState state;
    private final LaneTransaction transaction;
    private final WriteTelemetry telemetry;
    // holder only
    private String lostReason;

    Cork(LaneTransaction transaction, WriteTelemetry telemetry, LaneState state) {
        this.name = transaction.name();
        this.transaction = transaction;
        this.telemetry = telemetry;
        this.state = state;
    }

    // ------------------------------------------------------------------ the cork's turns

    /** The cork's turn: opens the outer transaction that holds later writes until uncork. */
    void open(WriteRequest.Cork r, LaneConnection c, CommitObserver observer) {
        if (!transaction.begin(c, List.of(r))) {
            off();
            return;
        }
        c.trackTables(observer.tracksTables());
        outerOpened();
        r.stages.succeed(null);
    }

    /** The uncork's turn: commits everything held since cork as one transaction. */
    void commit(WriteRequest.Uncork r, LaneConnection c, CommitObserver observer) {
        try {
            if (!corked()) {
                r.stages.fail(new InvalidRequestException(WriteOutcome.NOT_STARTED, name
                        + ": not corked", null));
                return;
            }
            String lost = lostReason;
            if (lost != null) {
                abandon(r, c, lost);
                return;
            }
            if (outerOpen()) {
                LaneTransaction.CommitResult result = transaction.commit(c, "uncork's COMMIT",
                        new LaneTransaction.Committed(0, 0, observer));
                if (!result.committed()) {
                    WriteOutcome outcome = result.outcome();
                    r.stages.fail(new WriteFailedException(outcome, name + ": uncork's "
                            + result.what() + (outcome == WriteOutcome.ROLLED_BACK
                            ? "; none of the corked writes persisted" : "; whether the corked "
                            + "writes persisted is unknown"), result.failure()));
                    return;
                }
            }
            r.stages.succeed(null);
        } finally {
            off();
        }
    }

    /**
     * Uncork after the outer transaction was lost: the cork is one all-or-nothing request, so
     * the writes corked after the loss are rolled back too (verified), and the uncork fails
     * {@code ROLLED_BACK}: none of the corked writes persisted. When even that rollback cannot
     * be verified, the outcome is unknown and the writer is poisoned.
     */
    private void abandon(WriteRequest.Uncork r, LaneConnection c, String lost) {
        boolean clean = !outerOpen() || c.rollbackVerified();
        if (!clean) {
            transaction.poison("the rollback of a lost cork's later writes could not be "
                    + "verified");
        }
        r.stages.fail(new WriteFailedException(clean ? WriteOutcome.ROLLED_BACK
                : WriteOutcome.UNKNOWN, name + ": the corked transaction was lost (" + lost
                + "), so none of the writes corked since cork() persisted"
                + (clean ? "; the ones corked after the loss "
                + "were rolled back too" : "; whether the ones corked after the loss persisted "
                + "is unknown"), null));
    }

    /**
     * The lane closes while corked: {@code close} commits the held writes, {@code shutdownNow}
     * ({@code discard}) rolls them back; either way the cork ends.
     */
    void closeWhileCorked(LaneConnection c, boolean discard) {
        if (!outerOpen()) {
            off();
            return;
        }
        if (discard) {
            boolean clean = c.rollbackVerified();
            log.warn("{}: shut down while corked: the corked writes were rolled back{}", name,
                    clean ? "" : " (not verified; SQLite rolls back on close)");
        } else {
            LaneTransaction.CommitResult result = transaction.commit(c, "the COMMIT of a close "
                    + "while corked", LaneTransaction.Committed.UNCOUNTED);
            if (result.committed()) {
                log.info("{}: closed while corked: the corked writes were committed", name);
            } else {
                log.error("{}: closed while corked, and committing the corked writes failed ({}); "
                        + "{}", name, result.what(), result.outcome() == WriteOutcome.ROLLED_BACK
                        ? "they did not persist" : "whether they persisted is unknown",
                        result.failure());
            }
        }
        off();
    }

    /** Whether writes are held in the outer transaction (reads then run on the lane). */
    boolean corked() {
        return state.corked();
    }

    /** Whether the outer transaction is open now. Holder only. */
    boolean outerOpen() {
        return state.corkPhase() == CorkPhase.OPEN;
    }

    /** The outer transaction is open: the cork's turn began it, or a write after a break did. */
    void outerOpened() {
        boolean first = state.corkPhase() == CorkPhase.REQUESTED;
        state.cork(CorkPhase.OPEN);
        if (first) {
            lostReason = null;
        }
    }

    /**
     * The outer transaction ended under the cork: the writes it held are gone, and uncork will
     * say why. Holder only; nothing happens when no outer transaction is open.
     */
    void lost(String why) {
        if (outerOpen()) {
            state.cork(CorkPhase.BROKEN);
            lostReason = why;
            log.error("{}: the corked transaction was rolled back ({}); every write applied "
                    + "since cork() is lost, and uncork() will report it", name, why);
        }
    }

    /** A body committed the outer transaction behind the lane's back: the next write reopens. */
    void committedUnderneath() {
        if (outerOpen()) {
            state.cork(CorkPhase.BROKEN);
        }
    }

    /** Why corked writes were lost before uncork, if they were. Holder only. */
    String lostReason() {
        return lostReason;
    }

    /** The cork ended: uncork ran, its request failed, or the lane closed. */
    void off() {
        state.cork(CorkPhase.OFF);
        lostReason = null;
    }
}
