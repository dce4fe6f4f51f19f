package dev.lanes;

import dev.lanes.internal.types.ValueConvention;
import dev.lanes.internal.types.Values;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * One row of a query result, detached from the connection. Columns are looked up by label,
 * ignoring case (the first of equal labels wins), or by zero-based position. {@link #get(int)}
 * gives the value as SQLite stored it: {@code Long} (INTEGER), {@code Double} (REAL), {@code
 * String} (TEXT), {@code byte[]} (BLOB) or {@code null} (NULL). The typed getters convert it.
 *
 * <p><b>NULL.</b> Every typed getter returns a reference type and gives {@code null} for NULL
 * ({@code getInt} returns {@code Integer}, {@code getBoolean} returns {@code Boolean}). Only
 * {@link #get(String, Class)} with a primitive type ({@code long.class}, {@code int.class},
 * {@code double.class}, {@code boolean.class}) refuses NULL, with a {@link MappingException}, as a
 * record's primitive component does.
 *
 * <p><b>Conversions.</b> A value converts only when it does so exactly; otherwise the getter
 * throws {@link MappingException} naming the column, the value's SQLite type and the target type.
 *
 * <table>
 *   <caption>What each getter reads</caption>
 *   <tr><th>getter</th><th>reads</th></tr>
 *   <tr><td>{@code getLong}, {@code getInt}</td><td>INTEGER; a REAL without fraction; TEXT
 *       holding an integer ({@code "3.0"} and {@code "1e3"} too); within the type's range</td></tr>
 *   <tr><td>{@code getDouble}</td><td>REAL, INTEGER, TEXT holding a number</td></tr>
 *   <tr><td>{@code getString}</td><td>TEXT; a BLOB as UTF-8; a number as Java prints it</td></tr>
 *   <tr><td>{@code getBoolean}</td><td>0 is false, 1 is true (INTEGER, or REAL or TEXT holding
 *       them, as a column's affinity may store them); anything else fails</td></tr>
 *   <tr><td>{@code getBytes}</td><td>a copy of a BLOB; TEXT as its UTF-8 bytes</td></tr>
 *   <tr><td>{@code getBigDecimal}</td><td>exact from TEXT or INTEGER (TEXT keeps its scale); a
 *       REAL through its shortest decimal form, only as exact as a double</td></tr>
 *   <tr><td>{@code getUuid}</td><td>TEXT {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx} (either
 *       case), or a BLOB of 16 bytes, most significant first</td></tr>
 *   <tr><td>{@code getEnum}</td><td>TEXT holding a constant's {@link Enum#name()}, exactly</td></tr>
 *   <tr><td>{@code getInstant}, {@code getOffsetDateTime}, {@code getLocalDateTime}, {@code
 *       getLocalDate}</td><td>see <i>Dates</i></td></tr>
 * </table>
 *
 * <p><b>Dates.</b> The date getters read by Lanes' value convention, the rules the data source's
 * {@code ResultSet} reads by too, within the years 0000 to 9999 (UTC) SQLite's date functions
 * cover:
 *
 * <ul>
 *   <li>TEXT {@code YYYY-MM-DD}, optionally with {@code T} or a space and {@code HH:MM}, {@code
 *       HH:MM:SS} or {@code HH:MM:SS.SSS} (up to nine fraction digits), optionally ending in
 *       {@code Z} or {@code ±HH:MM} (up to ±14:59, as SQLite reads): what {@code datetime()},
 *       {@code strftime()} and {@code CURRENT_TIMESTAMP} write, what Lanes binds, and ISO-8601.
 *       Text without a zone is UTC. A day that does not exist ({@code 2024-02-31}) fails.
 *   <li><b>An INTEGER is Unix seconds</b>, as {@code unixepoch()} writes (and so is TEXT of
 *       digits only, as {@code strftime('%s')} writes), from -62167219200 to 253402300799;
 *       beyond that range, where only milliseconds name a date in those years, it is epoch
 *       milliseconds, as sqlite-jdbc binds a {@code java.sql.Timestamp}; beyond that it fails.
 *       A millisecond value from 1962 to 1978 reads as seconds: {@link
 *       #getInstantFromEpochMillis(String)} reads it as milliseconds.
 *   <li>A REAL by SQLite's {@code 'auto'} rule: a Julian day number, as {@code julianday()}
 *       writes, when from 0 to below 5373484.5; otherwise Unix seconds with a fraction, as {@code
 *       unixepoch('subsec')} writes. To the millisecond, as SQLite computes.
 * </ul>
 *
 * {@code getInstant} gives that instant; {@code getOffsetDateTime} keeps the text's offset (UTC
 * otherwise); {@code getLocalDateTime} and {@code getLocalDate} give the UTC wall time and date,
 * as {@code datetime()} and {@code date()} print them (text without a zone as written).
 *
 * <p>A row is immutable and may be shared between threads.
 */
public final class Row {
    private final List<String> columns;
    private final Object[] values;

    private Row(List<String> columns, Object[] values) {
        this.columns = columns;
        this.values = values;
    }

    /**
     * A row with these column labels and values. The labels list is shared, not copied, so that
     * every row of one result can use the same one; it must not change afterwards.
     */
    public static Row of(List<String> columns, Object[] values) {
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(values, "values");
        if (columns.size() != values.length) {
            throw new IllegalArgumentException(
                    columns.size() + " columns but " + values.length + " values");
        }
        return new Row(Collections.unmodifiableList(columns), values.clone());
    }

    /** The column labels, in result order. */
    public List<String> columns() {
        return columns;
    }

    /** The number of columns. */
    public int size() {
        return values.length;
    }

    /** The value at a zero-based position, as SQLite stored it. */
    public Object get(int index) {
        return values[check(index)];
    }

    /** The value of the column with this label (case-insensitive), as SQLite stored it. */
    public Object get(String column) {
        return values[indexOf(column)];
    }

    /**
     * The column's value as {@code type}, by the rules of the getter for that type: {@code
     * Long}, {@code Integer}, {@code Double}, {@code Boolean}, {@code String}, {@code byte[]},
     * {@code BigDecimal}, {@code UUID}, any enum, {@code Instant}, {@code LocalDate}, {@code
     * LocalDateTime}, {@code OffsetDateTime}, or {@code Object} (the stored value). {@code null}
     * for NULL, except for the primitive types {@code long}, {@code int}, {@code double} and
     * {@code boolean}, which fail on NULL.
     *
     * @throws IllegalArgumentException when no column can be read as {@code type}
     * @throws MappingException when the value does not convert
     */
    public <T> T get(String column, Class<T> type) {
        return get(indexOf(column), type);
    }

    /** {@link #get(String, Class)} by zero-based position. */
    public <T> T get(int index, Class<T> type) {
        Objects.requireNonNull(type, "type");
        return ValueConvention.reader(type).convert(values[check(index)], columns.get(index));
    }

    /** The column's value as a {@code Long}, or {@code null} when it is NULL; see the table. */
    public Long getLong(String column) {
        return getLong(indexOf(column));
    }

    /** {@link #getLong(String)} by zero-based position. */
    public Long getLong(int index) {
        return Values.toLong(values[check(index)], columns.get(index));
    }

    /** The column's value as an {@code Integer} (within an int's range), or {@code null}. */
    public Integer getInt(String column) {
        return getInt(indexOf(column));
    }

    /** {@link #getInt(String)} by zero-based position. */
    public Integer getInt(int index) {
        return Values.toInt(values[check(index)], columns.get(index));
    }

    /** The column's value as a {@code Double}, or {@code null} when it is NULL. */
    public Double getDouble(String column) {
        return getDouble(indexOf(column));
    }

    /** {@link #getDouble(String)} by zero-based position. */
    public Double getDouble(int index) {
        return Values.toDouble(values[check(index)], columns.get(index));
    }

    /** The column's value as a {@code String}, or {@code null} when it is NULL. */
    public String getString(String column) {
        return getString(indexOf(column));
    }

    /** {@link #getString(String)} by zero-based position. */
    public String getString(int index) {
        return Values.toText(values[check(index)], columns.get(index));
    }

    /** The column's value as a {@code Boolean}: 0 is false, 1 is true, NULL is {@code null}. */
    public Boolean getBoolean(String column) {
        return getBoolean(indexOf(column));
    }

    /** {@link #getBoolean(String)} by zero-based position. */
    public Boolean getBoolean(int index) {
        return Values.toBoolean(values[check(index)], columns.get(index));
    }

    /** A copy of the column's BLOB (or a TEXT's UTF-8 bytes), or {@code null} when NULL. */
    public byte[] getBytes(String column) {
        return getBytes(indexOf(column));
    }

    /** {@link #getBytes(String)} by zero-based position. */
    public byte[] getBytes(int index) {
        return Values.toBytes(values[check(index)], columns.get(index));
    }

    /** The column's value as a {@code BigDecimal}, exact from TEXT or INTEGER, or {@code null}. */
    public BigDecimal getBigDecimal(String column) {
        return getBigDecimal(indexOf(column));
    }

    /** {@link #getBigDecimal(String)} by zero-based position. */
    public BigDecimal getBigDecimal(int index) {
        return Values.toBigDecimal(values[check(index)], columns.get(index));
    }

    /** The column's value as a {@code UUID}, from TEXT or a 16-byte BLOB, or {@code null}. */
    public UUID getUuid(String column) {
        return getUuid(indexOf(column));
    }

    /** {@link #getUuid(String)} by zero-based position. */
    public UUID getUuid(int index) {
        return Values.toUuid(values[check(index)], columns.get(index));
    }

    /** The enum constant the column's TEXT names exactly, or {@code null} when it is NULL. */
    public <E extends Enum<E>> E getEnum(String column, Class<E> type) {
        return getEnum(indexOf(column), type);
    }

    /** {@link #getEnum(String, Class)} by zero-based position. */
    public <E extends Enum<E>> E getEnum(int index, Class<E> type) {
        Objects.requireNonNull(type, "type");
        return Values.toEnum(values[check(index)], type, columns.get(index));
    }

    /**
     * The column's value as an {@code Instant}, or {@code null} when it is NULL. An INTEGER is
     * Unix seconds, or epoch milliseconds beyond their range; see <i>Dates</i> in the class
     * comment.
     */
    public Instant getInstant(String column) {
        return getInstant(indexOf(column));
    }

    /** {@link #getInstant(String)} by zero-based position. */
    public Instant getInstant(int index) {
        return ValueConvention.instant(values[check(index)], columns.get(index));
    }

    /**
     * The column's whole number as milliseconds since 1970-01-01T00:00:00Z (as sqlite-jdbc binds
     * a {@code java.sql.Timestamp}, and Java's {@code System.currentTimeMillis()} counts), or
     * {@code null} when it is NULL.
     */
    public Instant getInstantFromEpochMillis(String column) {
        return getInstantFromEpochMillis(indexOf(column));
    }

    /** {@link #getInstantFromEpochMillis(String)} by zero-based position. */
    public Instant getInstantFromEpochMillis(int index) {
        return ValueConvention.instantFromEpochMillis(values[check(index)], columns.get(index));
    }

    /** The column's value as a {@code LocalDate} (the UTC date), or {@code null} when NULL. */
    public LocalDate getLocalDate(String column) {
        return getLocalDate(indexOf(column));
    }

    /** {@link #getLocalDate(String)} by zero-based position. */
    public LocalDate getLocalDate(int index) {
        return ValueConvention.localDate(values[check(index)], columns.get(index));
    }

    /**
     * The column's value as a {@code LocalDateTime}: zone-less text as written, anything else
     * as its UTC wall time; {@code null} when it is NULL.
     */
    public LocalDateTime getLocalDateTime(String column) {
        return getLocalDateTime(indexOf(column));
    }

    /** {@link #getLocalDateTime(String)} by zero-based position. */
    public LocalDateTime getLocalDateTime(int index) {
        return ValueConvention.localDateTime(values[check(index)], columns.get(index));
    }

    /**
     * The column's value as an {@code OffsetDateTime}, with the text's offset (UTC when it has
     * none, and for numbers); {@code null} when it is NULL.
     */
    public OffsetDateTime getOffsetDateTime(String column) {
        return getOffsetDateTime(indexOf(column));
    }

    /** {@link #getOffsetDateTime(String)} by zero-based position. */
    public OffsetDateTime getOffsetDateTime(int index) {
        return ValueConvention.offsetDateTime(values[check(index)], columns.get(index));
    }

    /** The values, in column order. */
    public List<Object> values() {
        return Collections.unmodifiableList(new ArrayList<>(Arrays.asList(values)));
    }

    private int check(int index) {
        if (index < 0 || index >= values.length) {
            throw new IndexOutOfBoundsException(
                    "column " + index + " of a row with " + values.length + " columns");
        }
        return index;
    }

    private int indexOf(String column) {
        for (int i = 0; i < values.length; i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no column '" + column + "' in " + columns);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row && columns.equals(((Row) o).columns)
                && Arrays.deepEquals(values, ((Row) o).values);
    }

    @Override
    public int hashCode() {
        return 31 * columns.hashCode() + Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Row{");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                s.append(", ");
            }
            Object v = values[i];
            s.append(columns.get(i)).append('=')
                    .append(v instanceof byte[] ? "<" + ((byte[]) v).length + " bytes>" : v);
        }
        return s.append('}').toString();
    }
}
