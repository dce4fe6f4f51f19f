package dev.lanes.internal.sqlite;

import dev.lanes.internal.util.LogNames;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;

/**
 * Lanes' own function registered on one connection in place of a user's {@link Function}: it
 * hands each call to the user's instance and turns a throw into an SQL error that names the
 * function (the driver would report only the exception's text).
 *
 * <p>The driver keeps a call's state in fields of {@code org.sqlite.Function} that are not
 * public (the connection and its {@code DB}, the {@code sqlite3_context} and argument pointers),
 * set by {@code Function.create} and by the native call. The trampoline copies this call's state
 * into the user's instance before each call and clears the pointers after it ({@link
 * DriverInternals#handOn}); where the driver's package is not open to Lanes, {@link
 * #available()} is false, a per-connection instance is registered directly, and a shared one is
 * refused.
 *
 * <p>Concurrency: a trampoline belongs to one connection, and SQLite calls it only on the thread
 * stepping that connection's statement. A user instance given once for every connection
 * ({@code shared}) is called from several connections at once, so each call holds that
 * instance's {@link ReentrantLock} (one per instance, from {@link #LOCKS}) from the copy of the
 * state to its clearing: the calls take turns and none sees another's pointers. Its {@code DB} is
 * set to this connection's, whose monitor the stepping thread already holds, so a call never
 * waits for another connection's monitor while holding the lock (the driver's own sharing of one
 * instance deadlocks exactly so). A per-connection instance needs no lock.
 */
final class FunctionTrampoline extends Function {
    private static final Logger log = LoggerFactory.getLogger(LogNames.LIFECYCLE);

    /** The lock of each shared instance, held weakly: an instance no database uses goes. */
    private static final Map<Function, ReentrantLock> LOCKS =
            Collections.synchronizedMap(new WeakHashMap<>());

    static {
        if (!DriverInternals.functionsReachable()) {
            log.debug("sqlite-jdbc's Function is not open to Lanes; user functions are "
                    + "registered directly and their errors do not name them");
        }
    }

    private final String name;
    private final Function target;
    /** Held around each call when {@link #target} is shared between connections; else null. */
    private final ReentrantLock lock;
    private final SQLiteConnection connection;

    private FunctionTrampoline(String name, Function target, ReentrantLock lock,
            SQLiteConnection connection) {
        this.name = name;
        this.target = target;
        this.lock = lock;
        this.connection = connection;
    }

    /** Whether the driver's fields are reachable, so that calls can be handed on. */
    static boolean available() {
        return DriverInternals.functionsReachable();
    }

    /**
     * Registers {@code fn} on {@code c} under {@code name} and {@code nArgs}, through a
     * trampoline when {@link #available()}; a {@code shared} instance only so.
     */
    static void register(SQLiteConnection c, String name, int nArgs, int flags, Function fn,
            boolean shared) throws SQLException {
        if (!available()) {
            if (shared) {
                throw new SQLException("function " + name + " was given as one instance for "
                        + "every connection, which needs sqlite-jdbc's org.sqlite package open to "
                        + "Lanes; give a Supplier of instances instead");
            }
            Function.create(c, name, fn, nArgs, flags);
            return;
        }
        ReentrantLock lock = shared ? LOCKS.computeIfAbsent(fn, f -> new ReentrantLock()) : null;
        Function.create(c, name, new FunctionTrampoline(name, fn, lock, c), nArgs, flags);
    }

    @Override
    protected void xFunc() throws SQLException {
        if (lock != null) {
            lock.lock();
        }
        try {
            try {
                DriverInternals.handOn(this, target, connection);
            } catch (Throwable e) {
                error("function " + name + " failed: " + e);
            }
        } finally {
            if (lock != null) {
                lock.unlock();
            }
        }
    }
}
