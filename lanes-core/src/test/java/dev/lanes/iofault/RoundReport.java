package dev.lanes.iofault;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The verdict on one round: what callers were told, what the file shows, and every broken promise.
 *
 * @param spec the round
 * @param end how the child ended
 * @param counts the figures of the round
 * @param violations every broken promise; empty when the round upheld all of them
 */
record RoundReport(RoundSpec spec, Ledger.ChildEnd end, Counts counts, List<String> violations) {

    /** The figures of a round; filled by {@link Ledger} only. */
    static final class Counts {
        int requests;
        int acked;
        /** Failed requests by outcome. */
        final Map<String, Integer> failed = new TreeMap<>();
        /** Failed requests that started once the faults were on. */
        int failedUnderFaults;
        /** Requests that may or may not have persisted (UNKNOWN), by what the file shows. */
        int unknownPresent;
        int unknownAbsent;
        /** Requests running at the kill, whose callers were never told, by what the file shows. */
        int inFlightPresent;
        int inFlightAbsent;
        int aliens;
        int sections;
        int sectionsCommitted;
        /**
         * Cork sections whose uncork() failed ROLLED_BACK or NOT_STARTED although some of their
         * corked writes persisted (the defect {@link UncorkAfterLostCorkTest} pins; a violation).
         */
        int uncorkFailedButKept;
        /** Database generations whose writer poisoned itself. */
        int poisonings;
        /** The first poisoning's cause. */
        String poisonCause = "";
        /** Reopens of a poisoned database that failed (recorded ones), and the first. */
        int reopenFailures;
        String reopenFailure = "";
        String integrity = "";
    }

    static final String HEADER = String.format(Locale.ROOT,
            "%-26s %-6s %-5s %6s %6s %5s %5s %5s %7s %7s %5s %7s %5s %6s %6s %-9s %s",
            "round", "sync", "end", "reqs", "acked", "RB", "NS", "UNK", "UNK+/-", "fly+/-",
            "alien", "cork", "uRB+", "poison", "reopF", "integrity", "violations");

    String row() {
        Counts n = counts;
        return String.format(Locale.ROOT,
                "%-26s %-6s %-5s %6d %6d %5d %5d %5d %7s %7s %5d %7s %5d %6d %6d %-9s %d",
                spec.name(), spec.level(), spec.ending().label(), n.requests, n.acked,
                n.failed.getOrDefault("ROLLED_BACK", 0), n.failed.getOrDefault("NOT_STARTED", 0),
                n.failed.getOrDefault("UNKNOWN", 0), n.unknownPresent + "/" + n.unknownAbsent,
                n.inFlightPresent + "/" + n.inFlightAbsent, n.aliens,
                n.sectionsCommitted + "/" + n.sections, n.uncorkFailedButKept, n.poisonings,
                n.reopenFailures,
                n.integrity.length() > 9 ? n.integrity.substring(0, 9) : n.integrity,
                violations.size());
    }
}
