package dev.lanes.internal.scheduler;

/**
 * The run state of one serial queue of work on the shared {@link WorkerPool}: a writer lane, a
 * checkpointer. At most one thread runs its turns at a time, and it is in the pool's queues at
 * most once, because only the party that moves it out of {@link State#IDLE} submits it.
 *
 * <pre>
 *   IDLE ──schedule()──► SCHEDULED ──started()──► RUNNING ──finish(false)──► IDLE
 *    │                                             ▲  │ ──finish(true)───► SCHEDULED
 *    └────────────────────claim()─────────────────┘  └──handTo(t)──────► RUNNING (held by t)
 * </pre>
 *
 * <p>{@link #claim()} is the leader path: a caller that finds the task idle runs the turn on its
 * own thread instead of waking a pool thread (a hop costs ~60 µs here, a one-row commit ~8 µs).
 * {@link #handTo(Thread)} gives a running task to the thread that will run its next turn without
 * passing through the pool (a blocked caller that must be woken anyway).
 *
 * <h2>Concurrency</h2>
 * Not thread-safe on purpose: the state must change atomically with the owner's own queue, so
 * every method is called under the owner's lock, which is what orders one holder's writes
 * before the next holder's reads. Every change goes through {@link #to}, one switch over the
 * legal transitions; an illegal one is a defect and throws {@link IllegalStateException}.
 */
public final class SerialTask {
    /** Where the task is. */
    public enum State {
        /** Nobody holds it and nothing is scheduled. */
        IDLE,
        /** Submitted to the pool exactly once; a pool thread will run it. */
        SCHEDULED,
        /** Exactly one thread, the {@linkplain #holder() holder}, runs a turn. */
        RUNNING
    }

    // guarded by the owner's lock
    private State state = State.IDLE;
    private Thread holder;
    /** The turns begun so far: each move into {@code RUNNING} begins one. */
    private long turns;

    /**
     * An idle task that was given work becomes scheduled; one running or already scheduled will
     * find the work itself.
     *
     * @return whether the caller must submit the task to the pool, once the lock is released
     */
    public boolean schedule() {
        if (state != State.IDLE) {
            return false;
        }
        to(State.SCHEDULED, null);
        return true;
    }

    /**
     * Takes an idle task to run a turn on the calling thread.
     *
     * @return whether the caller holds it now
     */
    public boolean claim() {
        if (state != State.IDLE) {
            return false;
        }
        to(State.RUNNING, Thread.currentThread());
        return true;
    }

    /** A pool thread starts the turn of a scheduled task. */
    public void started() {
        to(State.RUNNING, Thread.currentThread());
    }

    /**
     * Ends the running turn.
     *
     * @param moreWork whether work waits for another turn
     * @return whether the caller must submit the task to the pool, once the lock is released
     */
    public boolean finish(boolean moreWork) {
        to(moreWork ? State.SCHEDULED : State.IDLE, null);
        return moreWork;
    }

    /** Ends the running turn by handing the task to {@code next}, which runs the next turn. */
    public void handTo(Thread next) {
        to(State.RUNNING, next);
    }

    public State state() {
        return state;
    }

    public boolean isIdle() {
        return state == State.IDLE;
    }

    /** The thread running a turn, or null. */
    public Thread holder() {
        return holder;
    }

    /** The current turn's number (the last one begun, 0 before the first). */
    public long turn() {
        return turns;
    }

    /** Whether turn {@code turn} runs still. */
    public boolean running(long turn) {
        return state == State.RUNNING && turns == turn;
    }

    /** Whether the calling thread runs the current turn. */
    public boolean heldByCurrentThread() {
        return holder == Thread.currentThread();
    }

    private void to(State next, Thread nextHolder) {
        boolean legal;
        switch (next) {
            case SCHEDULED:
                legal = state == State.IDLE || state == State.RUNNING;
                break;
            case RUNNING:
                legal = state == State.IDLE || state == State.SCHEDULED
                        || (state == State.RUNNING && nextHolder != null);
                break;
            case IDLE:
            default:
                legal = state == State.RUNNING;
                break;
        }
        if (!legal) {
            throw new IllegalStateException("serial task: " + state + " -> " + next);
        }
        if (next == State.RUNNING) {
            turns++;
        }
        state = next;
        holder = nextHolder;
    }

    @Override
    public String toString() {
        return "SerialTask[" + state + (holder == null ? "" : ", " + holder.getName()) + "]";
    }
}
