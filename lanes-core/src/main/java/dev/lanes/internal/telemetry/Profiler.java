package dev.lanes.internal.telemetry;

import dev.lanes.Profile;
import dev.lanes.Profiled;
import dev.lanes.SqlFunction;
import dev.lanes.internal.util.Clock;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * Counts what one profiled command does on its connection: parameters bound, rows and columns
 * read, bytes of values read. It wraps the connection a body receives (already guarded) in
 * proxies that count and delegate; nothing of it exists for a command that is not profiled.
 * Used by the one thread that runs the command.
 */
public final class Profiler {
    private int binds;
    private long rows;
    private int columns;
    private long bytes;

    private Profiler() {}

    /** Forgets earlier counts: a body run again after its group was replayed starts afresh. */
    private void reset() {
        binds = 0;
        rows = 0;
        columns = 0;
        bytes = 0;
    }

    private Profile profile(long waitNanos, long executionNanos) {
        return new Profile(Duration.ofNanos(Math.max(0, waitNanos)), Duration.ofNanos(executionNanos),
                binds, rows, columns, bytes);
    }

    private Connection wrap(Connection c) {
        return proxy(c, Connection.class);
    }

    /**
     * A body profiled: {@code run} runs the body it is given where the plain form runs {@code
     * body} (a write or a read of the database), and the profile counts what {@code body} did on
     * its connection, waiting from the call until it started.
     */
    public static <T> Profiled<T> body(Clock clock, SqlFunction<T> body,
            Function<SqlFunction<T>, T> run) {
        Objects.requireNonNull(body, "body");
        Profiler profiler = new Profiler();
        long[] span = new long[2];
        long called = clock.nanoTime();
        T value = run.apply(c -> profiler.run(clock, span, c, body));
        return new Profiled<>(value, profiler.profile(span[0] - called, span[1] - span[0]));
    }

    /**
     * Runs a profiled body on {@code c}, counting through {@link #wrap}, and stamps in {@code
     * span} when it started and ended ({@code clock}'s nanos). Forgets earlier counts first: a
     * body run again after its group was replayed counts its last run only.
     */
    private <T> T run(Clock clock, long[] span, Connection c, SqlFunction<T> body)
            throws Exception {
        reset();
        span[0] = clock.nanoTime();
        try {
            return body.apply(wrap(c));
        } finally {
            span[1] = clock.nanoTime();
        }
    }

    private <T> T proxy(T target, Class<T> type) {
        return type.cast(Proxy.newProxyInstance(Profiler.class.getClassLoader(),
                new Class<?>[] {type}, new Counting(target)));
    }

    private final class Counting implements InvocationHandler {
        private final Object target;
        private boolean widthKnown;

        Counting(Object target) {
            this.target = target;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            Class<?> declaring = method.getDeclaringClass();
            String name = method.getName();
            if (declaring == PreparedStatement.class && name.startsWith("set") && args != null
                    && args.length >= 2 && args[0] instanceof Integer) {
                binds++;
            } else if (target instanceof ResultSet && declaring == ResultSet.class) {
                count((ResultSet) target, name, result);
            }
            Class<?> returned = method.getReturnType();
            if (result != null && returned == PreparedStatement.class) {
                return proxy((PreparedStatement) result, PreparedStatement.class);
            }
            if (result != null && returned == Statement.class) {
                return proxy((Statement) result, Statement.class);
            }
            if (result != null && returned == ResultSet.class) {
                return proxy((ResultSet) result, ResultSet.class);
            }
            return result;
        }

        private void count(ResultSet rs, String name, Object value) throws Exception {
            if (name.equals("next")) {
                if (Boolean.TRUE.equals(value)) {
                    rows++;
                    if (!widthKnown) {
                        widthKnown = true;
                        columns = Math.max(columns, rs.getMetaData().getColumnCount());
                    }
                }
            } else if (name.startsWith("get") && isValueGetter(name)) {
                bytes += sizeOf(value);
            }
        }
    }

    private static boolean isValueGetter(String name) {
        switch (name) {
            case "getMetaData":
            case "getStatement":
            case "getRow":
            case "getType":
            case "getConcurrency":
            case "getFetchDirection":
            case "getFetchSize":
            case "getWarnings":
            case "getCursorName":
            case "getHoldability":
                return false;
            default:
                return true;
        }
    }

    /** The bytes a value read counts for: UTF-8 bytes of text, a blob's length, 8 else. */
    public static long sizeOf(Object value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof String) {
            return ((String) value).getBytes(StandardCharsets.UTF_8).length;
        }
        if (value instanceof byte[]) {
            return ((byte[]) value).length;
        }
        return 8;
    }
}
