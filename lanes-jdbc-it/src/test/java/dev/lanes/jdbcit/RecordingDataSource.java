package dev.lanes.jdbcit;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * A data source that passes every call to another and records the SQL a library runs, with the
 * connection it ran on and whether that connection was in a transaction (auto-commit off) at the
 * time: how a test sees what Hibernate or Flyway really send.
 *
 * <p>Thread-safe: the log is guarded by {@link #lock}; the proxies hold no other state.
 */
final class RecordingDataSource {
    /** One SQL text as it was prepared or executed. */
    record Executed(int connection, String sql, boolean inTransaction) {}

    private final DataSource target;
    private final AtomicInteger connections = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Executed> log = new ArrayList<>();

    RecordingDataSource(DataSource target) {
        this.target = target;
    }

    DataSource dataSource() {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(target, method, args);
                    return result instanceof Connection
                            ? connection((Connection) result, connections.incrementAndGet())
                            : result;
                });
    }

    List<Executed> log() {
        lock.lock();
        try {
            return List.copyOf(log);
        } finally {
            lock.unlock();
        }
    }

    private Connection connection(Connection c, int id) {
        InvocationHandler h = (proxy, method, args) -> {
            Object result = invoke(c, method, args);
            if (method.getName().startsWith("prepare") && args != null
                    && args[0] instanceof String) {
                record(id, (String) args[0], c);
                return statement(result, PreparedStatement.class, id, c);
            }
            if (result instanceof Statement) {
                return statement(result, Statement.class, id, c);
            }
            return result;
        };
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, h);
    }

    private Object statement(Object s, Class<?> type, int id, Connection c) {
        InvocationHandler h = (proxy, method, args) -> {
            if (method.getName().startsWith("execute") && args != null
                    && args.length > 0 && args[0] instanceof String) {
                record(id, (String) args[0], c);
            }
            return invoke(s, method, args);
        };
        return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, h);
    }

    private void record(int id, String sql, Connection c) throws java.sql.SQLException {
        boolean inTransaction = !c.getAutoCommit();
        lock.lock();
        try {
            log.add(new Executed(id, sql, inTransaction));
        } finally {
            lock.unlock();
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
