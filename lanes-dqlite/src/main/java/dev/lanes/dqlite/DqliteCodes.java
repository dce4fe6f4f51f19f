package dev.lanes.dqlite;

/**
 * Numeric codes a dqlite server answers with, and what each means for the request. The client
 * maps failures on these numbers only, never on the server's text.
 *
 * <table>
 * <caption>Codes and outcomes</caption>
 * <tr><th>code</th><th>name</th><th>raised as</th><th>may have run</th></tr>
 * <tr><td>10250</td><td>SQLITE_IOERR_NOT_LEADER</td><td>{@link DqliteNotLeaderException}</td><td>no: refused before it ran</td></tr>
 * <tr><td>10506</td><td>SQLITE_IOERR_LEADERSHIP_LOST</td><td>{@link DqliteLeadershipLostException}</td><td>yes</td></tr>
 * <tr><td>10, 778, other 10 + n·256</td><td>SQLITE_IOERR family (a failed Raft apply, no space)</td><td>{@link DqliteServerException}</td><td>yes</td></tr>
 * <tr><td>4</td><td>SQLITE_ABORT (the node shut down mid-commit)</td><td>{@link DqliteServerException}</td><td>yes</td></tr>
 * <tr><td>100</td><td>SQLITE_ROW (exec of a statement that yields rows)</td><td>{@link DqliteServerException}</td><td>yes: it stepped once</td></tr>
 * <tr><td>5, 5 + n·256</td><td>SQLITE_BUSY</td><td>{@link DqliteBusyException}</td><td>no</td></tr>
 * <tr><td>19, 1555, 2067, 787, 275, 1299, ...</td><td>SQLITE_CONSTRAINT family</td><td>{@link DqliteConstraintException}</td><td>no</td></tr>
 * <tr><td>1</td><td>SQLITE_ERROR (syntax, missing table, ...)</td><td>{@link DqliteServerException}</td><td>no</td></tr>
 * <tr><td>12</td><td>SQLITE_NOTFOUND (no database opened, no such statement)</td><td>{@link DqliteServerException}</td><td>no</td></tr>
 * <tr><td>1001</td><td>DQLITE_PROTO (protocol error)</td><td>{@link DqliteServerException}</td><td>no</td></tr>
 * <tr><td>1005</td><td>DQLITE_PARSE (parameters could not be bound)</td><td>{@link DqliteServerException}</td><td>no</td></tr>
 * </table>
 *
 * <p>Any other code from a single statement is SQLite failing it atomically: no. Two rules
 * override the table: when the SQL text of an exec holds more than one statement, the statements
 * before the failing one may have run, so every code but 10250 may have run; and for a membership
 * change (ADD, ASSIGN, REMOVE) only 10250 and 5 are certain refusals.
 */
public final class DqliteCodes {
    private DqliteCodes() {}

    /** SQLITE_ERROR: a generic SQL error (syntax, missing table, ...). */
    public static final long ERROR = 1;
    /** SQLITE_ABORT: dqlite answers it when the node shuts down during a commit. */
    public static final long ABORT = 4;
    /** SQLITE_BUSY. */
    public static final long BUSY = 5;
    /** SQLITE_IOERR: the primary code of the I/O family. */
    public static final long IOERR = 10;
    /** SQLITE_NOTFOUND: no database is open on the connection, or no statement has the id. */
    public static final long NOTFOUND = 12;
    /** SQLITE_CONSTRAINT: the primary code of the constraint family. */
    public static final long CONSTRAINT = 19;
    /** SQLITE_CONSTRAINT_PRIMARYKEY. */
    public static final long CONSTRAINT_PRIMARYKEY = 1555;
    /** SQLITE_CONSTRAINT_UNIQUE. */
    public static final long CONSTRAINT_UNIQUE = 2067;
    /** SQLITE_ROW: exec ran a statement that yields rows. */
    public static final long ROW = 100;
    /** SQLITE_IOERR_NOT_LEADER: the node is not the leader. */
    public static final long NOT_LEADER = 10250;
    /** SQLITE_IOERR_LEADERSHIP_LOST: leadership was lost while the request waited for Raft. */
    public static final long LEADERSHIP_LOST = 10506;
    /** DQLITE_PROTO: the server could not follow the request. */
    public static final long PROTO = 1001;
    /** DQLITE_PARSE: the request's parameters could not be decoded (libdqlite 1.11: UNIXTIME). */
    public static final long PARSE = 1005;
}
