package dev.lanes.iofault;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Holds what every caller of one round was told (the child's {@link OutcomeChannel} lines) against
 * what the file holds afterwards ({@link FileState}), and lists every broken promise:
 *
 * <ul>
 *   <li>an acknowledged request is there, whole;
 *   <li>no request is there in part (each row names its request and how many rows it has);
 *   <li>a {@code ROLLED_BACK} or {@code NOT_STARTED} request is not there; an {@code UNKNOWN} one
 *       may be either (counted);
 *   <li>a cork section's writes follow its {@code uncork()}: committed, they are there; no uncork
 *       begun (a kill while corked), none is; and the writes an uncork lost come before the ones
 *       it kept, never after (an uncork that failed {@code ROLLED_BACK} yet kept the writes
 *       corked after a loss is a known defect, counted in the table: see {@link
 *       UncorkAfterLostCorkTest});
 *   <li>{@code UNKNOWN} poisons the writer at once, and nothing is acknowledged once a caller has
 *       seen it poisoned or seen {@code UNKNOWN} (by the child's shared call counter);
 *   <li>callers see only {@link dev.lanes.LanesException}s, and a {@code
 *       WriterPoisonedException} is {@code NOT_STARTED};
 *   <li>nothing fails before the faults are on; once they are off, writes are acknowledged again
 *       (reopening a poisoned database, as the child does, recovers it) and the child closes
 *       cleanly; the file passes {@code integrity_check}, and Lanes can open it and commit to it
 *       again.
 * </ul>
 */
final class Ledger {
    private static final String UNKNOWN = "UNKNOWN";

    private Ledger() {}

    /** One line of the channel: its type ({@code R}, {@code S}, {@code E}) and its fields. */
    record Line(String type, Map<String, String> fields, String text) {
        static Line parse(String text) {
            String[] tokens = text.trim().split(" ");
            Map<String, String> fields = new LinkedHashMap<>();
            for (int i = 1; i < tokens.length; i++) {
                int eq = tokens[i].indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("not key=value: " + tokens[i]);
                }
                fields.put(tokens[i].substring(0, eq), tokens[i].substring(eq + 1));
            }
            if (!List.of("R", "S", "E").contains(tokens[0])) {
                throw new IllegalArgumentException("unknown line type " + tokens[0]);
            }
            return new Line(tokens[0], fields, text);
        }

        String get(String key) {
            String v = fields.get(key);
            if (v == null) {
                throw new IllegalArgumentException("no " + key + " in: " + text);
            }
            return v;
        }

        String opt(String key) {
            return fields.getOrDefault(key, "");
        }

        long num(String key) {
            return Long.parseLong(get(key));
        }

        boolean ok() {
            return "ok".equals(opt("result"));
        }

        boolean failed() {
            return "fail".equals(opt("result"));
        }

        String outcome() {
            return opt("outcome");
        }

        /** Whether the caller may not know if it persisted: UNKNOWN, or its close() was. */
        boolean unknown() {
            return UNKNOWN.equals(outcome()) || UNKNOWN.equals(opt("close"))
                    || "alien".equals(opt("close"));
        }
    }

    /** What the file must show of one request. */
    enum Expect { PRESENT, ABSENT, EITHER }

    /** How a round ended, as the test saw it: killed by it, and the child's exit value. */
    record ChildEnd(boolean killed, int exitValue) {}

    static RoundReport judge(RoundSpec spec, List<String> text, FileState file, ChildEnd end) {
        List<String> violations = new ArrayList<>();
        Map<Long, Line> requests = new TreeMap<>();
        Map<Long, Map<String, Line>> sections = new TreeMap<>();
        Map<String, Line> events = new HashMap<>();
        List<Line> reopenFailures = new ArrayList<>();
        RoundReport.Counts n = new RoundReport.Counts();
        for (String t : text) {
            Line line;
            try {
                line = Line.parse(t);
            } catch (RuntimeException e) {
                violations.add("harness: malformed channel line '" + t + "': " + e.getMessage());
                continue;
            }
            switch (line.type()) {
                case "R":
                    requests.put(line.num("id"), line);
                    break;
                case "S":
                    sections.computeIfAbsent(line.num("sec"), k -> new HashMap<>())
                            .put(line.get("event"), line);
                    break;
                default:
                    events.putIfAbsent(line.get("event"), line);
                    if (line.get("event").equals("reopen-failed")) {
                        reopenFailures.add(line);
                    }
                    if ("alien".equals(line.opt("result"))) {
                        n.aliens++;
                        violations.add("a caller got a non-LanesException: " + line.text());
                    }
                    break;
            }
        }
        if (events.containsKey("overflow")) {
            violations.add("harness: the outcome channel overflowed");
        }
        if (events.containsKey("poisoned")) {
            n.poisonCause = events.get("poisoned").opt("cause");
        }
        n.reopenFailures = reopenFailures.size();
        if (!reopenFailures.isEmpty()) {
            n.reopenFailure = reopenFailures.get(0).text();
        }
        if (end.killed()) {
            if (end.exitValue() == 0) {
                violations.add("harness: the child exited 0 although it was to be killed");
            }
        } else {
            if (end.exitValue() != 0 || !events.containsKey("closed")) {
                violations.add("the child did not close cleanly after the faults were switched "
                        + "off (exit " + end.exitValue() + ", closed event "
                        + events.containsKey("closed") + ")");
            }
            if (events.containsKey("stuck")) {
                violations.add("a workload thread was stuck in a Lanes call at stop: "
                        + events.get("stuck").text());
            }
            long recovered = requests.values().stream()
                    .filter(r -> r.ok() && "2".equals(r.opt("phase"))).count();
            if (recovered == 0) {
                violations.add("no request was acknowledged once the faults were off: the "
                        + "database did not recover (reopened: " + events.containsKey("reopened")
                        + ")");
            }
            if (events.containsKey("close-failed")) {
                violations.add("Database.close() failed after the faults were switched off: "
                        + events.get("close-failed").text());
            }
        }

        // The poison frontier: the first call counter value at which some caller had been told
        // UNKNOWN or had seen the writer poisoned. Nothing called after it may be acknowledged.
        // Per database generation (the child reopens a poisoned database), so a new generation
        // may acknowledge again.
        Map<String, Line> frontier = new HashMap<>();
        List<Line> all = new ArrayList<>(requests.values());
        sections.values().forEach(s -> all.addAll(s.values()));
        for (Line l : all) {
            if ((l.failed() && "true".equals(l.opt("poisoned"))) || l.unknown()) {
                frontier.merge(l.get("gen"), l, (a, b) -> a.num("end") <= b.num("end") ? a : b);
            }
        }

        for (Line l : all) {
            if (l.type().equals("S") && l.get("event").equals("uncork-begin")) {
                continue;
            }
            if ("alien".equals(l.opt("result"))) {
                n.aliens++;
                violations.add("a caller got a non-LanesException: " + l.text());
            }
            if (l.failed() && "0".equals(l.opt("phase"))) {
                violations.add("failed before any fault was switched on: " + l.text());
            }
            if (l.failed() && UNKNOWN.equals(l.outcome()) && !"true".equals(l.opt("poisoned"))) {
                violations.add("UNKNOWN, yet diagnostics() did not show the writer poisoned: "
                        + l.text());
            }
            if (l.failed() && "WriterPoisonedException".equals(l.opt("class"))
                    && !"NOT_STARTED".equals(l.outcome())) {
                violations.add("a WriterPoisonedException that is not NOT_STARTED: " + l.text());
            }
            Line poisonedBy = frontier.get(l.get("gen"));
            if (l.ok() && poisonedBy != null && l.num("start") > poisonedBy.num("end")) {
                violations.add("acknowledged although it was called after a caller of the same "
                        + "database had been told UNKNOWN or seen its writer poisoned ("
                        + poisonedBy.text() + "): " + l.text());
            }
        }

        long maxId = 0;
        for (Line r : requests.values()) {
            long id = r.num("id");
            maxId = Math.max(maxId, id);
            n.requests++;
            if (r.ok()) {
                n.acked++;
            } else if (r.failed()) {
                n.failed.merge(r.outcome(), 1, Integer::sum);
                if (!"0".equals(r.opt("phase"))) {
                    n.failedUnderFaults++;
                }
            }
            FileState.Rows rows = file.requests().get(id);
            boolean present = rows != null;
            Expect expect = expectation(r, sections.get(r.num("sec")));
            if (expect == Expect.PRESENT && !present) {
                violations.add("acknowledged but missing: " + r.text());
            } else if (expect == Expect.ABSENT && present) {
                violations.add(r.outcome() + " but present: " + r.text());
            } else if (expect == Expect.EITHER && !r.ok()) {
                if (present) {
                    n.unknownPresent++;
                } else {
                    n.unknownAbsent++;
                }
            }
            if (present && !r.opt("parts").equals(Integer.toString(rows.declared()))) {
                violations.add("present with " + rows.declared() + " declared rows instead of "
                        + r.opt("parts") + ": " + r.text());
            }
        }
        for (Map.Entry<Long, FileState.Rows> e : file.requests().entrySet()) {
            long id = e.getKey();
            maxId = Math.max(maxId, id);
            if (!e.getValue().complete()) {
                violations.add("request " + id + " is half-applied: parts " + e.getValue().parts()
                        + " of " + e.getValue().declared());
            }
            if (!requests.containsKey(id)) {
                if (end.killed()) {
                    n.inFlightPresent++;
                } else {
                    violations.add("request " + id + " is present but its caller was never told "
                            + "an outcome, in a round that closed cleanly");
                }
            }
        }
        for (long id = 1; id <= maxId; id++) {
            if (!requests.containsKey(id) && !file.requests().containsKey(id)) {
                if (end.killed()) {
                    n.inFlightAbsent++;
                } else {
                    violations.add("request " + id + " has no outcome, in a round that closed "
                            + "cleanly");
                }
            }
        }

        for (Map.Entry<Long, Map<String, Line>> s : sections.entrySet()) {
            checkSection(s.getKey(), s.getValue(), requests, file, violations, n);
        }

        n.poisonings = frontier.size();
        n.integrity = file.integrity();
        if (!"ok".equals(file.integrity())) {
            violations.add("integrity_check: " + file.integrity());
        }
        file.reopenFailure().ifPresent(f -> violations.add("Lanes cannot open the file and "
                + "commit to it again: " + f));
        return new RoundReport(spec, end, n, violations);
    }

    /** What the file must show of request {@code r}, given its cork section's lines (if any). */
    private static Expect expectation(Line r, Map<String, Line> section) {
        if (r.failed() || "alien".equals(r.opt("result"))) {
            return r.unknown() || "alien".equals(r.opt("result")) ? Expect.EITHER : Expect.ABSENT;
        }
        if (!r.ok()) {
            return Expect.EITHER;
        }
        if (r.num("sec") == 0) {
            return Expect.PRESENT;
        }
        // Applied inside a cork: durable only once uncork() committed.
        if (section == null || !section.containsKey("uncork-begin")) {
            return Expect.ABSENT; // killed while corked: a crash loses exactly the corked writes
        }
        Line uncork = section.get("uncork");
        return uncork != null && uncork.ok() ? Expect.PRESENT : Expect.EITHER;
    }

    /**
     * A cork section: an uncork that failed may have kept the writes corked after the one that
     * ended the cork's transaction and lost those before it (docs/writes.md, "Cork"), so among its
     * acknowledged writes the missing ones must all come before the present ones.
     */
    private static void checkSection(long sec, Map<String, Line> section, Map<Long, Line> requests,
            FileState file, List<String> violations, RoundReport.Counts n) {
        Line cork = section.get("cork");
        if (cork == null || !cork.ok()) {
            return;
        }
        n.sections++;
        Line uncork = section.get("uncork");
        if (uncork != null && uncork.ok()) {
            n.sectionsCommitted++;
        }
        boolean seenPresent = false;
        int kept = 0;
        for (Line r : requests.values()) {
            if (r.num("sec") != sec || !r.ok()) {
                continue;
            }
            boolean present = file.requests().containsKey(r.num("id"));
            if (present) {
                seenPresent = true;
                kept++;
            } else if (seenPresent) {
                violations.add("cork section " + sec + " lost an acknowledged write after one it "
                        + "kept (uncork: " + (uncork == null ? "none" : uncork.text()) + "): "
                        + r.text());
            }
        }
        if (uncork != null && uncork.failed() && !uncork.unknown() && kept > 0) {
            // Database.uncork(): "@throws WriteFailedException when the commit failed: the corked
            // writes did not persist"; ROLLED_BACK: "nothing of it persisted" (the defect
            // UncorkAfterLostCorkTest pins, fixed).
            n.uncorkFailedButKept++;
            violations.add("uncork() failed " + uncork.outcome() + ", yet " + kept + " of its "
                    + "section's acknowledged corked writes persisted: " + uncork.text());
        }
    }
}
