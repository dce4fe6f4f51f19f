package dev.lanes.dqlite.internal.client;

import dev.lanes.dqlite.DqliteBusyException;
import dev.lanes.dqlite.DqliteCodes;
import dev.lanes.dqlite.DqliteConstraintException;
import dev.lanes.dqlite.DqliteLeadershipLostException;
import dev.lanes.dqlite.DqliteNotLeaderException;
import dev.lanes.dqlite.DqliteServerException;
import dev.lanes.dqlite.internal.wire.RequestType;

/**
 * Maps a FAILURE response to its typed exception, by numeric code only (see {@link DqliteCodes}
 * for the table and the reasons).
 */
public final class Failures {
    private Failures() {}

    /**
     * Whether a request that the server answered with {@code code} may have taken effect.
     *
     * @param singleStatement false when the request's SQL text may hold several statements
     */
    public static boolean mayHaveRun(RequestType type, long code, boolean singleStatement) {
        if (!type.mayTakeEffect() || code == DqliteCodes.NOT_LEADER) {
            return false;
        }
        int primary = (int) (code & 0xff);
        if (type.isMembership()) {
            // a change the leader appended can still fail in its callback with a code of 1 or
            // 10506; only a refusal before raft took it is certain
            return primary != DqliteCodes.BUSY;
        }
        if (!singleStatement) {
            return true;
        }
        return primary == DqliteCodes.IOERR || code == DqliteCodes.ABORT || code == DqliteCodes.ROW;
    }

    public static DqliteServerException exception(RequestType type, long code, String serverMessage,
            String node, boolean singleStatement) {
        boolean mayHaveRun = mayHaveRun(type, code, singleStatement);
        String message = node + ": " + type + " failed with code " + code + " (" + serverMessage
                + "); " + outcomeText(code, mayHaveRun);
        int primary = (int) (code & 0xff);
        if (code == DqliteCodes.NOT_LEADER) {
            return new DqliteNotLeaderException(node, serverMessage, message);
        } else if (code == DqliteCodes.LEADERSHIP_LOST) {
            return new DqliteLeadershipLostException(mayHaveRun, node, serverMessage, message);
        } else if (primary == DqliteCodes.BUSY) {
            return new DqliteBusyException(code, mayHaveRun, node, serverMessage, message);
        } else if (primary == DqliteCodes.CONSTRAINT) {
            return new DqliteConstraintException(code, mayHaveRun, node, serverMessage, message);
        }
        return new DqliteServerException(code, mayHaveRun, node, serverMessage, message);
    }

    private static String outcomeText(long code, boolean mayHaveRun) {
        if (code == DqliteCodes.NOT_LEADER) {
            return "the node is not the leader and did not run it; send it to the leader";
        } else if (code == DqliteCodes.LEADERSHIP_LOST && mayHaveRun) {
            return "leadership was lost while it waited for Raft: it may have been committed,"
                    + " its outcome is unknown";
        }
        return mayHaveRun ? "it may have run: its outcome is unknown" : "it did not run";
    }
}
