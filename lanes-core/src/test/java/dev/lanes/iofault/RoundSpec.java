package dev.lanes.iofault;

import dev.lanes.Synchronous;
import java.util.List;

/**
 * One round: a fresh child at a {@code synchronous} level, the failure points switched on once it
 * is warm, and how the round {@linkplain Ending ends}.
 *
 * @param name a short name for the log and for the round's directory
 * @param level the {@code synchronous} level the child opens the database with
 * @param faults the failure points switched on after warm-up
 * @param ending how the round ends
 */
record RoundSpec(String name, Synchronous level, List<Libfiu.Fault> faults, Ending ending) {
    /** How a round ends. */
    enum Ending {
        /** SIGKILL while the faults are on and the workload runs: requests are in flight. */
        KILL,
        /**
         * The workload stops (every thread finishes its request), then SIGKILL while the faults
         * are still on: nothing is in flight, and the last failed commit's frames are still in
         * the WAL, not overwritten by a later transaction, when recovery reads it.
         */
        KILL_WHEN_QUIET,
        /** The faults are switched off, the workload runs on a little, and the child closes. */
        CLOSE;

        boolean kills() {
            return this != CLOSE;
        }

        String label() {
            return this == KILL ? "kill" : this == KILL_WHEN_QUIET ? "quiet" : "close";
        }
    }

    String describeFaults() {
        StringBuilder b = new StringBuilder();
        for (Libfiu.Fault f : faults) {
            b.append(b.length() == 0 ? "" : ", ").append(f);
        }
        return b.toString();
    }
}
