package dev.lanes.history;

import dev.lanes.history.Op.Kind;
import dev.lanes.history.Op.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A history as lines of text, so that a child process can stream it to its parent as it goes:
 * {@code H I <id> <client> <kind> <invoke> <mops> ;} before an operation reaches Lanes and {@code
 * H C <id> <complete> <outcome> <mops> ;} once it ended. Micro-ops are {@code a:key:value} and
 * {@code r:key} or {@code r:key:v1/v2/…}, comma-separated ({@code -} for none). The closing
 * {@code ;} tells a whole line from one cut short by a kill.
 */
final class HistoryCodec {
    static final String PREFIX = "H ";

    private HistoryCodec() {}

    static String invoked(Op op) {
        return PREFIX + "I " + op.id() + " " + op.client() + " " + op.kind() + " " + op.invoke()
                + " " + mops(op.mops()) + " ;";
    }

    static String completed(Op op) {
        return PREFIX + "C " + op.id() + " " + op.complete() + " " + op.outcome() + " "
                + mops(op.mops()) + " ;";
    }

    private static String mops(List<Mop> mops) {
        if (mops.isEmpty()) {
            return "-";
        }
        StringBuilder s = new StringBuilder();
        for (Mop m : mops) {
            if (s.length() > 0) {
                s.append(',');
            }
            if (m instanceof Mop.Append a) {
                s.append("a:").append(a.key()).append(':').append(a.value());
            } else {
                Mop.Read r = (Mop.Read) m;
                s.append("r:").append(r.key());
                if (r.values() != null) {
                    s.append(':');
                    for (int i = 0; i < r.values().size(); i++) {
                        s.append(i > 0 ? "/" : "").append(r.values().get(i));
                    }
                }
            }
        }
        return s.toString();
    }

    private static List<Mop> parseMops(String text) {
        List<Mop> mops = new ArrayList<>();
        if (text.equals("-")) {
            return mops;
        }
        for (String m : text.split(",")) {
            String[] parts = m.split(":", -1);
            int key = Integer.parseInt(parts[1]);
            if (parts[0].equals("a")) {
                mops.add(Mop.append(key, Long.parseLong(parts[2])));
            } else if (parts.length == 2) {
                mops.add(Mop.pendingRead(key));
            } else {
                List<Long> values = new ArrayList<>();
                for (String v : parts[2].isEmpty() ? new String[0] : parts[2].split("/")) {
                    values.add(Long.parseLong(v));
                }
                mops.add(new Mop.Read(key, values));
            }
        }
        return mops;
    }

    /**
     * Rebuilds operations from lines in the order they were written. Operations never completed
     * are {@link Outcome#UNKNOWN} with {@link Op#NEVER}. Not thread-safe: one reader feeds it.
     */
    static final class Decoder {
        private final Map<Long, Op> ops = new LinkedHashMap<>();
        private long completions;
        private long ignored;

        /** Takes one line; returns the operation it invoked or completed, or null if not ours. */
        Op accept(String line) {
            if (!line.startsWith(PREFIX) || !line.endsWith(" ;")) {
                ignored++;
                return null; // a logger's line, or the last one cut short by the kill
            }
            String[] f = line.split(" ");
            long id = Long.parseLong(f[2]);
            if (f[1].equals("I")) {
                Op op = new Op(id, Integer.parseInt(f[3]), Kind.valueOf(f[4]), parseMops(f[6]),
                        Long.parseLong(f[5]), Op.NEVER, Outcome.UNKNOWN);
                ops.put(id, op);
                return op;
            }
            Op pending = ops.get(id);
            if (pending == null) {
                throw new IllegalStateException("completion of an operation never invoked: " + line);
            }
            Op done = pending.completedAs(Long.parseLong(f[3]), Outcome.valueOf(f[4]),
                    parseMops(f[5]));
            ops.put(id, done);
            completions++;
            return done;
        }

        List<Op> ops() {
            return List.copyOf(ops.values());
        }

        long completions() {
            return completions;
        }

        long ignored() {
            return ignored;
        }
    }
}
