package dev.lanes.internal.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.internal.scheduler.SerialTask.State;
import org.junit.jupiter.api.Test;

/**
 * The run state of a serial queue ({@link SerialTask}): every transition its diagram allows, and
 * the ones it refuses, which are defects of the owner and throw without changing the state.
 */
class SerialTaskTest {
    private final Thread other = new Thread(() -> {}, "next-holder");

    private static SerialTask in(State state) {
        SerialTask t = new SerialTask();
        if (state == State.SCHEDULED) {
            assertThat(t.schedule()).isTrue();
        } else if (state == State.RUNNING) {
            assertThat(t.claim()).isTrue();
        }
        assertThat(t.state()).isEqualTo(state);
        return t;
    }

    private static void refused(SerialTask t, Runnable call, String transition) {
        State before = t.state();
        Thread holder = t.holder();
        assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class)
                .hasMessage("serial task: " + transition);
        assertThat(t.state()).as("unchanged").isEqualTo(before);
        assertThat(t.holder()).isSameAs(holder);
    }

    // ------------------------------------------------------------------ from IDLE

    @Test
    void anIdleTaskGivenWorkIsScheduledOnceAndItsSchedulerMustSubmitIt() {
        SerialTask t = in(State.IDLE);
        assertThat(t.isIdle()).isTrue();
        assertThat(t.holder()).isNull();
        assertThat(t.schedule()).as("the caller submits it").isTrue();
        assertThat(t.state()).isEqualTo(State.SCHEDULED);
        assertThat(t.holder()).isNull();
        assertThat(t.schedule()).as("scheduled already: nobody submits it again").isFalse();
    }

    @Test
    void anIdleTaskIsClaimedByTheCallingThreadWhichThenHoldsIt() {
        SerialTask t = in(State.IDLE);
        assertThat(t.claim()).isTrue();
        assertThat(t.state()).isEqualTo(State.RUNNING);
        assertThat(t.holder()).isSameAs(Thread.currentThread());
        assertThat(t.heldByCurrentThread()).isTrue();
    }

    @Test
    void anIdleTaskCannotFinishATurnNobodyRan() {
        SerialTask t = in(State.IDLE);
        refused(t, () -> t.finish(false), "IDLE -> IDLE");
    }

    // ------------------------------------------------------------------ from SCHEDULED

    @Test
    void aScheduledTaskIsStartedByThePoolThreadAndCannotBeClaimed() {
        SerialTask t = in(State.SCHEDULED);
        assertThat(t.claim()).as("a pool thread will run it").isFalse();
        assertThat(t.state()).isEqualTo(State.SCHEDULED);
        t.started();
        assertThat(t.state()).isEqualTo(State.RUNNING);
        assertThat(t.heldByCurrentThread()).isTrue();
    }

    @Test
    void aScheduledTaskCannotFinishOrBeScheduledAgainByFinishing() {
        SerialTask t = in(State.SCHEDULED);
        refused(t, () -> t.finish(false), "SCHEDULED -> IDLE");
        refused(t, () -> t.finish(true), "SCHEDULED -> SCHEDULED");
    }

    // ------------------------------------------------------------------ from RUNNING

    @Test
    void aFinishedTurnGoesIdleWithoutWorkAndBackToThePoolWithIt() {
        SerialTask idle = in(State.RUNNING);
        assertThat(idle.finish(false)).as("nothing to submit").isFalse();
        assertThat(idle.state()).isEqualTo(State.IDLE);
        assertThat(idle.holder()).isNull();

        SerialTask more = in(State.RUNNING);
        assertThat(more.finish(true)).as("the finisher submits it").isTrue();
        assertThat(more.state()).isEqualTo(State.SCHEDULED);
        assertThat(more.holder()).isNull();
        assertThat(more.heldByCurrentThread()).isFalse();
    }

    @Test
    void aRunningTaskIsHandedToTheThreadThatRunsItsNextTurn() {
        SerialTask t = in(State.RUNNING);
        t.handTo(other);
        assertThat(t.state()).isEqualTo(State.RUNNING);
        assertThat(t.holder()).isSameAs(other);
        assertThat(t.heldByCurrentThread()).isFalse();
        refused(t, () -> t.handTo(null), "RUNNING -> RUNNING");
    }

    @Test
    void aRunningTaskIsNeitherScheduledNorClaimedByAnotherCaller() {
        SerialTask t = in(State.RUNNING);
        assertThat(t.schedule()).as("the holder finds the work itself").isFalse();
        assertThat(t.claim()).isFalse();
        assertThat(t.state()).isEqualTo(State.RUNNING);
        assertThat(t.holder()).isSameAs(Thread.currentThread());
        assertThat(t.toString()).contains("RUNNING").contains(Thread.currentThread().getName());
    }
}
