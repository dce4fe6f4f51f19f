package dev.lanes.internal.writer;

import dev.lanes.internal.util.Timer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Ends a body's wait for a write it queued to its own lane when that wait does not go through
 * the write's own future, which {@link OwnLaneFuture} refuses at once: {@code
 * CompletableFuture.allOf(f).join()}, {@code anyOf}, a latch counted down by {@code
 * f.whenComplete}. Such a write runs only after the body's turn ends, so the body would wait
 * forever. While a turn has writes its holder queued to its own lane, the timer looks at the
 * holder's thread every {@link #LOOK_NANOS}; once that thread was parked on a {@code
 * java.util.concurrent} synchronizer ({@code WAITING} or {@code TIMED_WAITING} with a {@linkplain
 * LockSupport#getBlocker blocker}: a future, a latch, a lock) at every look for {@link
 * #PARKED_NANOS}, the lane withdraws those writes still queued: they never run, and fail {@code
 * NOT_STARTED} ({@link LaneRefusals#joinedInItsOwnBody}), so that every future derived from them
 * completes and the body goes on. A body that stays parked that long on such a synchronizer for
 * another reason loses them the same way: a body does not block while writes it queued to its
 * own database wait. A sleep ({@code Thread.sleep}, no blocker) is not taken for such a wait.
 *
 * <h2>Concurrency</h2>
 * {@link #queued} and {@link #turnEnded} run on the lane's holder, one turn at a time (the lane
 * lock's hand-offs order one holder's calls before the next one's), and alone touch {@link
 * #current}. A {@link Sentry}'s pending writes are a concurrent queue, added to by the holder and
 * drained by the timer; its look's fields are the timer thread's alone. Whether a write is still
 * queued, in the turn that queued it, is decided by the lane under its lock ({@link
 * LaneState#withdraw}): a write withdrawn here never runs, and one a turn took is never withdrawn.
 */
final class OwnLaneWatch {
    /** How long the holder stays parked before the writes it queued are withdrawn. */
    static final long PARKED_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** How often the timer looks at the holder meanwhile. */
    static final long LOOK_NANOS = PARKED_NANOS / 5;

    private final LaneSetup setup;
    /** The lane's withdrawal of a write queued by a parked body; on the timer. */
    private final Consumer<WriteRequest> withdraw;
    /** The watch of the current turn; null while it queued nothing to its own lane. */
    private Sentry current;

    OwnLaneWatch(LaneSetup setup, Consumer<WriteRequest> withdraw) {
        this.setup = setup;
        this.withdraw = withdraw;
    }

    /** The holder queued {@code r} from inside a body; watched until the turn ends. */
    void queued(WriteRequest r) {
        Sentry s = current;
        if (s == null) {
            s = new Sentry(Thread.currentThread());
            current = s;
            s.arm();
        }
        s.pending.add(r);
    }

    /** The turn ended: what it queued runs from now on, and is no longer watched. */
    void turnEnded() {
        Sentry s = current;
        if (s != null) {
            current = null;
            s.cancel();
        }
    }

    /** The watch of one turn: its holder, and the writes it queued that may still be queued. */
    private final class Sentry {
        private final Thread holder;
        private final ConcurrentLinkedQueue<WriteRequest> pending = new ConcurrentLinkedQueue<>();
        private volatile Timer.Scheduled looks;
        // the timer's
        private long parkedSince = -1;

        Sentry(Thread holder) {
            this.holder = holder;
        }

        void arm() {
            try {
                looks = setup.timer().scheduleWithFixedDelay(this::look, LOOK_NANOS);
            } catch (RejectedExecutionException e) {
                // the runtime is shutting down: its close ends the queued writes
            }
        }

        void cancel() {
            Timer.Scheduled l = looks;
            if (l != null) {
                l.cancel();
            }
        }

        /** On the timer: withdraws the pending writes once the holder stayed parked. */
        private void look() {
            Thread.State s = holder.getState();
            long now = setup.clock().nanoTime();
            boolean parked = (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING)
                    && LockSupport.getBlocker(holder) != null;
            if (!parked) {
                parkedSince = -1;
            } else if (parkedSince < 0) {
                parkedSince = now;
            } else if (now - parkedSince >= PARKED_NANOS) {
                for (WriteRequest r = pending.poll(); r != null; r = pending.poll()) {
                    withdraw.accept(r);
                }
            }
        }
    }
}
