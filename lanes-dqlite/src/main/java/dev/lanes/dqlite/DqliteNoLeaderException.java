package dev.lanes.dqlite;

/**
 * No node named itself leader before the deadline: every known node was unreachable, knew no
 * leader, or pointed at a node that was not the leader. Nothing was sent but lookups, so nothing
 * ran. The message lists what each node answered last.
 */
public final class DqliteNoLeaderException extends DqliteException {
    /** A failure with this message and no cause. */
    public DqliteNoLeaderException(String message) {
        super(0, false, null, message, null);
    }
}
