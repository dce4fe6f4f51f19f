package dev.lanes.dqlite;

/**
 * The server answered the request with a FAILURE: {@link #code()} is SQLite's extended result code
 * (or dqlite's own, above 1000) and {@link #serverMessage()} the server's text. The connection
 * stays usable (except after {@link DqliteNotLeaderException} and {@link
 * DqliteLeadershipLostException}, which close the session).
 *
 * <p>Whether it {@link #mayHaveRun()} follows from the code: the I/O family (10, 266, ...,
 * 10506) and 4 (ABORT, the node shutting down mid-commit) come from a commit whose Raft entry may
 * have been replicated, and 100 (ROW) from a statement run with exec that stepped to its first
 * row; these may have run. Every other failure of a single statement is SQLite failing it
 * atomically or dqlite refusing it before it ran: nothing of it took effect. When the SQL text of
 * an exec holds more than one statement the earlier ones may have run, so any failure but 10250
 * may have run. For a membership change (ADD, ASSIGN, REMOVE) only 10250 and 5 are certain
 * refusals.
 */
public class DqliteServerException extends DqliteException {
    private final String serverMessage;

    /** A FAILURE answer from {@code node}: SQLite's extended (or dqlite's own) {@code code} and the server's text. */
    public DqliteServerException(long code, boolean mayHaveRun, String node, String serverMessage,
            String message) {
        super(code, mayHaveRun, node, message, null);
        this.serverMessage = serverMessage;
    }

    /** The server's own text (for 10506 it is the misleading "disk I/O error"). */
    public String serverMessage() {
        return serverMessage;
    }

    /** SQLite's primary result code: the low byte of {@link #code()}. */
    public int primaryCode() {
        return (int) (code() & 0xff);
    }
}
