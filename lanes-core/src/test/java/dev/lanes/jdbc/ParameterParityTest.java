package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.lang.reflect.InvocationTargetException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConfig;

/**
 * Every parameter setter of a prepared statement of the data source binds what the driver's
 * binds: the same value inserted through both, read back as SQLite stored it ({@code typeof}
 * and {@code quote}); the JDBC dates alone are stored by Lanes' value convention instead. Where the driver refuses a setter outright (such as {@code setNString}),
 * the data source binds it as the setter it stands for.
 */
@Timeout(60)
class ParameterParityTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    /**
     * One setter call: its name, its parameter types after the index, fresh arguments, and the
     * call it stands for where the driver refuses it (null: the driver binds it).
     */
    private record Setter(String name, Class<?>[] types, Supplier<Object[]> args,
            Setter standsFor) {
        static Setter of(String name, Class<?>[] types, Supplier<Object[]> args) {
            return new Setter(name, types, args, null);
        }

        /** This call, where the driver refuses it, measured against {@code plain}. */
        Setter like(Setter plain) {
            return new Setter(name, types, args, plain);
        }

        @Override
        public String toString() {
            return name + Arrays.toString(types);
        }
    }

    private static final byte[] BYTES = {0, (byte) 0xff, 16, 'a'};
    private static final String TEXT = "text é";

    /**
     * The setters whose value Lanes stores by its value convention, not as the driver does:
     * the JDBC dates as text, so that every reading gives the same date back.
     */
    private static final Map<String, String> CONVENTION = Map.of(
            "setDate", "text '" + new Date(86_400_000L).toLocalDate() + "'",
            "setTime", "text '" + new Time(3_723_000L).toLocalTime().format(
                    java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")) + "'",
            "setTimestamp", "text '2024-05-06 07:08:09.123000000Z'");

    private static List<Setter> setters() {
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        List<Setter> s = new ArrayList<>();
        s.add(Setter.of("setNull", types(int.class), () -> args(Types.VARCHAR)));
        s.add(Setter.of("setNull", types(int.class, String.class),
                () -> args(Types.INTEGER, "INT")));
        s.add(Setter.of("setBoolean", types(boolean.class), () -> args(true)));
        s.add(Setter.of("setByte", types(byte.class), () -> args((byte) 7)));
        s.add(Setter.of("setShort", types(short.class), () -> args((short) 300)));
        s.add(Setter.of("setInt", types(int.class), () -> args(-5)));
        s.add(Setter.of("setLong", types(long.class), () -> args(1L << 40)));
        s.add(Setter.of("setFloat", types(float.class), () -> args(1.5f)));
        s.add(Setter.of("setDouble", types(double.class), () -> args(2.25)));
        s.add(Setter.of("setBigDecimal", types(BigDecimal.class),
                () -> args(new BigDecimal("12.50"))));
        s.add(Setter.of("setString", types(String.class), () -> args(TEXT)));
        s.add(Setter.of("setNString", types(String.class), () -> args(TEXT))
                .like(Setter.of("setString", types(String.class), () -> args(TEXT))));
        s.add(Setter.of("setBytes", types(byte[].class), () -> args((Object) BYTES.clone())));
        s.add(Setter.of("setDate", types(Date.class), () -> args(new Date(86_400_000L))));
        s.add(Setter.of("setTime", types(Time.class), () -> args(new Time(3_723_000L))));
        s.add(Setter.of("setTimestamp", types(Timestamp.class),
                () -> args(new Timestamp(1_714_979_289_123L))));
        s.add(Setter.of("setDate", types(Date.class, Calendar.class),
                () -> args(new Date(86_400_000L), utc)));
        s.add(Setter.of("setTime", types(Time.class, Calendar.class),
                () -> args(new Time(3_723_000L), utc)));
        s.add(Setter.of("setTimestamp", types(Timestamp.class, Calendar.class),
                () -> args(new Timestamp(1_714_979_289_123L), utc)));
        for (Object value : List.of(42, 42L, 2.5, "word", true, new BigDecimal("1.25"))) {
            s.add(Setter.of("setObject", types(Object.class), () -> args(value)));
        }
        s.add(Setter.of("setObject", types(Object.class), () -> args((Object) BYTES.clone())));
        s.add(Setter.of("setObject", types(Object.class, int.class),
                () -> args("7", Types.INTEGER)));
        s.add(Setter.of("setObject", types(Object.class, int.class, int.class),
                () -> args(new BigDecimal("1.255"), Types.DECIMAL, 2)));
        Setter seven = Setter.of("setObject", types(Object.class), () -> args("7"));
        s.add(Setter.of("setObject", types(Object.class, SQLType.class),
                () -> args("7", JDBCType.INTEGER)).like(seven));
        s.add(Setter.of("setObject", types(Object.class, SQLType.class, int.class),
                () -> args("7", JDBCType.INTEGER, 0)).like(seven));
        s.add(Setter.of("setAsciiStream", types(InputStream.class), () -> args(ascii())));
        s.add(Setter.of("setAsciiStream", types(InputStream.class, int.class),
                () -> args(ascii(), 5)));
        s.add(Setter.of("setAsciiStream", types(InputStream.class, long.class),
                () -> args(ascii(), 5L)));
        s.add(Setter.of("setUnicodeStream", types(InputStream.class, int.class),
                () -> args(ascii(), 5)));
        s.add(Setter.of("setBinaryStream", types(InputStream.class), () -> args(binary())));
        s.add(Setter.of("setBinaryStream", types(InputStream.class, int.class),
                () -> args(binary(), BYTES.length)));
        s.add(Setter.of("setBinaryStream", types(InputStream.class, long.class),
                () -> args(binary(), (long) BYTES.length)));
        // a length shorter than the stream: as much as the length says, no more
        s.add(Setter.of("setBinaryStream", types(InputStream.class, int.class),
                () -> args(binary(), 2)));
        s.add(Setter.of("setAsciiStream", types(InputStream.class, long.class),
                () -> args(ascii(), 3L)));
        s.add(Setter.of("setCharacterStream", types(Reader.class, int.class),
                () -> args(reader(), 3)));
        s.add(Setter.of("setBlob", types(InputStream.class), () -> args(binary())));
        s.add(Setter.of("setBlob", types(InputStream.class, long.class),
                () -> args(binary(), (long) BYTES.length)));
        int chars = TEXT.length();
        s.add(Setter.of("setCharacterStream", types(Reader.class), () -> args(reader())));
        s.add(Setter.of("setCharacterStream", types(Reader.class, int.class),
                () -> args(reader(), chars)));
        s.add(Setter.of("setCharacterStream", types(Reader.class, long.class),
                () -> args(reader(), (long) chars)));
        s.add(Setter.of("setNCharacterStream", types(Reader.class), () -> args(reader()))
                .like(Setter.of("setCharacterStream", types(Reader.class),
                        () -> args(reader()))));
        s.add(Setter.of("setNCharacterStream", types(Reader.class, long.class),
                () -> args(reader(), (long) chars)).like(Setter.of("setCharacterStream",
                        types(Reader.class, long.class), () -> args(reader(), (long) chars))));
        s.add(Setter.of("setClob", types(Reader.class), () -> args(reader())));
        s.add(Setter.of("setClob", types(Reader.class, long.class),
                () -> args(reader(), (long) chars)));
        s.add(Setter.of("setNClob", types(Reader.class), () -> args(reader()))
                .like(Setter.of("setClob", types(Reader.class), () -> args(reader()))));
        s.add(Setter.of("setNClob", types(Reader.class, long.class),
                () -> args(reader(), (long) chars)).like(Setter.of("setClob",
                        types(Reader.class, long.class), () -> args(reader(), (long) chars))));
        return s;
    }

    @Test
    void everySetterBindsWhatTheDriverBinds() throws Exception {
        Database db = fixture.open("params.db");
        db.execute("CREATE TABLE p(k TEXT, v)");
        List<String> mismatches = new ArrayList<>();
        try (Connection lanes = db.dataSource().getConnection();
                Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path())) {
            for (Setter setter : setters()) {
                String ours = stored(lanes, setter);
                String theirs = stored(raw, setter);
                if (setter.standsFor() != null) {
                    assertThat(theirs).as("the driver refuses %s", setter).isEqualTo("fails");
                    theirs = stored(raw, setter.standsFor()); // the data source binds it as this
                }
                String convention = CONVENTION.get(setter.name());
                if (convention != null) {
                    theirs = convention; // the driver stores an INTEGER of milliseconds
                }
                if (!ours.equals(theirs)) {
                    mismatches.add(setter + ": driver " + theirs + ", lanes " + ours);
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    /** Inserts one row through {@code setter} and reads it back. */
    private static String stored(Connection c, Setter setter) throws SQLException {
        try (Statement clear = c.createStatement()) {
            clear.executeUpdate("DELETE FROM p");
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO p(k, v) VALUES (?, ?)")) {
            insert.setString(1, setter.toString());
            Class<?>[] types = new Class<?>[setter.types().length + 1];
            types[0] = int.class;
            System.arraycopy(setter.types(), 0, types, 1, setter.types().length);
            Object[] given = setter.args().get();
            Object[] args = new Object[given.length + 1];
            args[0] = 2;
            System.arraycopy(given, 0, args, 1, given.length);
            try {
                PreparedStatement.class.getMethod(setter.name(), types).invoke(insert, args);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof SQLException) {
                    return "fails";
                }
                throw new AssertionError(setter + " threw", e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            insert.executeUpdate();
        }
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT typeof(v), quote(v) FROM p")) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1) + " " + rs.getString(2);
        }
    }

    private static Class<?>[] types(Class<?>... types) {
        return types;
    }

    private static Object[] args(Object... args) {
        return args;
    }

    private static InputStream ascii() {
        return new ByteArrayInputStream("ascii".getBytes(StandardCharsets.US_ASCII));
    }

    private static InputStream binary() {
        return new ByteArrayInputStream(BYTES.clone());
    }

    private static Reader reader() {
        return new StringReader(TEXT);
    }
}
