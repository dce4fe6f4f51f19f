package dev.lanes.fleet.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks the end state of a chaos run against the ledger, tenant by tenant, reading each
 * tenant's rows through the fleet (from its owner):
 * <ul>
 *   <li>every acknowledged write is present (REPLICATED: a missing one is a violation; LOCAL: a
 *       loss, counted, and its age at the disruptive event that lost it must be within the
 *       recovery window);
 *   <li>no write that ended {@code ROLLED_BACK} or {@code NOT_STARTED} is present, nor any id the
 *       ledger does not know for that tenant (each id is present at most once: it is unique);
 *   <li>in commit order the fencing tokens never go down: no commit of an older epoch follows
 *       one of a newer epoch, so no deposed owner's write entered the history the newer owner
 *       served.
 * </ul>
 */
final class ChaosVerifier {
    private ChaosVerifier() {}

    static void verify(ChaosLedger ledger, List<String> tenants, Supplier<List<String>> nodes,
            boolean replicated, List<Long> disruptions, long rpoBoundMillis, ChaosReport report) {
        Map<String, List<ChaosLedger.Write>> byTenant = new HashMap<>();
        for (ChaosLedger.Write w : ledger.all()) {
            byTenant.computeIfAbsent(w.tenant(), k -> new ArrayList<>()).add(w);
            report.outcomes.merge(w.outcome(), 1L, Long::sum);
        }
        for (String tenant : tenants) {
            String rows = readRows(ledger, tenant, nodes);
            if (rows == null) {
                report.violations.add(tenant + ": its rows could not be read from any node");
                continue;
            }
            Set<Long> present = new HashSet<>();
            long lastToken = Long.MIN_VALUE;
            for (String line : rows.split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.trim().split(" ");
                long id = Long.parseLong(f[1]);
                long token = Long.parseLong(f[2]);
                if (token < lastToken) {
                    report.violations.add(tenant + ": id " + id + " committed at token " + token
                            + " after a commit at token " + lastToken);
                }
                lastToken = Math.max(lastToken, token);
                present.add(id);
                ChaosLedger.Write w = ledger.get(id);
                if (w == null || !w.tenant().equals(tenant)) {
                    report.violations.add(tenant + ": id " + id + " was never written to it");
                } else if (w.outcome() == ChaosLedger.Outcome.ROLLED_BACK
                        || w.outcome() == ChaosLedger.Outcome.NOT_STARTED) {
                    report.violations.add(tenant + ": id " + id + " ended " + w.outcome()
                            + " but is present");
                }
            }
            for (ChaosLedger.Write w : byTenant.getOrDefault(tenant, List.of())) {
                if (w.outcome() != ChaosLedger.Outcome.ACKED || present.contains(w.id())) {
                    continue;
                }
                if (replicated) {
                    report.violations.add(tenant + ": acknowledged REPLICATED id " + w.id()
                            + " (by " + w.node() + ") is missing");
                    continue;
                }
                report.localLosses++;
                long age = ageAtDisruption(w, disruptions);
                report.maxLossAgeMillis = Math.max(report.maxLossAgeMillis, age);
                if (age < 0 || age > rpoBoundMillis) {
                    report.violations.add(tenant + ": acknowledged LOCAL id " + w.id()
                            + " is missing, " + (age < 0 ? "with no disruption after it"
                            : age + " ms before its disruption (bound " + rpoBoundMillis + ")"));
                }
            }
        }
    }

    /** Milliseconds from the write's acknowledgement to the first disruption after it; -1: none. */
    private static long ageAtDisruption(ChaosLedger.Write w, List<Long> disruptions) {
        long best = -1;
        for (long at : disruptions) {
            if (at >= w.endNanos() - 1_000_000_000L && (best < 0 || at < best)) {
                best = at;
            }
        }
        return best < 0 ? -1 : Math.max(0, (best - w.endNanos()) / 1_000_000);
    }

    private static String readRows(ChaosLedger ledger, String tenant, Supplier<List<String>> nodes) {
        for (int attempt = 0; attempt < 20; attempt++) {
            for (String node : nodes.get()) {
                String rows = ledger.get(node, "/rows?tenant=" + tenant);
                if (rows != null) {
                    return rows;
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
        }
        return null;
    }
}
