package dev.lanes.examples;

import dev.lanes.MetricsListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records every group commit, to show which writes shared one transaction. The runtime reports
 * a group's commit on the lane, before any of the group's futures completes, with the number of
 * writes that committed in it (a failed write is left out of the count).
 */
final class GroupSizes implements MetricsListener {
    final List<Integer> sizes = new CopyOnWriteArrayList<>();

    @Override
    public void groupCommitted(String db, int committed, long nanos) {
        sizes.add(committed);
    }
}
