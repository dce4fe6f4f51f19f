package dev.lanes.internal.guard.delegating;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ParameterMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Wrapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The plain delegation forwards every method of each JDBC interface to the same method of its
 * delegate, with the same arguments, once: a call on the delegating object reaches the recording
 * delegate as that very method. The metadata's answers of the database alone each have their own
 * constant slot, and there are as many as {@link DelegatingDatabaseMetaData#CONSTANTS} says.
 */
class DelegationTest {
    /** The methods the recording delegate received, in order. */
    private final List<Method> received = new ArrayList<>();

    private <T> T recording(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    received.add(method);
                    return defaultOf(method.getReturnType());
                }));
    }

    private static Object defaultOf(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type.isPrimitive() && type != void.class) {
            return java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(type, 1), 0);
        }
        return null;
    }

    /** Calls every method of {@code type} on {@code delegating}; the ones not forwarded as such. */
    private List<String> notForwarded(Class<?> type, Object delegating) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Wrapper.class) {
                continue;
            }
            Object[] args = new Object[m.getParameterCount()];
            for (int i = 0; i < args.length; i++) {
                args[i] = defaultOf(m.getParameterTypes()[i]);
            }
            received.clear();
            try {
                m.invoke(delegating, args);
            } catch (InvocationTargetException e) {
                wrong.add(m + " threw " + e.getCause());
                continue;
            }
            if (received.size() != 1 || !sameSignature(received.get(0), m)) {
                wrong.add(m + " reached " + received);
            }
        }
        return wrong;
    }

    private static boolean sameSignature(Method a, Method b) {
        return a.getName().equals(b.getName())
                && java.util.Arrays.equals(a.getParameterTypes(), b.getParameterTypes());
    }

    /** The wrapper calls the delegating classes leave to their subclasses: not under test. */
    private interface NoWrapper extends Wrapper {
        @Override
        default <T> T unwrap(Class<T> iface) {
            return null;
        }

        @Override
        default boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }

    @Test
    void everyConnectionMethodIsForwarded() throws Exception {
        Connection target = recording(Connection.class);
        class Forwarding extends DelegatingConnection implements NoWrapper {
            @Override
            protected Connection delegate() {
                return target;
            }
        }
        assertThat(notForwarded(Connection.class, new Forwarding())).isEmpty();
    }

    /** A statement of all three statement types, as the guard's callable statement is. */
    private static final class Callable extends DelegatingStatement<CallableStatement>
            implements DelegatingCallableStatement<CallableStatement>, NoWrapper {
        private final CallableStatement target;

        Callable(CallableStatement target) {
            this.target = target;
        }

        @Override
        public CallableStatement delegate() {
            return target;
        }
    }

    @Test
    void everyStatementMethodOfTheThreeTypesIsForwarded() throws Exception {
        Callable s = new Callable(recording(CallableStatement.class));
        assertThat(notForwarded(CallableStatement.class, s)).isEmpty();
    }

    @Test
    void everyResultSetAndMetaDataMethodIsForwarded() throws Exception {
        ResultSet rs = recording(ResultSet.class);
        class Results extends DelegatingResultSet implements NoWrapper {
            @Override
            protected ResultSet delegate() {
                return rs;
            }
        }
        assertThat(notForwarded(ResultSet.class, new Results())).isEmpty();
        ResultSetMetaData rsmd = recording(ResultSetMetaData.class);
        class Columns extends DelegatingResultSetMetaData implements NoWrapper {
            @Override
            protected ResultSetMetaData delegate() {
                return rsmd;
            }
        }
        assertThat(notForwarded(ResultSetMetaData.class, new Columns())).isEmpty();
        ParameterMetaData pmd = recording(ParameterMetaData.class);
        class Parameters extends DelegatingParameterMetaData implements NoWrapper {
            @Override
            protected ParameterMetaData delegate() {
                return pmd;
            }
        }
        assertThat(notForwarded(ParameterMetaData.class, new Parameters())).isEmpty();
    }

    @Test
    void everyDatabaseMetaDataMethodIsForwardedAndEachConstantHasItsOwnSlot() throws Exception {
        DatabaseMetaData target = recording(DatabaseMetaData.class);
        Set<Integer> slots = new HashSet<>();
        List<Integer> calls = new ArrayList<>();
        class Meta extends DelegatingDatabaseMetaData implements NoWrapper {
            @Override
            protected <T> T call(Call<T> call) throws SQLException {
                return call.on(target);
            }

            @Override
            protected ResultSet rows(Call<ResultSet> call) throws SQLException {
                return call.on(target);
            }

            @Override
            protected <T> T constant(int slot, Call<T> call) throws SQLException {
                slots.add(slot);
                calls.add(slot);
                return call.on(target);
            }
        }
        assertThat(notForwarded(DatabaseMetaData.class, new Meta())).isEmpty();
        assertThat(calls).as("one slot per constant").hasSameSizeAs(slots);
        assertThat(slots).hasSize(DelegatingDatabaseMetaData.CONSTANTS)
                .allMatch(s -> s >= 0 && s < DelegatingDatabaseMetaData.CONSTANTS);
    }
}
