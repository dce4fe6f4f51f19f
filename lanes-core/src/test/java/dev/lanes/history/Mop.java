package dev.lanes.history;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One micro-operation of a list-append transaction: append a unique value to a key's list, or
 * read a key's whole list. Values are unique across a history, so every observed element names
 * the one append that wrote it.
 */
sealed interface Mop permits Mop.Append, Mop.Read {

    /** The key (list) this micro-operation touches. */
    int key();

    /** Appends {@code value} to the list of {@code key}. */
    record Append(int key, long value) implements Mop {
        @Override
        public String toString() {
            return "a(" + key + "," + value + ")";
        }
    }

    /**
     * Reads the list of {@code key}. {@code values} is what the read returned, in list order, or
     * null while it is not known (the operation did not complete, or failed).
     */
    record Read(int key, List<Long> values) implements Mop {
        public Read {
            values = values == null ? null : List.copyOf(values);
        }

        /** The same read with its result. */
        Read withValues(List<Long> observed) {
            return new Read(key, Objects.requireNonNull(observed, "observed"));
        }

        @Override
        public String toString() {
            return "r(" + key + ")=" + (values == null ? "?" : HistoryText.list(values));
        }
    }

    static Append append(int key, long value) {
        return new Append(key, value);
    }

    /** A read with its observed list. */
    static Read read(int key, long... values) {
        return new Read(key, Arrays.stream(values).boxed().toList());
    }

    /** A read whose result is not known (yet). */
    static Read pendingRead(int key) {
        return new Read(key, null);
    }
}
