package dev.lanes.internal.jdbc;

import dev.lanes.internal.types.Parameters;
import java.util.Arrays;

/**
 * The parameters set on a {@link JdbcPreparedStatement}, by position; as many as the highest
 * position set, those never set {@link Parameters#UNSET} (which an execution refuses: a parameter
 * never set is no NULL). The array grows by half its length at a time (to the
 * position set, when that is further), so setting n parameters one by one copies fewer than 3n
 * values in all, not n<sup>2</sup>/2. Not thread-safe, as its statement.
 */
final class ParameterSlots {
    private Object[] values = JdbcStatement.NO_ARGS;
    /** The highest position set: how many parameters there are. */
    private int count;

    /** Keeps {@code value} for parameter {@code position} (1 or more, checked already). */
    void set(int position, Object value) {
        if (position > values.length) {
            int held = values.length;
            int grown = held + (held >> 1) + 1;
            values = Arrays.copyOf(values, Math.max(position, grown));
            Arrays.fill(values, held, values.length, Parameters.UNSET);
        }
        values[position - 1] = value;
        count = Math.max(count, position);
    }

    /**
     * The parameters, one per position up to the highest set: the array kept, trimmed to that
     * length first, to be handed to an execution that has finished with it when it returns.
     */
    Object[] values() {
        if (values.length != count) {
            values = Arrays.copyOf(values, count);
        }
        return values;
    }

    /** A copy of {@link #values()}, to keep (a batch's). */
    Object[] copy() {
        return Arrays.copyOf(values, count);
    }

    /** Forgets every parameter. */
    void clear() {
        values = JdbcStatement.NO_ARGS;
        count = 0;
    }

    /** How many values the array holds room for now. */
    int capacity() {
        return values.length;
    }
}
