package dev.lanes.internal.guard;

import dev.lanes.internal.sql.ReadOnlyClassifier;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link Connection} a read body receives: a reader connection behind a guard.
 *
 * <p>Refused before SQLite runs anything: SQL that writes or controls the transaction (judged by
 * {@link ReadOnlyClassifier}) and {@code commit}, {@code rollback}, savepoints and {@code
 * setAutoCommit}, with {@link ReadOnlyViolationException}; {@code close}, {@code abort} and
 * changes to connection-wide settings, with {@link InvalidRequestException}. A refusal is
 * remembered, so a body that swallows it still fails. Statements it hands out are guarded the
 * same way and closed when the read ends. Before each statement runs, the read's deadline and
 * cancellation are checked, so a stopped read starts no new statement.
 *
 * <p>Confinement: valid only on the thread running the read and only until the read ends; any
 * other use fails. Not thread-safe, by design: it has one user.
 *
 * <p>{@code unwrap} is the deliberate escape hatch to the driver's connection, as for writes;
 * {@code query_only} still refuses writes there, and the reader is verified after the body.
 */
public final class ReadGuard implements InvocationHandler {
    /** Checks the read's deadline and cancellation; throws the read's failure when stopped. */
    public interface StopCheck {
        void check();
    }

    private final String name;
    private final Connection raw;
    private final Thread owner;
    private final StopCheck stopCheck;
    private final Connection proxy;
    private final List<Statement> statements = new ArrayList<>(2);
    private boolean open = true;
    private LanesException refusal;

    public ReadGuard(String name, Connection raw, StopCheck stopCheck) {
        this.name = name;
        this.raw = raw;
        this.owner = Thread.currentThread();
        this.stopCheck = stopCheck;
        this.proxy = (Connection) Proxy.newProxyInstance(ReadGuard.class.getClassLoader(),
                new Class<?>[] {Connection.class}, this);
    }

    /** The guarded connection to hand to the body. */
    public Connection connection() {
        return proxy;
    }

    /** The first refusal this guard raised, even if the body caught it; null when none. */
    public LanesException refusal() {
        return refusal;
    }

    /** Ends the read: closes the statements the body left open, and refuses later use. */
    public void end() {
        open = false;
        for (Statement s : statements) {
            try {
                s.close();
            } catch (SQLException ignored) {
                // a statement the body broke; the reader is verified after the body anyway
            }
        }
        statements.clear();
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        String m = method.getName();
        if (method.getDeclaringClass() == Object.class) {
            return objectMethod(self, m, args, "ReadGuard[" + name + "]");
        }
        switch (m) {
            case "isClosed":
                return !open;
            case "isValid":
                return open && Thread.currentThread() == owner;
            default:
                check();
        }
        switch (m) {
            case "createStatement":
                return track((Statement) delegate(method, args), Statement.class);
            case "prepareStatement":
                checkSql((String) args[0]);
                return track((Statement) delegate(method, args), PreparedStatement.class);
            case "prepareCall":
                checkSql((String) args[0]);
                return track((Statement) delegate(method, args), CallableStatement.class);
            case "commit":
            case "rollback":
            case "setSavepoint":
            case "releaseSavepoint":
            case "setAutoCommit":
                throw remember(new ReadOnlyViolationException(name + ": " + m + "() is refused "
                        + "in a read: the reader owns its transaction, and a read body sees one "
                        + "snapshot from start to end"));
            case "setReadOnly":
                if (Boolean.TRUE.equals(args[0])) {
                    return null; // it is read-only already
                }
                throw remember(new ReadOnlyViolationException(name + ": setReadOnly(false) is "
                        + "refused: reads run on read-only connections; write with db.write"));
            case "isReadOnly":
                return true;
            case "getAutoCommit":
                return false; // the body runs inside the read's transaction
            case "close":
            case "abort":
                throw remember(new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": "
                        + m + "() is refused in a read: the reader connection is reused by later "
                        + "reads", null));
            case "setTransactionIsolation":
            case "setCatalog":
            case "setSchema":
            case "setHoldability":
            case "setNetworkTimeout":
            case "setTypeMap":
                throw remember(new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": "
                        + m + " is refused in a read: the connection is shared with later reads; "
                        + "configure the database through DatabaseOptions", null));
            case "unwrap":
                if (((Class<?>) args[0]).isInstance(self)) {
                    return self;
                }
                return raw.unwrap((Class<?>) args[0]);
            case "isWrapperFor":
                Class<?> type = (Class<?>) args[0];
                return type.isInstance(self) || raw.isWrapperFor(type);
            default:
                return delegate(method, args);
        }
    }

    private Object delegate(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(raw, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Object objectMethod(Object self, String m, Object[] args, String text) {
        switch (m) {
            case "equals":
                return self == args[0];
            case "hashCode":
                return System.identityHashCode(self);
            default:
                return text;
        }
    }

    private void check() {
        if (!open || Thread.currentThread() != owner) {
            throw remember(new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": this "
                    + "connection belongs to a read that has ended or runs on another thread; use "
                    + "it only inside its body", null));
        }
    }

    /** Refuses SQL a reader must not run, and stops a read past its deadline or cancelled. */
    private void checkSql(String sql) {
        check();
        if (sql != null) {
            String why = ReadOnlyClassifier.refusal(sql);
            if (why != null) {
                throw remember(violation(name, why));
            }
        }
        stopCheck.check();
    }

    public static ReadOnlyViolationException violation(String name, String why) {
        return new ReadOnlyViolationException(name + ": " + why + " is refused on a reader; reads "
                + "run on read-only connections, so write with db.write or db.execute");
    }

    private LanesException remember(LanesException e) {
        if (refusal == null) {
            refusal = e;
        }
        return e;
    }

    private <S extends Statement> S track(Statement rawStatement, Class<S> type) {
        statements.add(rawStatement);
        return type.cast(Proxy.newProxyInstance(ReadGuard.class.getClassLoader(),
                new Class<?>[] {type}, new StatementGuard(rawStatement)));
    }

    /** Checks SQL passed to a statement's execute and addBatch methods; hides the connection. */
    private final class StatementGuard implements InvocationHandler {
        private final Statement rawStatement;

        StatementGuard(Statement rawStatement) {
            this.rawStatement = rawStatement;
        }

        @Override
        public Object invoke(Object self, Method method, Object[] args) throws Throwable {
            String m = method.getName();
            if (method.getDeclaringClass() == Object.class) {
                return objectMethod(self, m, args, "ReadGuard[" + rawStatement + "]");
            }
            boolean runs = m.startsWith("execute") || m.equals("addBatch");
            if (runs && args != null && args.length > 0 && args[0] instanceof String) {
                checkSql((String) args[0]);
            } else if (runs) {
                check();
                stopCheck.check();
            } else if (!m.equals("close") && !m.equals("isClosed")) {
                check();
            }
            if (m.equals("getConnection")) {
                return proxy;
            }
            try {
                return method.invoke(rawStatement, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
