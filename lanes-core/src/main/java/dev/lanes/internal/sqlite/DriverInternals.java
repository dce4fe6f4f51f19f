package dev.lanes.internal.sqlite;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;
import org.sqlite.core.Codes;
import org.sqlite.core.CoreResultSet;
import org.sqlite.core.CoreStatement;
import org.sqlite.core.DB;
import org.sqlite.core.SafeStmtPtr;

/**
 * The one place that reaches into sqlite-jdbc below its public API: the native connection
 * ({@code org.sqlite.core.DB}), the driver's statements and result sets ({@code CoreStatement},
 * {@code CoreResultSet}), and the private fields of {@code org.sqlite.Function} and {@code DB}.
 * No other class uses {@code org.sqlite.core} ({@code DriverLinkageTest} pins it).
 *
 * <p>The driver does not promise these parts from one version to the next, so this class checks
 * once, when it is loaded, that each member it calls exists with the signature it was compiled
 * against ({@link #missing()}); {@link SqliteLibrary#require()} refuses the open with that
 * finding before anything here runs, so a driver that changed them fails with an {@code
 * UnsupportedDriverException} that says so, never with a {@code NoSuchMethodError}. The
 * members reached only reflectively ({@code DB.stmts}, the state of a {@code Function} call) are
 * optional: without them their callers fall back, as their own comments say.
 *
 * <p>Stateless but for handles found once; thread-safe. Each call runs on the thread that owns
 * the connection, as every driver call must.
 */
public final class DriverInternals {
    /** What the driver lacks of the members called directly below; null when nothing. */
    private static final String MISSING = findMissing();

    /** {@code DB.stmts}, the driver's set of open statements; null when unreachable. */
    private static final MethodHandle OPEN_STATEMENTS = findOpenStatements();

    /** The private state of a {@code Function} call; null when unreachable. */
    private static final FunctionState FUNCTION_STATE = FunctionState.find();

    private DriverInternals() {}

    /**
     * The first member this class calls that the driver on the class path lacks, as {@code
     * Class.member(signature)}; null when it has them all.
     */
    public static String missing() {
        return MISSING;
    }

    private static String findMissing() {
        try {
            String m = method(SQLiteConnection.class, "getDatabase", DB.class);
            m = m != null ? m : method(DB.class, "enable_load_extension", int.class, boolean.class);
            m = m != null ? m : method(DB.class, "limit", int.class, int.class, int.class);
            m = m != null ? m : method(DB.class, "interrupt", void.class);
            m = m != null ? m : method(DB.class, "total_changes", long.class);
            m = m != null ? m : method(DB.class, "step", int.class, long.class);
            m = m != null ? m : method(DB.class, "column_long", long.class, long.class, int.class);
            m = m != null ? m : method(DB.class, "reset", int.class, long.class);
            m = m != null ? m : method(DB.class, "throwex", void.class, int.class);
            m = m != null ? m
                    : method(DB.class, "column_decltype", String.class, long.class, int.class);
            m = m != null ? m : method(SafeStmtPtr.class, "safeRun", Object.class,
                    SafeStmtPtr.SafePtrFunction.class);
            m = m != null ? m : method(SafeStmtPtr.class, "safeRunLong", long.class,
                    SafeStmtPtr.SafePtrLongFunction.class);
            m = m != null ? m : method(SafeStmtPtr.SafePtrFunction.class, "run", Object.class,
                    DB.class, long.class);
            m = m != null ? m : method(SafeStmtPtr.SafePtrLongFunction.class, "run", long.class,
                    DB.class, long.class);
            m = m != null ? m : field(CoreStatement.class, "pointer", SafeStmtPtr.class);
            return m != null ? m : field(CoreResultSet.class, "colsMeta", String[].class);
        } catch (LinkageError e) {
            return "a class of org.sqlite.core (" + e + ")";
        }
    }

    /** Null when {@code owner} has the public method, else its description. */
    private static String method(Class<?> owner, String name, Class<?> returns,
            Class<?>... parameters) {
        try {
            Method m = owner.getMethod(name, parameters);
            if (m.getReturnType() == returns) {
                return null;
            }
        } catch (NoSuchMethodException e) {
            // described below
        }
        return owner.getName() + "." + name + MethodType.methodType(returns, parameters);
    }

    /** Null when {@code owner} has the public field, else its description. */
    private static String field(Class<?> owner, String name, Class<?> type) {
        try {
            Field f = owner.getField(name);
            if (f.getType() == type) {
                return null;
            }
        } catch (NoSuchFieldException e) {
            // described below
        }
        return owner.getName() + "." + name + " (" + type.getSimpleName() + ")";
    }

    // ------------------------------------------------------------------ the native connection

    /** {@code sqlite3_enable_load_extension}: SQLite's result code. */
    public static int enableLoadExtension(SQLiteConnection c, boolean on) throws SQLException {
        return c.getDatabase().enable_load_extension(on);
    }

    /** {@code sqlite3_limit(id, value)}: the limit before; a negative value only reads it. */
    public static int limit(SQLiteConnection c, int id, int value) throws SQLException {
        return c.getDatabase().limit(id, value);
    }

    /** {@code sqlite3_interrupt}: the statement running on {@code c} stops; any thread. */
    public static void interrupt(SQLiteConnection c) throws SQLException {
        c.getDatabase().interrupt();
    }

    /** {@code sqlite3_total_changes()} of the connection. */
    public static long totalChanges(SQLiteConnection c) throws SQLException {
        return c.getDatabase().total_changes();
    }

    /**
     * The statements the driver has open on {@code c}, read through its private statement set;
     * -1 when reading it failed, 0 when the driver keeps no such set that can be reached.
     */
    public static int openStatements(SQLiteConnection c) {
        if (OPEN_STATEMENTS == null) {
            return 0;
        }
        try {
            Set<?> statements = (Set<?>) OPEN_STATEMENTS.invokeExact(c.getDatabase());
            return statements.size();
        } catch (Throwable e) {
            return -1;
        }
    }

    private static MethodHandle findOpenStatements() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(DB.class,
                    MethodHandles.lookup());
            MethodHandle getter = lookup.findGetter(DB.class, "stmts", Set.class);
            return getter.asType(MethodType.methodType(Set.class, DB.class));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ statements and results

    /** Whether {@code s} is the driver's own statement, which the calls below take. */
    public static boolean isDriverStatement(Statement s) {
        return s instanceof CoreStatement;
    }

    /** Whether {@code rs} is the driver's own result set. */
    public static boolean isDriverResultSet(ResultSet rs) {
        return rs instanceof CoreResultSet;
    }

    /**
     * The column labels the driver fetched, all in one native call, when the query ran; null
     * when {@code rs} is not the driver's or holds none.
     */
    public static String[] columnLabels(ResultSet rs) {
        return rs instanceof CoreResultSet ? ((CoreResultSet) rs).colsMeta : null;
    }

    /**
     * Steps the driver's prepared statement {@code s} (a query of one row) once, directly, under
     * the monitor the driver's own calls take, and returns its first column as a long, leaving
     * it reset; throws SQLite's error when it returned no row. {@code s} must be {@linkplain
     * #isDriverStatement the driver's}.
     */
    public static long stepForLong(Statement s) throws SQLException {
        return ((CoreStatement) s).pointer.safeRunLong(DriverInternals::stepLong);
    }

    private static long stepLong(DB db, long statement) throws SQLException {
        int rc = db.step(statement);
        long value = rc == Codes.SQLITE_ROW ? db.column_long(statement, 0) : 0;
        int reset = db.reset(statement);
        if (rc != Codes.SQLITE_ROW) {
            db.throwex(rc);
        }
        if (reset != Codes.SQLITE_OK) {
            db.throwex(reset);
        }
        return value;
    }

    /**
     * The declared type of each of the first {@code n} columns of the prepared statement {@code
     * s} (null for an expression), or null when {@code s} does not wrap the driver's statement.
     */
    public static String[] declaredTypes(Statement s, int n) throws SQLException {
        CoreStatement core = s instanceof CoreStatement ? (CoreStatement) s
                : s.isWrapperFor(CoreStatement.class) ? s.unwrap(CoreStatement.class) : null;
        if (core == null) {
            return null;
        }
        return core.pointer.safeRun((db, pointer) -> {
            String[] declared = new String[n];
            for (int i = 0; i < n; i++) {
                declared[i] = db.column_decltype(pointer, i);
            }
            return declared;
        });
    }

    // ------------------------------------------------------------------ user functions

    /** Whether a function call's state can be handed from one instance to another. */
    static boolean functionsReachable() {
        return FUNCTION_STATE != null;
    }

    /**
     * Copies the state of the call under way on {@code from} (its connection, {@code DB},
     * {@code sqlite3_context} and arguments) into {@code to}, runs {@code to}'s {@code xFunc},
     * and clears the pointers again; only when {@link #functionsReachable()}, on the thread
     * SQLite called {@code from} on.
     *
     * @throws Throwable what {@code to} threw
     */
    static void handOn(Function from, Function to, SQLiteConnection c) throws Throwable {
        FunctionState f = FUNCTION_STATE;
        f.conn.set(to, c);
        f.db.set(to, c.getDatabase());
        f.context.set(to, (long) f.context.get(from));
        f.value.set(to, (long) f.value.get(from));
        f.args.set(to, (int) f.args.get(from));
        try {
            f.xFunc.invokeExact(to);
        } finally {
            f.context.set(to, 0L);
            f.value.set(to, 0L);
            f.args.set(to, 0);
        }
    }

    /** The private fields of {@code org.sqlite.Function} that hold a call's state. */
    private record FunctionState(VarHandle conn, VarHandle db, VarHandle context,
            VarHandle value, VarHandle args, MethodHandle xFunc) {
        static FunctionState find() {
            try {
                MethodHandles.Lookup l = MethodHandles.privateLookupIn(Function.class,
                        MethodHandles.lookup());
                return new FunctionState(
                        l.findVarHandle(Function.class, "conn", SQLiteConnection.class),
                        l.findVarHandle(Function.class, "db", DB.class),
                        l.findVarHandle(Function.class, "context", long.class),
                        l.findVarHandle(Function.class, "value", long.class),
                        l.findVarHandle(Function.class, "args", int.class),
                        l.findVirtual(Function.class, "xFunc", MethodType.methodType(void.class)));
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }
    }
}
