package dev.lanes.cli.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One ratio of a {@link Comparison} over the repetitions of its configuration: the ratio of every
 * repetition pair (repetition i of Lanes against repetition i of the baseline), and their median,
 * minimum and maximum. A repetition whose ratio is undefined (a divisor of zero) is {@code null}
 * in {@code perRepetition} and left out of the median, minimum and maximum; those are {@code
 * null} when no repetition has a ratio. Made by {@link Repetitions#spread}.
 *
 * @param median the median of the defined ratios: the middle one, or the mean of the two middle
 *     ones when their number is even
 * @param perRepetition the ratio of each repetition pair, in repetition order
 */
record Spread(Double median, Double min, Double max, List<Double> perRepetition) {

    Spread {
        // not List.copyOf: an undefined ratio is a null element, kept in its repetition's place
        perRepetition = Collections.unmodifiableList(new ArrayList<>(perRepetition));
    }

    /** How many repetitions have no ratio. */
    int undefined() {
        return (int) perRepetition.stream().filter(r -> r == null).count();
    }
}
