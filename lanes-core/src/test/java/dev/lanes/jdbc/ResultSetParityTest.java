package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.Objects;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConfig;

/**
 * A result set of the data source reads every value as sqlite-jdbc's own result set reads it:
 * the same query, over the same file, through both, getter by getter. Code written against the
 * driver keeps working when it moves onto {@code db.dataSource()}.
 */
@Timeout(60)
class ResultSetParityTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    /** A getter of a result set, by column index. */
    private interface Getter {
        Object get(ResultSet rs, int column) throws SQLException;
    }

    private static final List<String> GETTER_NAMES = List.of("getString", "getInt", "getLong",
            "getShort", "getDouble", "getFloat", "getBoolean", "getBigDecimal", "getBytes",
            "getObject", "getTimestamp", "getDate", "getTime", "getObject(Long)",
            "getObject(Integer)", "getObject(String)", "getObject(LocalDateTime)",
            "getObject(LocalDate)", "getObject(BigDecimal)", "wasNull");
    private static final List<Getter> GETTERS = List.of(ResultSet::getString, ResultSet::getInt,
            ResultSet::getLong, ResultSet::getShort, ResultSet::getDouble, ResultSet::getFloat,
            ResultSet::getBoolean, ResultSet::getBigDecimal, ResultSet::getBytes,
            ResultSet::getObject, ResultSet::getTimestamp, ResultSet::getDate, ResultSet::getTime,
            (rs, i) -> rs.getObject(i, Long.class), (rs, i) -> rs.getObject(i, Integer.class),
            (rs, i) -> rs.getObject(i, String.class),
            (rs, i) -> rs.getObject(i, LocalDateTime.class),
            (rs, i) -> rs.getObject(i, LocalDate.class),
            (rs, i) -> rs.getObject(i, BigDecimal.class),
            (rs, i) -> {
                rs.getObject(i);
                return rs.wasNull();
            });

    @Test
    void everyGetterReadsWhatTheDriverReads() throws Exception {
        Database db = fixture.open("parity.db");
        db.execute("CREATE TABLE v(i INTEGER, big INTEGER, r REAL, num_text TEXT, word TEXT, "
                + "stamp TEXT, stamp_t TEXT, day TEXT, julian REAL, millis INTEGER, b BLOB, "
                + "n TEXT, flag BOOLEAN, dec DECIMAL, dt DATETIME)");
        db.execute("INSERT INTO v VALUES (42, 9007199254740993, 2.5, ' 17abc', 'plain', "
                + "'2024-05-06 07:08:09.123', '2024-05-06T07:08:09', '2024-05-06', "
                + "2460436.5, 1714979289123, x'00ff10', NULL, 1, 12.25, '2024-05-06 07:08:09')");
        db.execute("INSERT INTO v VALUES (-1, -9007199254740993, -0.5, '3.5e2', '', "
                + "'1970-01-01 00:00:00.000', '1999-12-31T23:59:59.5', '1999-12-31', "
                + "2440587.5, 0, x'', 'x', 0, -3, NULL)");
        String query = "SELECT * FROM v ORDER BY rowid";

        List<String> mismatches = new ArrayList<>();
        try (Connection lanes = db.dataSource().getConnection();
                Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path())) {
            // One getter per fresh result: reading a value in SQLite converts it in place (text
            // read from an integer), so a second getter on the driver's row would see another
            // value than a first one would.
            for (int g = 0; g < GETTERS.size(); g++) {
                try (Statement ls = lanes.createStatement();
                        Statement rsStmt = raw.createStatement();
                        ResultSet ours = ls.executeQuery(query);
                        ResultSet theirs = rsStmt.executeQuery(query)) {
                    ResultSetMetaData meta = theirs.getMetaData();
                    int columns = meta.getColumnCount();
                    assertThat(ours.getMetaData().getColumnCount()).isEqualTo(columns);
                    int row = 0;
                    while (theirs.next()) {
                        assertThat(ours.next()).as("row %d", row).isTrue();
                        for (int c = 1; c <= columns; c++) {
                            if (g == 0) {
                                compareMetadata(ours.getMetaData(), meta, c, row, mismatches);
                            }
                            String expected = outcome(GETTERS.get(g), theirs, c);
                            String actual = outcome(GETTERS.get(g), ours, c);
                            if (!expected.equals(actual) && !lenientDate(g, expected, actual)
                                    && !(dateGetter(g) && numberOrBlob(ours.getObject(c)))) {
                                mismatches.add("row " + row + " " + meta.getColumnName(c) + " "
                                        + GETTER_NAMES.get(g) + ": driver " + expected
                                        + ", lanes " + actual);
                            }
                        }
                        row++;
                    }
                    assertThat(ours.next()).as("no extra row").isFalse();
                    assertThat(row).isEqualTo(2);
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    /**
     * Every getter variant (plain, with a scale, a calendar, a type or an empty type map, the
     * streams), by index and by label, reads what the driver's reads, on the same rows as {@link
     * #everyGetterReadsWhatTheDriverReads}; dates as lenient as there.
     */
    @Test
    void everyGetterVariantByIndexAndByLabelReadsWhatTheDriverReads() throws Exception {
        Database db = fixture.open("variants.db");
        db.execute("CREATE TABLE v(i INTEGER, r REAL, num_text TEXT, word TEXT, stamp TEXT, "
                + "millis INTEGER, julian REAL, b BLOB, n TEXT, flag BOOLEAN, dec DECIMAL)");
        db.execute("INSERT INTO v VALUES (42, 2.5, ' 17abc', 'plain', '2024-05-06 07:08:09.123', "
                + "1714979289123, 2460436.5, x'00ff10', NULL, 1, 12.25)");
        db.execute("INSERT INTO v VALUES (-7, -0.5, '3.5e2', '', '1970-01-01 00:00:00.000', 0, "
                + "2440587.5, x'', 'x', 0, -3)");
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        List<Variant> variants = new ArrayList<>();
        for (String plain : List.of("getString", "getBoolean", "getByte", "getShort",
                "getInt", "getLong", "getFloat", "getDouble", "getBigDecimal", "getBytes",
                "getDate", "getTime", "getTimestamp", "getObject", "getAsciiStream",
                "getUnicodeStream", "getBinaryStream", "getCharacterStream",
                "getNCharacterStream")) {
            variants.add(new Variant(plain, new Class<?>[0], new Object[0]));
        }
        for (String dated : List.of("getDate", "getTime", "getTimestamp")) {
            variants.add(new Variant(dated, new Class<?>[] {Calendar.class},
                    new Object[] {utc}));
        }
        for (Class<?> type : List.of(String.class, Long.class, Integer.class, Double.class, Float.class, Boolean.class, BigDecimal.class, byte[].class,
                Timestamp.class, Date.class, Time.class, LocalDateTime.class, LocalDate.class,
                LocalTime.class)) {
            variants.add(new Variant("getObject", new Class<?>[] {Class.class},
                    new Object[] {type}));
        }
        String query = "SELECT * FROM v ORDER BY rowid";
        List<String> mismatches = new ArrayList<>();
        try (Connection lanes = db.dataSource().getConnection();
                Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path())) {
            for (Variant variant : variants) {
                for (boolean byLabel : List.of(false, true)) {
                    // one getter per fresh result, as above: the driver converts values in place
                    try (Statement ls = lanes.createStatement();
                            Statement rsStmt = raw.createStatement();
                            ResultSet ours = ls.executeQuery(query);
                            ResultSet theirs = rsStmt.executeQuery(query)) {
                        int columns = theirs.getMetaData().getColumnCount();
                        while (theirs.next()) {
                            assertThat(ours.next()).isTrue();
                            for (int c = 1; c <= columns; c++) {
                                String label = theirs.getMetaData().getColumnLabel(c);
                                String expected = variant.outcome(theirs, c, label, byLabel);
                                String actual = variant.outcome(ours, c, label, byLabel);
                                if (!expected.equals(actual) && !(variant.dated()
                                        && (expected.equals("fails")
                                        || numberOrBlob(ours.getObject(c))))
                                        && !nullBoolean(variant, expected, actual)) {
                                    mismatches.add(variant + (byLabel ? " by label " : " by index ")
                                            + label + ": driver " + expected + ", lanes " + actual);
                                }
                            }
                        }
                        assertThat(ours.next()).isFalse();
                    }
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    /**
     * The one deliberate difference of {@code getObject(column, type)}: JDBC says SQL NULL reads
     * as null for every type; the driver gives {@code false} for {@code Boolean}.
     */
    private static boolean nullBoolean(Variant variant, String driver, String lanes) {
        return variant.extra().length == 1 && variant.extra()[0] == Boolean.class
                && driver.equals("Boolean:false") && lanes.equals("null");
    }

    /**
     * What the driver refuses outright, the data source answers as the plain getter would:
     * {@code getNString} as {@code getString}, the deprecated {@code getBigDecimal(column,
     * scale)} as {@code getBigDecimal} rounded half up to the scale, {@code getObject(column,
     * Short.class)} as {@code getObject(column, Integer.class)} narrowed.
     */
    @Test
    void gettersTheDriverRefusesAnswerAsTheirPlainGetters() throws Exception {
        Database db = fixture.open("refused-getters.db");
        db.execute("CREATE TABLE v(i INTEGER, r REAL, word TEXT, n TEXT, dec DECIMAL)");
        db.execute("INSERT INTO v VALUES (42, 2.25, 'plain', NULL, 12.25)");
        db.execute("INSERT INTO v VALUES (-70000, -0.5, '3.5e2', 'x', -3)");
        String query = "SELECT * FROM v ORDER BY rowid";
        try (Connection lanes = db.dataSource().getConnection();
                Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path());
                Statement ls = lanes.createStatement(); Statement rsStmt = raw.createStatement();
                ResultSet ours = ls.executeQuery(query);
                ResultSet theirs = rsStmt.executeQuery(query)) {
            assertThat(theirs.next()).isTrue();
            assertThatThrownBy(() -> theirs.getNString(1)).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> theirs.getObject(1, Short.class))
                    .isInstanceOf(SQLException.class);
            do {
                assertThat(ours.next()).isTrue();
                for (int c = 1; c <= 5; c++) {
                    String column = "column " + c;
                    assertThat(outcome(ResultSet::getNString, ours, c)).as(column)
                            .isEqualTo(outcome(ResultSet::getString, theirs, c));
                    String rounded = outcome((rs, i) -> {
                        BigDecimal plain = rs.getBigDecimal(i);
                        return plain == null ? null
                                : plain.setScale(1, java.math.RoundingMode.HALF_UP);
                    }, theirs, c);
                    assertThat(outcome((rs, i) -> rs.getBigDecimal(i, 1), ours, c)).as(column)
                            .isEqualTo(rounded);
                    String narrowed = outcome((rs, i) -> {
                        Integer v = rs.getObject(i, Integer.class);
                        return v == null ? null : v.shortValue();
                    }, theirs, c);
                    assertThat(outcome((rs, i) -> rs.getObject(i, Short.class), ours, c))
                            .as(column).isEqualTo(narrowed);
                }
            } while (theirs.next());
        }
    }

    /** A getter of {@link ResultSet} called by reflection, with its arguments after the column. */
    private record Variant(String name, Class<?>[] extraTypes, Object[] extra) {
        boolean dated() {
            return name.equals("getDate") || name.equals("getTime")
                    || name.equals("getTimestamp") || (extra.length == 1 && (extra[0] == Date.class
                    || extra[0] == Time.class || extra[0] == Timestamp.class
                    || extra[0] == LocalDateTime.class || extra[0] == LocalDate.class
                    || extra[0] == LocalTime.class));
        }

        /** What the getter gave as comparable text (streams read whole), or that it failed. */
        String outcome(ResultSet rs, int index, String label, boolean byLabel) {
            Class<?>[] types = new Class<?>[extra.length + 1];
            Object[] args = new Object[extra.length + 1];
            types[0] = byLabel ? String.class : int.class;
            args[0] = byLabel ? label : index;
            System.arraycopy(extraTypes, 0, types, 1, extra.length);
            System.arraycopy(extra, 0, args, 1, extra.length);
            return ResultSetParityTest.outcome((r, i) -> {
                try {
                    Object v = ResultSet.class.getMethod(name, types).invoke(r, args);
                    if (v instanceof InputStream) {
                        return ((InputStream) v).readAllBytes();
                    }
                    if (v instanceof Reader) {
                        StringBuilder b = new StringBuilder();
                        for (int ch; (ch = ((Reader) v).read()) >= 0; ) {
                            b.append((char) ch);
                        }
                        return "reader:" + b;
                    }
                    return v;
                } catch (InvocationTargetException e) {
                    if (e.getCause() instanceof SQLException) {
                        throw (SQLException) e.getCause();
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (ReflectiveOperationException | java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            }, rs, index);
        }

        @Override
        public String toString() {
            return name + Arrays.toString(extra);
        }
    }

    /**
     * A reader keeps its prepared statements, and SQLite prepares one again by itself when the
     * schema changed under it; the metadata a query reports must then be the new table's, though
     * the text and the labels are the same (an application's migration that rebuilt a table).
     */
    @Test
    void metadataFollowsATableCreatedAgainWithOtherTypes() throws Exception {
        Database db = fixture.open("recreated.db");
        db.execute("CREATE TABLE rebuilt(a INTEGER, b REAL)");
        db.execute("INSERT INTO rebuilt VALUES (1, 2.5)");
        String query = "SELECT a, b AS second FROM rebuilt";
        try (Connection lanes = db.dataSource().getConnection()) {
            assertThat(typesAndNames(lanes, query)).containsExactly("INTEGER a a", "REAL second "
                    + "second");
            db.execute("DROP TABLE rebuilt");
            db.execute("CREATE TABLE rebuilt(a TEXT, b BLOB)");
            db.execute("INSERT INTO rebuilt VALUES ('x', x'01')");
            assertThat(typesAndNames(lanes, query)).containsExactly("TEXT a a", "BLOB second "
                    + "second");
        }
    }

    /**
     * Columns without a declared type take their type name as the driver gives it: a cast's
     * target type (written {@code cast(... as ...)}), else the storage class of the first row's
     * value, for expressions, untyped columns and empty results alike.
     */
    @Test
    void metadataOfExpressionsAndUntypedColumnsIsTheDrivers() throws Exception {
        Database db = fixture.open("expressions.db");
        db.execute("CREATE TABLE u(a, b VARCHAR(10), c NUMERIC(5, 2), d DOUBLE PRECISION)");
        db.execute("INSERT INTO u VALUES (1, 'x', 2.5, NULL)");
        List<String> queries = List.of("SELECT 1, 2.5, 'x', x'01', NULL, cast(1 as text), "
                + "CAST(2 AS REAL), cast('3' as integer) AS three FROM u",
                "SELECT a, b, c, d, a + 1, b || 'y' FROM u", "SELECT a, 1, 'x' FROM u WHERE 0",
                "SELECT last_insert_rowid()", "SELECT changes() AS n");
        List<String> mismatches = new ArrayList<>();
        try (Connection lanes = db.dataSource().getConnection();
                Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path())) {
            for (String query : queries) {
                try (Statement ls = lanes.createStatement(); Statement rs = raw.createStatement();
                        ResultSet ours = ls.executeQuery(query);
                        ResultSet theirs = rs.executeQuery(query)) {
                    ResultSetMetaData meta = theirs.getMetaData();
                    for (int c = 1; c <= meta.getColumnCount(); c++) {
                        compareMetadata(ours.getMetaData(), meta, c, 0, mismatches);
                    }
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    /** Per column of {@code query}'s result: its declared type, label and name. */
    private static List<String> typesAndNames(Connection c, String query) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(query); ResultSet rs = s.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.add(meta.getColumnTypeName(i) + " " + meta.getColumnLabel(i) + " "
                        + meta.getColumnName(i));
            }
        }
        return columns;
    }

    /**
     * The one deliberate difference: text dates in ISO forms the driver's one pattern does not
     * parse ({@code 2024-05-06T07:08:09}, {@code 2024-05-06}) are read, where the driver fails.
     * A date the driver reads, Lanes reads the same.
     */
    private static boolean lenientDate(int getter, String driver, String lanes) {
        return dateGetter(getter) && driver.equals("fails") && !lanes.equals("fails");
    }

    private static boolean dateGetter(int getter) {
        String name = GETTER_NAMES.get(getter);
        return name.equals("getTimestamp") || name.equals("getDate")
                || name.equals("getTime") || name.equals("getObject(LocalDateTime)")
                || name.equals("getObject(LocalDate)");
    }

    /**
     * A number or a BLOB read as a date follows Lanes' value convention, not the driver (which
     * reads every INTEGER as epoch milliseconds and every REAL as a Julian day): an INTEGER is
     * Unix seconds within their range, a REAL by SQLite's 'auto' rule, a BLOB no date. {@code
     * ValueConventionTest} holds those readings.
     */
    private static boolean numberOrBlob(Object stored) {
        return stored instanceof Number || stored instanceof byte[];
    }

    private static void compareMetadata(ResultSetMetaData ours, ResultSetMetaData theirs, int c,
            int row, List<String> mismatches) throws SQLException {
        if (row != 0) {
            return; // the driver's metadata follows the current row's values; ours the first
        }
        check("label", ours.getColumnLabel(c), theirs.getColumnLabel(c), c, mismatches);
        check("name", ours.getColumnName(c), theirs.getColumnName(c), c, mismatches);
        check("type name", ours.getColumnTypeName(c), theirs.getColumnTypeName(c), c,
                mismatches);
        check("type", ours.getColumnType(c), driverType(theirs, c), c, mismatches);
    }

    /**
     * The driver's type of column {@code c}, as sqlite-jdbc 3.53.2.1 and later report it: before
     * that, the driver reported a {@code DATETIME} column as {@code DATE}; Lanes reports {@code
     * TIMESTAMP} on every supported driver.
     */
    private static int driverType(ResultSetMetaData theirs, int c) throws SQLException {
        int type = theirs.getColumnType(c);
        return type == java.sql.Types.DATE && "DATETIME".equalsIgnoreCase(
                theirs.getColumnTypeName(c)) ? java.sql.Types.TIMESTAMP : type;
    }

    private static void check(String what, Object ours, Object theirs, int c,
            List<String> mismatches) {
        if (!Objects.equals(ours, theirs)) {
            mismatches.add("column " + c + " " + what + ": driver " + theirs + ", lanes " + ours);
        }
    }

    /** What a getter gave, as comparable text: the value, or that it failed. */
    private static String outcome(Getter getter, ResultSet rs, int column) {
        try {
            Object v = getter.get(rs, column);
            if (v instanceof byte[]) {
                return "bytes" + Arrays.toString((byte[]) v);
            }
            if (v instanceof Timestamp || v instanceof Date || v instanceof Time) {
                return v.getClass().getSimpleName() + "@" + ((java.util.Date) v).getTime();
            }
            return v == null ? "null" : v.getClass().getSimpleName() + ":" + v;
        } catch (SQLException | RuntimeException e) {
            return "fails";
        }
    }
}
