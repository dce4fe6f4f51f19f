package dev.lanes.internal.guard;

import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.sqlite.SqliteConnections.SqlWork;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link Connection} a body receives: the runtime's real connection behind one guard, with a
 * {@linkplain #write write} policy on the writer lane or a {@linkplain #read read} policy on a
 * reader.
 *
 * <p>Every JDBC object reached through the guarded connection is guarded the same way, on both
 * sides: {@link Statement}, {@link PreparedStatement}, {@link CallableStatement}, {@link
 * ResultSet} and {@link DatabaseMetaData}. SQL handed to any of them is checked before SQLite
 * sees it; {@code getConnection()} and {@code ResultSet.getStatement()} lead back to the guarded
 * objects, never to the driver's; and {@code unwrap} is the one documented escape hatch to the
 * driver's objects. The driver hands some of its objects out under a second interface (its
 * result set is its own {@link ResultSetMetaData}, its prepared statement its own {@link
 * ParameterMetaData}), so anything returned that is one of the driver's connections,
 * statements, result sets or metadata is guarded under the declared type, whatever that is: a
 * cast never reaches the driver's object.
 *
 * <p>Both policies refuse, before SQLite runs anything: {@code close} and {@code abort} of the
 * connection, connection-wide settings (isolation, catalog, schema, holdability, network timeout,
 * type map), and the JDBC transaction methods ({@code commit}, {@code rollback}, savepoints,
 * {@code setAutoCommit}). SQL given to any call is admitted by the statement policy of its
 * place ({@link StatementPolicy}): {@link StatementPolicy#WRITE_BODY} on the writer and {@link
 * StatementPolicy#READER} on a reader for a call that runs one statement, {@link
 * StatementPolicy#BODY_SCRIPT} and {@link StatementPolicy#READ_SCRIPT} for {@code
 * Statement.executeUpdate(String)}, which the driver runs whole; {@code ATTACH} is judged against
 * the connection's own attachment limit. On the writer, outside the group's transaction (a
 * maintenance body), an in-place {@code VACUUM} first passes the disk reserve's headroom check
 * and then runs with the one attachment slot SQLite's {@code VACUUM} needs (see {@code
 * SqliteConnections}). The read policy also checks the read's deadline and cancellation before
 * each statement runs. Each refusal is remembered, so a body that swallows it still fails
 * ({@link #refusal()}).
 *
 * <p>The guarded objects are plain subclasses of {@code guard.delegating}'s classes, which
 * forward every call to the driver's object; each overrides only what the guard decides:
 * {@link GuardedConnection}, {@link GuardedStatement} (with {@link GuardedPreparedStatement} and
 * {@link GuardedCallableStatement} below it), {@link GuardedResultSet}, {@link GuardedMetaData},
 * {@link GuardedResultSetMetaData} and {@link GuardedParameterMetaData}. Every forwarded call
 * first checks the guard's confinement. Values go by Lanes' value convention both ways: a
 * date or time given to a prepared statement's setters is stored as {@code
 * ValueConvention.store} stores it (as text, never as the driver's epoch milliseconds), and a
 * result set's date getters read as the data source's do ({@code JdbcDates}).
 *
 * <h2>Confinement</h2>
 * A guard has one user: the thread that runs the request, until the request ends ({@link
 * #end()}), after which every call but {@code close} and {@code isClosed} fails. Not thread-safe
 * by design. The statements it handed out are closed when the request ends.
 */
public final class ConnectionGuard {
    /** Checks a read's deadline and cancellation; throws the read's failure when stopped. */
    public interface StopCheck {
        StopCheck NONE = () -> {};

        void check();
    }

    private final String database;
    private final Connection raw;
    private final Thread owner;
    private final boolean reader;
    private final boolean inTransaction;
    private final Runnable vacuumCheck;
    private final StopCheck stopCheck;
    private final Shapes shapes;
    private final GuardedConnection connection;
    private final List<Statement> statements = new ArrayList<>(2);
    private boolean open = true;
    private LanesException refusal;

    private ConnectionGuard(String database, Connection raw, boolean reader, boolean inTransaction,
            Runnable vacuumCheck, StopCheck stopCheck, Shapes shapes) {
        this.shapes = shapes;
        this.database = database;
        this.raw = raw;
        this.owner = Thread.currentThread();
        this.reader = reader;
        this.inTransaction = inTransaction;
        this.vacuumCheck = vacuumCheck;
        this.stopCheck = stopCheck;
        this.connection = new GuardedConnection(this, raw);
    }

    /**
     * A guard for a body on the writer lane.
     *
     * @param inTransaction whether the body runs inside the lane's transaction (a write, a
     *     transaction step) rather than on its own (maintenance)
     * @param vacuumCheck run before an in-place {@code VACUUM} outside a transaction, and may
     *     refuse it by throwing; null for none
     */
    public static ConnectionGuard write(String database, Connection raw, boolean inTransaction,
            Runnable vacuumCheck, Shapes shapes) {
        return new ConnectionGuard(database, raw, false, inTransaction, vacuumCheck,
                StopCheck.NONE, shapes);
    }

    /** A guard for a read body, on a reader or on the writer while corked. */
    public static ConnectionGuard read(String database, Connection raw, StopCheck stopCheck,
            Shapes shapes) {
        return new ConnectionGuard(database, raw, true, true, null, stopCheck, shapes);
    }

    /** The guarded connection to hand to the body. */
    public Connection connection() {
        return connection;
    }

    /** The first refusal this guard raised, even if the body caught it; null when none. */
    public LanesException refusal() {
        return refusal;
    }

    /**
     * Runs {@code body} on this guard's connection and ends the guard. A refusal of the guard
     * that the body swallowed still fails it. With {@code refusalFirst}, a refusal that the body
     * let out wrapped in an exception of its own (a library's: jOOQ, JDBI) is what fails it, with
     * that exception attached; without, the body's exception is (an initializer's names the
     * script and statement that failed).
     */
    public <T> T run(SqlFunction<T> body, boolean refusalFirst) throws Exception {
        T value;
        try {
            value = body.apply(connection());
        } catch (Exception | Error e) {
            if (refusalFirst && refusal != null && refusal != e) {
                refusal.addSuppressed(e);
                throw refusal;
            }
            throw e;
        } finally {
            end();
        }
        if (refusal != null) {
            throw refusal;
        }
        return value;
    }

    /** Ends the request: closes the statements the body left open, and refuses later use. */
    public void end() {
        open = false;
        for (Statement s : statements) {
            try {
                s.close();
            } catch (SQLException ignored) {
                // a statement the body broke; the connection is verified after the body anyway
            }
        }
        statements.clear();
    }

    // ------------------------------------------------------------------ policy

    String database() {
        return database;
    }

    boolean reader() {
        return reader;
    }

    boolean inTransaction() {
        return inTransaction;
    }

    /** Whether the request is still on. */
    boolean open() {
        return open;
    }

    /** Whether the request is still on and this is its thread. */
    boolean usable() {
        return open && Thread.currentThread() == owner;
    }

    /** Remembers {@code e} as the guard's refusal when it is the first, and gives it back. */
    LanesException remember(LanesException e) {
        if (refusal == null) {
            refusal = e;
        }
        return e;
    }

    /** Refuses every call but from the request's own thread while the request is on. */
    void checkOwner() {
        if (!usable()) {
            throw remember(Refusals.outsideItsRequest(database));
        }
    }

    /** Before what a statement runs without new SQL (prepared, batched): is the read still on? */
    void checkRunning() {
        checkOwner();
        try {
            stopCheck.check();
        } catch (LanesException e) {
            throw remember(e);
        }
    }

    /**
     * Admits SQL before any statement runs or is prepared with it.
     *
     * @param whole whether the call runs the whole text ({@code Statement.executeUpdate(String)},
     *     which the driver runs with {@code sqlite3_exec}, every statement of it; {@code execute},
     *     {@code executeQuery}, {@code addBatch} and {@code prepare…} take the first statement)
     * @return whether it holds an in-place {@code VACUUM} to run outside a transaction, which
     *     needs an attachment slot
     */
    boolean checkSql(String sql, boolean whole) {
        checkOwner();
        if (sql == null) {
            return false;
        }
        try {
            StatementShape shape = shapes.of(sql);
            StatementPolicy policy = reader ? (whole ? StatementPolicy.READ_SCRIPT
                    : StatementPolicy.READER) : whole ? StatementPolicy.BODY_SCRIPT
                            : StatementPolicy.WRITE_BODY;
            policy.admit(database, shape, shape.attaches() && !reader
                    ? SqliteConnections.attachLimit(raw) : StatementPolicy.UNKNOWN_ATTACH_LIMIT);
            if (reader) {
                stopCheck.check();
                return false;
            }
            boolean vacuum = shape.vacuumsInPlace();
            if (vacuum && vacuumCheck != null) {
                vacuumCheck.run();
            }
            return vacuum && !shape.attaches() && !inTransaction;
        } catch (LanesException e) {
            throw remember(e);
        } catch (SQLException e) {
            throw remember(new InvalidRequestException(WriteOutcome.NOT_STARTED, database
                    + ": cannot read the connection's attachment limit (" + e.getMessage()
                    + "); nothing ran", e));
        }
    }

    /** Runs an admitted call, with the attachment slot an in-place VACUUM needs if it holds one. */
    <T> T run(boolean vacuum, SqlWork<T, SQLException> call) throws SQLException {
        return vacuum ? SqliteConnections.withAttachSlot(raw, call) : call.run();
    }

    // ------------------------------------------------------------------ guarded objects

    /** A statement the driver made, guarded and closed at the request's end; null for null. */
    Statement statement(Statement s) {
        return s == null ? null : register(new GuardedStatement<>(this, s, false));
    }

    PreparedStatement prepared(PreparedStatement s, boolean vacuums) {
        return s == null ? null : register(new GuardedPreparedStatement<>(this, s, vacuums));
    }

    CallableStatement callable(CallableStatement s, boolean vacuums) {
        return s == null ? null : register(new GuardedCallableStatement(this, s, vacuums));
    }

    private <S extends GuardedStatement<?>> S register(S guarded) {
        statements.add(guarded.target());
        return guarded;
    }

    /** A result set of the driver's, whose {@code getStatement()} is {@code parent}, if given. */
    ResultSet resultSet(ResultSet rs, Statement parent) {
        return rs == null ? null : new GuardedResultSet(this, rs, parent);
    }

    DatabaseMetaData metaData(DatabaseMetaData m) {
        return m == null ? null : new GuardedMetaData(this, m);
    }

    /** The driver's result set is its own metadata: such metadata is guarded too. */
    ResultSetMetaData resultSetMetaData(ResultSetMetaData m) {
        return leadsBack(m) ? new GuardedResultSetMetaData(this, m) : m;
    }

    /** The driver's prepared statement is its own parameter metadata: guarded too. */
    ParameterMetaData parameterMetaData(ParameterMetaData m) {
        return leadsBack(m) ? new GuardedParameterMetaData(this, m) : m;
    }

    /** Whether {@code o} is one of the driver's objects that lead back to its connection. */
    private static boolean leadsBack(Object o) {
        return o instanceof Connection || o instanceof Statement || o instanceof ResultSet
                || o instanceof DatabaseMetaData;
    }

    String describe(Object target) {
        return "Guarded[" + database + ", " + target + "]";
    }
}
