package dev.lanes.history;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What {@link ListAppendChecker} found: the anomalies, and figures about the history. */
record CheckResult(List<Anomaly> anomalies, Map<String, Long> figures) {

    CheckResult {
        anomalies = List.copyOf(anomalies);
        figures = Map.copyOf(figures);
    }

    boolean valid() {
        return anomalies.isEmpty();
    }

    /** The types found, with how often each was reported. */
    Map<Anomaly.Type, Long> types() {
        return anomalies.stream().collect(Collectors.groupingBy(Anomaly::type,
                () -> new EnumMap<>(Anomaly.Type.class), Collectors.counting()));
    }

    /** A report for a person: figures, then each anomaly (the first few of each type). */
    String report() {
        StringBuilder s = new StringBuilder();
        s.append(valid() ? "valid" : "INVALID: " + types()).append('\n');
        s.append(new java.util.TreeMap<>(figures)).append('\n');
        Map<Anomaly.Type, Integer> shown = new EnumMap<>(Anomaly.Type.class);
        for (Anomaly a : anomalies) {
            int n = shown.merge(a.type(), 1, Integer::sum);
            if (n <= 3) {
                s.append("- ").append(a).append('\n');
            } else if (n == 4) {
                s.append("- ").append(a.type()).append(": ... (more not shown)\n");
            }
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return report();
    }
}
