package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConfig;

/**
 * The whole surface of the data source's statements, result sets and their metadata: every
 * method of the JDBC interfaces answers or fails with an {@link SQLException} (never an
 * unchecked exception, such as an interface's default {@code UnsupportedOperationException}),
 * what JDBC lets a driver refuse fails with {@link SQLFeatureNotSupportedException} rather than
 * being ignored, a closed object refuses everything but {@code close}, {@code isClosed} and the
 * wrapper calls, and the objects are what they say they are (identity, {@code unwrap}, the
 * logical statement and connection behind them).
 */
@Timeout(60)
class JdbcSurfaceTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    /** Methods that end or inspect the object's life, answered also once it is closed. */
    private static final Set<String> LIFE = Set.of("close", "isClosed", "unwrap",
            "isWrapperFor");

    /** What JDBC lets a forward-only, read-only result set refuse, by name. */
    private static final Set<String> REFUSED_RESULT_SET_CALLS = Set.of("insertRow", "deleteRow",
            "refreshRow", "moveToInsertRow", "moveToCurrentRow", "cancelRowUpdates",
            "rowUpdated", "rowInserted", "rowDeleted", "getBlob", "getClob", "getNClob",
            "getArray", "getRef", "getURL", "getRowId", "getSQLXML");
    private static final Set<String> SCROLLING = Set.of("first", "last", "absolute", "relative",
            "previous", "beforeFirst", "afterLast");

    @Test
    void everyMethodAnswersOrFailsWithAnSqlException() throws Exception {
        Database db = fixture.open("surface.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");
        try (Connection c = db.dataSource().getConnection()) {
            List<String> unchecked = new ArrayList<>();
            try (Statement s = c.createStatement()) {
                sweep(Statement.class, s, unchecked);
            }
            try (PreparedStatement p = c.prepareStatement("SELECT ?")) {
                sweep(PreparedStatement.class, p, unchecked);
                sweep(ParameterMetaData.class, p.getParameterMetaData(), unchecked);
            }
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT id, v FROM t")) {
                assertThat(rs.next()).isTrue();
                sweep(ResultSetMetaData.class, rs.getMetaData(), unchecked);
                sweep(ResultSet.class, rs, unchecked);
            }
            assertThat(unchecked).isEmpty();
        }
    }

    @Test
    void aClosedStatementOrResultSetRefusesAllButItsLifeCalls() throws Exception {
        Database db = fixture.open("closed.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");
        try (Connection c = db.dataSource().getConnection()) {
            List<String> answered = new ArrayList<>();
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT id, v FROM t");
            rs.close();
            assertThat(rs.isClosed()).isTrue();
            sweepClosed(ResultSet.class, rs, answered);
            s.close();
            assertThat(s.isClosed()).isTrue();
            sweepClosed(Statement.class, s, answered);
            PreparedStatement p = c.prepareStatement("SELECT ?");
            p.close();
            sweepClosed(PreparedStatement.class, p, answered);
            assertThat(answered).as("answered though closed").isEmpty();
            assertThat(rs.unwrap(ResultSet.class)).isSameAs(rs);
            assertThat(p.isWrapperFor(PreparedStatement.class)).isTrue();
        }
    }

    @Test
    void whatAForwardOnlyReadOnlyResultSetMayRefuseIsRefused() throws Exception {
        Database db = fixture.open("refuse.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, v FROM t")) {
            assertThat(rs.next()).isTrue();
            List<String> wrong = new ArrayList<>();
            for (Method m : ResultSet.class.getMethods()) {
                String name = m.getName();
                boolean refused = name.startsWith("update")
                        || REFUSED_RESULT_SET_CALLS.contains(name);
                if (!refused && !SCROLLING.contains(name)) {
                    continue;
                }
                Throwable t = call(m, rs);
                if (refused && !(t instanceof SQLFeatureNotSupportedException)) {
                    wrong.add(signature(m) + " gave " + t + ", not refused");
                }
                if (SCROLLING.contains(name) && (!(t instanceof SQLException)
                        || t instanceof SQLFeatureNotSupportedException)) {
                    wrong.add(signature(m) + " gave " + t + ", not a forward-only error");
                }
            }
            assertThat(wrong).isEmpty();
            assertThatThrownBy(() -> rs.getObject(1, Map.of("T", String.class)))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> rs.setFetchDirection(ResultSet.FETCH_REVERSE))
                    .isInstanceOf(SQLException.class);
            assertThat(rs.getString("V")).as("labels ignore case").isEqualTo("x");
            assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
            assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
        }
    }

    @Test
    void whatAStatementMayRefuseIsRefused() throws Exception {
        Database db = fixture.open("refuse-statement.db");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
                PreparedStatement p = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            assertThatThrownBy(s::cancel).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> s.setCursorName("c"))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.setURL(1, new URL("http://example.org")))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.setArray(1, null))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.setRef(1, null))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.setRowId(1, null))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.setSQLXML(1, null))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> p.addBatch("SELECT 1")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> p.setString(0, "x")).isInstanceOf(SQLException.class);
        }
    }

    /**
     * Fixed: {@code setBlob(int, Blob)}, {@code setClob(int, Clob)} and {@code setNClob(int,
     * NClob)} failed with a {@code ClassCastException}; the driver refuses them (a {@code Blob}
     * of this data source cannot exist: {@code createBlob} is refused), and so does the data
     * source now, and binds the stream and reader variants.
     */
    @Test
    void lobObjectsAreRefusedAndLobStreamsBound() throws Exception {
        Database db = fixture.open("lobs.db");
        Blob blob = (Blob) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Blob.class, Clob.class, NClob.class}, (proxy, m, a) -> {
                    throw new AssertionError("the data source read a LOB it refuses: " + m);
                });
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement p = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            assertThatThrownBy(() -> p.setBlob(1, blob))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.setClob(1, (Clob) blob))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> p.setNClob(1, (NClob) blob))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            p.setClob(1, new StringReader("clob text"));
            assertThat(p.executeUpdate()).isEqualTo(1);
            p.setBlob(1, new ByteArrayInputStream(new byte[] {1, 2}));
            assertThat(p.executeUpdate()).isEqualTo(1);
        }
        assertThat(db.query("SELECT typeof(v) AS k, hex(v) AS h FROM t ORDER BY id").stream()
                .map(r -> r.getString("k") + ":" + r.getString("h")).toList())
                .containsExactly("text:" + hex("clob text".getBytes()), "blob:0102");
    }

    @Test
    void objectsAreThemselvesAndLeadBackToTheLogicalConnection() throws Exception {
        Database db = fixture.open("identity.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
                PreparedStatement p = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
            assertThat(s.getConnection()).isSameAs(c);
            assertThat(p.getConnection()).isSameAs(c);
            assertThat(s).as("a plain statement is no prepared one")
                    .isNotInstanceOf(PreparedStatement.class);
            assertThat(s.isWrapperFor(PreparedStatement.class)).isFalse();
            assertThat(s.unwrap(Statement.class)).isSameAs(s);
            assertThatThrownBy(() -> s.unwrap(PreparedStatement.class))
                    .isInstanceOf(SQLException.class);
            assertThat(p.unwrap(PreparedStatement.class)).isSameAs(p);
            assertThat(p).isEqualTo(p).isNotEqualTo(c.prepareStatement("SELECT 1"));
            assertThat(p.hashCode()).isEqualTo(System.identityHashCode(p));
            p.setLong(1, 1);
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.getStatement()).isSameAs(p);
                assertThat(rs.unwrap(ResultSet.class)).isSameAs(rs);
                assertThat(rs.isWrapperFor(Statement.class)).isFalse();
                assertThat(rs).isEqualTo(rs);
                assertThat(rs.hashCode()).isEqualTo(System.identityHashCode(rs));
                ResultSetMetaData meta = rs.getMetaData();
                assertThat(meta.unwrap(ResultSetMetaData.class)).isSameAs(meta);
                assertThat(meta.isWrapperFor(ResultSet.class)).isFalse();
                assertThat(p.getResultSet()).isSameAs(rs);
            }
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.getStatement()).isSameAs(s);
                assertThat(keys.next()).as("no insert ran").isFalse();
            }
        }
    }

    /**
     * The driver closes a statement whose {@code closeOnCompletion()} was called once its result
     * set closes (JDBC 4.1); the data source did not (it only remembered the call).
     */
    @Test
    void closeOnCompletionClosesTheStatementWithItsResultAsTheDriverDoes() throws Exception {
        Database db = fixture.open("completion.db");
        try (Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path());
                Connection lanes = db.dataSource().getConnection()) {
            for (Connection c : List.of(raw, lanes)) {
                Statement s = c.createStatement();
                s.closeOnCompletion();
                assertThat(s.isCloseOnCompletion()).isTrue();
                ResultSet rs = s.executeQuery("SELECT 1");
                assertThat(s.isClosed()).isFalse();
                rs.close();
                assertThat(s.isClosed()).as("%s", c).isTrue();
            }
        }
    }

    @Test
    void maxRowsCutsTheResultAndTheLargeVariantsAnswerAsTheDriversDo() throws Exception {
        Database db = fixture.open("maxrows.db");
        for (int i = 0; i < 5; i++) {
            db.execute("INSERT INTO t(v) VALUES (?)", "r" + i);
        }
        try (Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path());
                Connection lanes = db.dataSource().getConnection()) {
            assertThat(maxRowsRun(lanes)).isEqualTo(maxRowsRun(raw)).isEqualTo("2 2 3 3");
        }
    }

    private static String maxRowsRun(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.setMaxRows(2);
            String first = s.getMaxRows() + " " + rows(s);
            s.setLargeMaxRows(3);
            return first + " " + s.getLargeMaxRows() + " " + rows(s);
        }
    }

    private static int rows(Statement s) throws SQLException {
        int n = 0;
        try (ResultSet rs = s.executeQuery("SELECT v FROM t")) {
            while (rs.next()) {
                n++;
            }
        }
        return n;
    }

    @Test
    void quotingHelpersWorkAsTheInterfaceDefinesThem() throws Exception {
        Database db = fixture.open("quote.db");
        try (Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path());
                Connection lanes = db.dataSource().getConnection();
                Statement r = raw.createStatement(); Statement l = lanes.createStatement()) {
            assertThat(l.enquoteLiteral("it's")).isEqualTo(r.enquoteLiteral("it's"))
                    .isEqualTo("'it''s'");
            assertThat(l.enquoteIdentifier("a b", false))
                    .isEqualTo(r.enquoteIdentifier("a b", false));
            assertThat(l.isSimpleIdentifier("abc")).isEqualTo(r.isSimpleIdentifier("abc"));
            assertThat(l.enquoteNCharLiteral("x")).isEqualTo(r.enquoteNCharLiteral("x"));
        }
    }

    // ------------------------------------------------------------------ sweeps

    /** Calls every method of {@code type} on {@code target}; notes unchecked failures. */
    private static void sweep(Class<?> type, Object target, List<String> unchecked) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals("close")) {
                continue;
            }
            Throwable t = call(m, target);
            if (t != null && !(t instanceof SQLException)) {
                unchecked.add(type.getSimpleName() + "." + signature(m) + ": " + t);
            }
        }
    }

    /** Calls every method but the life calls on a closed {@code target}; notes answers. */
    private static void sweepClosed(Class<?> type, Object target, List<String> answered) {
        for (Method m : type.getMethods()) {
            if (LIFE.contains(m.getName())) {
                continue;
            }
            Throwable t = call(m, target);
            if (!(t instanceof SQLException)) {
                answered.add(type.getSimpleName() + "." + signature(m) + ": " + t);
            }
        }
    }

    /** What calling {@code m} with plain arguments threw, or null. */
    private static Throwable call(Method m, Object target) {
        Class<?>[] types = m.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            args[i] = argument(types[i]);
        }
        try {
            m.invoke(target, args);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static Object argument(Class<?> t) {
        if (t == int.class) {
            return 1;
        }
        if (t == long.class) {
            return 1L;
        }
        if (t == boolean.class) {
            return false;
        }
        if (t == byte.class) {
            return (byte) 1;
        }
        if (t == short.class) {
            return (short) 1;
        }
        if (t == float.class) {
            return 1f;
        }
        if (t == double.class) {
            return 1d;
        }
        if (t == String.class || t == Object.class) {
            return "v";
        }
        if (t == Class.class) {
            return String.class;
        }
        if (t == Map.class) {
            return Map.of();
        }
        if (t == Calendar.class) {
            return Calendar.getInstance();
        }
        if (t == InputStream.class) {
            return new ByteArrayInputStream(new byte[] {1});
        }
        if (t == Reader.class) {
            return new StringReader("r");
        }
        if (t == int[].class) {
            return new int[] {1};
        }
        if (t == String[].class) {
            return new String[] {"v"};
        }
        if (t == byte[].class) {
            return new byte[] {1};
        }
        if (t == BigDecimal.class) {
            return BigDecimal.ONE;
        }
        if (t == Date.class) {
            return new Date(0);
        }
        if (t == Time.class) {
            return new Time(0);
        }
        if (t == Timestamp.class) {
            return new Timestamp(0);
        }
        if (t == SQLType.class) {
            return JDBCType.VARCHAR;
        }
        return null; // Blob, Clob, Array, Ref, RowId, SQLXML, URL, Object[]
    }

    private static String signature(Method m) {
        StringBuilder b = new StringBuilder(m.getName()).append('(');
        for (Class<?> p : m.getParameterTypes()) {
            b.append(b.charAt(b.length() - 1) == '(' ? "" : ",").append(p.getSimpleName());
        }
        return b.append(')').toString();
    }

    private static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            b.append(String.format("%02X", x));
        }
        return b.toString();
    }
}
