package dev.lanes.history;

import java.util.List;

/** How histories print in reports: short, with long lists elided in the middle. */
final class HistoryText {
    private HistoryText() {}

    /** A list, eliding all but its first two and last three elements when it is long. */
    static String list(List<Long> values) {
        if (values.size() <= 8) {
            return values.toString();
        }
        int n = values.size();
        return "[" + values.get(0) + ", " + values.get(1) + ", .." + (n - 5) + " more.., "
                + values.get(n - 3) + ", " + values.get(n - 2) + ", " + values.get(n - 1)
                + "] (" + n + ")";
    }

    /** Nanoseconds since {@code origin} as milliseconds, or "never". */
    static String time(long nanos, long origin) {
        if (nanos == Op.NEVER) {
            return "never";
        }
        return String.format("%+.3fms", (nanos - origin) / 1e6);
    }

    /** One line per operation: id, client, kind, interval, outcome and micro-ops. */
    static String op(Op op, long origin) {
        return "T" + op.id() + " [c" + op.client() + " " + op.kind() + " "
                + time(op.invoke(), origin) + " .. " + time(op.complete(), origin) + " "
                + op.outcome() + "] " + op.mops();
    }
}
