package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.text.SqlLexer;
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
 * Equality is identity; {@code unwrap} gives the metadata itself.
 *
 * <p>Immutable once counted: safe from any thread.
 */
final class JdbcParameterMetaData implements ParameterMetaData, OwnWrapper {
    private final int count;

    private JdbcParameterMetaData(int count) {
        this.count = count;
    }

    static ParameterMetaData of(String sql) {
        return new JdbcParameterMetaData(count(sql));
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

    @Override
    public int getParameterCount() {
        return count;
    }

    private void check(int param) throws SQLException {
        if (param < 1 || param > count) {
            throw new SQLException("parameter " + param + " out of range [1," + count + "]");
        }
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        check(param);
        return String.class.getName();
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        check(param);
        return ParameterMetaData.parameterModeIn;
    }

    @Override
    public int isNullable(int param) throws SQLException {
        check(param);
        return ParameterMetaData.parameterNullable;
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        check(param);
        return true;
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        check(param);
        return 0;
    }

    @Override
    public int getScale(int param) throws SQLException {
        check(param);
        return 0;
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        check(param);
        throw noTypes("getParameterType");
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        check(param);
        throw noTypes("getParameterTypeName");
    }

    private static SQLException noTypes(String call) {
        return new SQLFeatureNotSupportedException("SQLite declares no parameter types ("
                + call + ")");
    }

    @Override
    public String toString() {
        return "ParameterMetaData[" + count + " parameters]";
    }
}
