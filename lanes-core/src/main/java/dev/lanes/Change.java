package dev.lanes;

import java.util.Objects;
import java.util.Set;

/**
 * One committed change to a database, as told to {@link Database#onChange} subscribers.
 *
 * <p>Notifications are hints: on receiving one, re-read the state you care about. They are
 * delivered in increasing {@link #version()} order on a dispatcher thread, never the writer's,
 * after the commit returned.
 *
 * <p><b>Tables.</b> {@link #tables()} names the tables SQLite's update hook reported for the
 * commit. SQLite does not report every change that way: rows of {@code WITHOUT ROWID} tables, a
 * {@code DELETE} without {@code WHERE} (the truncate optimization) and rows replaced by {@code
 * REPLACE} conflict resolution are missing, and a commit that began before the first subscriber
 * arrived was not tracked. So an empty set means "unknown: any table may have changed", and a
 * non-empty set may be incomplete when such tables are written. When a listener falls far behind,
 * consecutive changes are merged into one: its version is the newest and its tables the union.
 *
 * @param version the database's {@link Database#changeVersion() change version} after this
 *     commit; it increases by one per committed transaction (commit group) that changed rows
 * @param tables the tables changed in the commit (unmodifiable); empty when unknown
 */
public record Change(long version, Set<String> tables) {
    public Change {
        Objects.requireNonNull(tables, "tables");
        tables = Set.copyOf(tables);
    }
}
