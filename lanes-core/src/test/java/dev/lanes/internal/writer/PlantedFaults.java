package dev.lanes.internal.writer;

import dev.lanes.Database;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fault points a test makes fail on a database's writer lane: each step at a point in the set
 * fails, before it reaches SQLite, as if SQLite had refused it. Thread-safe: the set is swapped
 * whole, and the lane reads it on its own thread.
 */
final class PlantedFaults {
    private final AtomicReference<Set<FaultInjector.Point>> failing =
            new AtomicReference<>(EnumSet.noneOf(FaultInjector.Point.class));

    /** Plants the faults on {@code db}'s lane; none fail until {@link #fail}. */
    static PlantedFaults on(Database db) {
        PlantedFaults faults = new PlantedFaults();
        ((DatabaseImpl) db).lane().faults(point -> {
            if (faults.failing.get().contains(point)) {
                throw new SQLException("injected " + point);
            }
        });
        return faults;
    }

    /** From now on, exactly the steps at {@code points} fail. */
    void fail(FaultInjector.Point first, FaultInjector.Point... rest) {
        failing.set(EnumSet.of(first, rest));
    }

    /** From now on, nothing fails. */
    void clear() {
        failing.set(EnumSet.noneOf(FaultInjector.Point.class));
    }
}
