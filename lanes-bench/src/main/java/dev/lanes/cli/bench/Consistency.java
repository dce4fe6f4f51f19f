package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A check, after a run, that the database holds exactly what the run was told succeeded: the
 * rows of the acknowledged inserts, the counter's increments. A bench that loses an acknowledged
 * write, or keeps a failed one, must say so whatever its speed.
 *
 * @param subject what was compared, e.g. {@code "rows in bench"}
 * @param acknowledged what the run was told succeeded, warm-up included
 * @param found what the database holds
 */
record Consistency(String subject, long acknowledged, long found) {

    /** Whether the database holds exactly what was acknowledged. */
    @JsonProperty
    boolean holds() {
        return acknowledged == found;
    }
}
