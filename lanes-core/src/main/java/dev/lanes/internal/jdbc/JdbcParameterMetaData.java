package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.SqlLexer;
import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.HashSet;
import java.util.Set;

/**
 * The {@link ParameterMetaData} of a prepared statement, as sqlite-jdbc reports it: the count
 * SQLite's {@code sqlite3_bind_parameter_count} gives (the largest parameter index: {@code ?} is
 * the next index, {@code ?NNN} is NNN, a name gets the next index once and keeps it), and for each
 * parameter an input of unknown type ({@code java.lang.String}, nullable, signed, no precision).
 * SQLite declares no parameter types, so {@code getParameterType} is refused, as sqlite-jdbc
 * refuses it before a value is bound; Spring then binds a {@code null} as {@code Types.NULL}.
 *
 * <p>Immutable once counted: safe from any thread.
 */
final class JdbcParameterMetaData {
    private static final Proxies<ParameterMetaData> PROXIES =
            Proxies.of(ParameterMetaData.class);

    private JdbcParameterMetaData() {}

    static ParameterMetaData of(String sql) {
        int count = count(sql);
        return PROXIES.create((proxy, method, args) -> call(proxy, count, method.getName(),
                args));
    }

    /** SQLite's parameter count of {@code sql}: its largest parameter index. */
    static int count(String sql) {
        SqlLexer lex = new SqlLexer(sql);
        Set<String> names = new HashSet<>();
        int max = 0;
        while (lex.next()) {
            if (lex.kind() != SqlLexer.Kind.PARAMETER) {
                continue;
            }
            String p = lex.text();
            if (p.equals("?")) {
                max++;
            } else if (p.charAt(0) == '?') {
                max = Math.max(max, index(p));
            } else if (names.add(p)) {
                max++;
            }
        }
        return max;
    }

    /** The NNN of {@code ?NNN}; SQLite refuses one beyond its limit when it prepares it. */
    private static int index(String p) {
        try {
            return Integer.parseInt(p.substring(1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Object call(Object proxy, int count, String name, Object[] args)
            throws SQLException {
        switch (name) {
            case "toString":
                return "ParameterMetaData[" + count + " parameters]";
            case "getParameterCount":
                return count;
            default:
                break;
        }
        int i = (Integer) args[0];
        if (i < 1 || i > count) {
            throw new SQLException("parameter " + i + " out of range [1," + count + "]");
        }
        switch (name) {
            case "getParameterClassName":
                return String.class.getName();
            case "getParameterMode":
                return ParameterMetaData.parameterModeIn;
            case "isNullable":
                return ParameterMetaData.parameterNullable;
            case "isSigned":
                return true;
            case "getPrecision":
            case "getScale":
                return 0;
            default: // getParameterType, getParameterTypeName
                throw new SQLFeatureNotSupportedException("SQLite declares no parameter types ("
                        + name + ")");
        }
    }
}
