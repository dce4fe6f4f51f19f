package dev.lanes.dqlite;

/**
 * Code 10506 (SQLITE_IOERR_LEADERSHIP_LOST, whose server text is the misleading "disk I/O
 * error"): the node lost leadership while the request waited for Raft, typically a COMMIT. Its
 * entry may have been replicated and committed by the next leader (both outcomes have been seen),
 * so a request that can change the cluster {@link #mayHaveRun() may have run}: resolve the
 * outcome, never re-run it blindly. The session is closed.
 */
public final class DqliteLeadershipLostException extends DqliteServerException {
    /** Leadership lost by {@code node} while the request waited for Raft. */
    public DqliteLeadershipLostException(boolean mayHaveRun, String node, String serverMessage,
            String message) {
        super(DqliteCodes.LEADERSHIP_LOST, mayHaveRun, node, serverMessage, message);
    }
}
