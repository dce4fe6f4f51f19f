package dev.lanes.internal.writer;

import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.util.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Model-checks the writer lane's run state and hand-off ({@link LaneState}) under every
 * interleaving Lincheck explores: callers that lead their own turn, callers that queue and wait
 * (and may be handed the lane), pool turns, and an idle release claiming the lane. The turns here
 * take their work and record it as done, without SQL; the pool is played by whichever operation
 * finds a submission pending. Every interleaving must keep one holder at a time, and leave no
 * admitted request stranded: at the end every one was taken by a turn.
 */
public class LaneHandOffLincheckTest {
    private final LaneState state = new LaneState(
            PartialLaneSetup.forTelemetry("db", Duration.ofSeconds(10), Clock.SYSTEM), null);
    private final AtomicInteger holders = new AtomicInteger();
    /** Submissions of the lane to the pool not yet run: the pool's queue. */
    private final AtomicInteger submitted = new AtomicInteger();
    private final AtomicInteger admitted = new AtomicInteger();
    private final AtomicInteger taken = new AtomicInteger();

    private static WriteRequest request() {
        return new WriteRequest.StatementWrite(StatementShape.of("INSERT INTO t VALUES (1)"),
                new Object[0], Returns.COUNT, 0);
    }

    /** An asynchronous write: leads its turn when the lane is idle, else queues. */
    @Operation
    public void writeAsync() {
        WriteRequest r = request();
        LaneDecision.Admitted a = state.admit(r, true, false);
        admitted.incrementAndGet();
        if (a == LaneDecision.Admitted.LEAD) {
            turn(r);
        } else if (a == LaneDecision.Admitted.SCHEDULE) {
            submitted.incrementAndGet();
        }
    }

    /**
     * A write whose platform caller waits: it may lead, or be handed the lane by the turn before
     * it; while it waits it also plays the pool, so that the model needs no other thread.
     */
    @Operation
    public void writeAndWait() {
        WriteRequest r = request();
        r.ticket.waitedForBy(Thread.currentThread());
        LaneDecision.Admitted a = state.admit(r, true, true);
        admitted.incrementAndGet();
        if (a == LaneDecision.Admitted.LEAD) {
            turn(r);
        } else if (a == LaneDecision.Admitted.SCHEDULE) {
            submitted.incrementAndGet();
        }
        while (!r.ticket.future.isDone()) {
            if (r.ticket.leadGranted) {
                r.ticket.leadGranted = false;
                turn(null);
            } else {
                poolTurn();
                Thread.yield();
            }
        }
    }

    /** A pool thread runs the lane once, if it was submitted. */
    @Operation
    public void poolTurn() {
        int s = submitted.get();
        if (s > 0 && submitted.compareAndSet(s, s - 1)) {
            state.started();
            turn(null);
        }
    }

    /** The idle release: runs only when the lane is idle, as a turn of its own. */
    @Operation
    public void idleRelease() {
        if (state.claimIfIdle()) {
            enter();
            exit();
            act(state.finishTurn());
        }
    }

    private void turn(WriteRequest first) {
        enter();
        LaneDecision.Taken t = state.takeTurn(first);
        for (WriteRequest r : t.group()) {
            r.stages.succeed(null);
        }
        taken.addAndGet(t.group().size());
        exit();
        act(state.finishTurn());
        for (WriteRequest r : t.group()) {
            r.deliver();
        }
    }

    private void act(LaneDecision.Next next) {
        if (next.schedule()) {
            submitted.incrementAndGet();
        } else if (next.handedTo() != null) {
            next.handedTo().ticket.wake.complete(null);
        }
    }

    private void enter() {
        if (holders.incrementAndGet() != 1) {
            throw new IllegalStateException("two threads hold the lane");
        }
    }

    private void exit() {
        holders.decrementAndGet();
    }

    /** At the end: the pool drains what was submitted, and nothing admitted is left behind. */
    @Validate
    public void nothingStranded() {
        while (submitted.get() > 0) {
            poolTurn();
        }
        if (taken.get() != admitted.get()) {
            throw new IllegalStateException(admitted.get() + " admitted, " + taken.get()
                    + " taken by a turn: a request was stranded");
        }
    }

    @Test
    @Tag("slow")
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void everyInterleavingKeepsOneHolderAndStrandsNoRequest() {
        new ModelCheckingOptions().iterations(5).invocationsPerIteration(100).threads(3)
                .actorsPerThread(2).check(LaneHandOffLincheckTest.class);
    }
}
