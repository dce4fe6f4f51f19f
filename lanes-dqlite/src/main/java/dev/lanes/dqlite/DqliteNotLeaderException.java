package dev.lanes.dqlite;

/**
 * Code 10250 (SQLITE_IOERR_NOT_LEADER): the node is not the leader and refused the request before
 * running it. Never ran: send it again on the leader ({@link DqliteCluster#connect(String)} finds
 * it). The session is closed, since its node no longer takes reads or writes.
 */
public final class DqliteNotLeaderException extends DqliteServerException {
    /** A refusal by {@code node}, which is not the leader. */
    public DqliteNotLeaderException(String node, String serverMessage, String message) {
        super(DqliteCodes.NOT_LEADER, false, node, serverMessage, message);
    }
}
