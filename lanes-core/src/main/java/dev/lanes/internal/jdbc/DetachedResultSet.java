package dev.lanes.internal.jdbc;

import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.ResultPages;
import java.lang.ref.Cleaner;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;

/**
 * A forward-only, read-only {@link ResultSet} over a result already read off its connection
 * ({@link ResultData}): it holds no reader, no statement and no thread, so it can be read from
 * any thread, after the request that produced it ended. A streamed result is one page of that
 * kind at a time: when {@code next()} passes the end of the page, it fetches the next one from
 * {@link ResultPages} (on the reader the query ran on, kept for it with its one snapshot), and the
 * reader goes back when the last row was read, a fetch fails ({@code next()} then throws, as
 * {@link SqlExceptions} maps it), or the result set closes, which its statement's next execution
 * and its close do. One left unclosed and unreachable is closed by a cleaner, with a warning. Values convert as {@link JdbcValues}
 * says, after sqlite-jdbc's result set; a getter of a primitive reads the row's value without
 * boxing it again. Updates, scrolling and the types SQLite has no values of are refused by
 * {@link ReadOnlyResultSet}. Equality is identity; {@code unwrap} gives the result set itself.
 *
 * <p>Not thread-safe: one user, as every JDBC result set. A close from another thread is safe
 * for the reader ({@link ResultPages#close()} may come from any thread and waits for a page in
 * progress); the user then finds no further page.
 */
final class DetachedResultSet extends ConvertingResultSet {
    /** Closes streamed result sets their users lost; its one thread starts with the first. */
    private static final class Leaks {
        static final Cleaner CLEANER = Cleaner.create(r -> {
            Thread t = new Thread(r, "lanes-jdbc-cleaner");
            t.setDaemon(true);
            return t;
        });
    }

    private final ResultData data;
    /** The current page: the whole result unless it streams. */
    private List<Row> rows;
    /** What {@code getStatement()} gives: the statement that ran it, or null (metadata). */
    private final JdbcStatement statement;
    /** The pages still on the reader; null when none are (never were, read, or closed). */
    private Stream stream;
    /** {@code setFetchSize}: rows per later page, 0 for the page's byte budget alone. */
    private int fetchSize;
    /** Rows of the pages before the current one (saturating, as {@code getRow} is an int). */
    private int before;
    private ResultSetMetaData metaData;
    /** The text that finds the declared types {@code data} lacks; null when it has them. */
    private final String sql;
    private int index = -1;
    private boolean closed;
    private boolean lastWasNull;

    /** What a streamed result set holds beyond its page; made only when it streams. */
    private static final class Stream {
        final ResultPages pages;
        /** The statement's {@code maxRows}, 0 for none. */
        final int maxRows;
        /** Closes {@link #pages} if the result set is lost unclosed. */
        Cleaner.Cleanable cleanable;

        Stream(ResultPages pages, int maxRows) {
            this.pages = pages;
            this.maxRows = maxRows;
        }
    }

    private DetachedResultSet(ResultData data, JdbcStatement statement, int fetchSize,
            String sql) {
        this.data = data;
        this.rows = data.rows();
        this.statement = statement;
        this.fetchSize = fetchSize;
        this.sql = sql;
    }

    /** A result set over {@code data}; {@code statement} is what {@code getStatement()} gives. */
    static DetachedResultSet of(ResultData data, JdbcStatement statement) {
        return new DetachedResultSet(data, statement, 0, null);
    }

    /**
     * A result set over the first page {@code data} and the pages of {@code rest} (null when
     * {@code data} is the whole result), at most {@code maxRows} rows in all (0 for no limit).
     * When {@code data} was read without its declared types, {@code sql} is the text its
     * statement's connection finds them with, if they are asked for ({@link DetachedMetaData}).
     */
    static DetachedResultSet of(ResultData data, JdbcStatement statement, ResultPages rest,
            int fetchSize, int maxRows, String sql) {
        DetachedResultSet rs = new DetachedResultSet(data, statement, fetchSize, sql);
        if (rest == null) {
            return rs;
        }
        if (maxRows > 0 && data.rows().size() >= maxRows) {
            rest.close(); // the first page holds all the statement may return
            return rs;
        }
        rs.stream = new Stream(rest, maxRows);
        rs.stream.cleanable = Leaks.CLEANER.register(rs, rest::leaked);
        return rs;
    }

    /** The result of {@code getGeneratedKeys}: the last rowid, or no row for no insert. */
    static DetachedResultSet ofKeys(long rowid, boolean any, JdbcStatement statement) {
        List<String> column = List.of("last_insert_rowid()");
        List<Row> rows = any ? List.of(Row.of(column, new Object[] {rowid})) : List.of();
        return of(new ResultData(column, column, List.of("INTEGER"), rows), statement);
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the result set is closed");
        }
    }

    // ------------------------------------------------------------------ the cursor

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (index < rows.size()) {
            index++;
        }
        return index < rows.size() || stream != null && nextPage();
    }

    /** Past the end of the page: the next one, if the result streams and has one. */
    private boolean nextPage() throws SQLException {
        Stream s = stream;
        ResultPages pages = s.pages;
        int delivered = (int) Math.min((long) before + rows.size(), Integer.MAX_VALUE);
        int asked = fetchSize > 0 ? fetchSize : Integer.MAX_VALUE;
        if (s.maxRows > 0) {
            asked = Math.min(asked, s.maxRows - delivered);
        }
        List<Row> page;
        try {
            page = asked > 0 ? pages.next(asked) : List.of();
        } catch (LanesException e) {
            endStream(); // the reader went back with the failure
            throw SqlExceptions.of(e);
        }
        // with maxRows, the page holds at most maxRows - delivered rows: the sum cannot overflow
        if (!pages.more() || (s.maxRows > 0 && delivered + page.size() >= s.maxRows)) {
            endStream();
        }
        if (page.isEmpty()) {
            return false; // the cursor stays after the last row
        }
        before = delivered;
        rows = page;
        index = 0;
        return true;
    }

    /** The stream is over: its reader goes back (if it has not) and the cleaner forgets it. */
    private void endStream() {
        Stream s = stream;
        stream = null;
        if (s != null) {
            try {
                s.pages.close();
            } finally {
                s.cleanable.clean(); // a no-op on pages that ended
            }
        }
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            endStream();
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        } finally {
            if (statement != null) {
                statement.resultClosed(this);
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return lastWasNull;
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return index >= 0 && index < rows.size() ? (int) Math.min((long) before + index + 1,
                Integer.MAX_VALUE) : 0;
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return index < 0 && !rows.isEmpty();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return index >= rows.size() && !rows.isEmpty();
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return before == 0 && index == 0 && !rows.isEmpty();
    }

    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        // a streamed result knows whether a row follows the page: its statement stands on it
        return index == rows.size() - 1 && !rows.isEmpty()
                && (stream == null || !stream.pages.more());
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        return columnIndex(data, columnLabel) + 1;
    }

    /** The 0-based index of the column with this label, ignoring case. */
    static int columnIndex(ResultData data, String label) throws SQLException {
        List<String> labels = data.labels();
        for (int i = 0; i < labels.size(); i++) {
            if (labels.get(i).equalsIgnoreCase(label)) {
                return i;
            }
        }
        throw new SQLException("no such column: '" + label + "'");
    }

    /** The 0-based index of the column with this 1-based index. */
    static int columnIndex(ResultData data, int column) throws SQLException {
        int n = data.labels().size();
        if (column < 1 || column > n) {
            throw new SQLException("column " + column + " out of bounds [1," + n + "]");
        }
        return column - 1;
    }

    // ------------------------------------------------------------------ properties

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        if (metaData == null) {
            metaData = data.declaredTypes() != null || sql == null ? new DetachedMetaData(data)
                    : new DetachedMetaData(data, statement.connection.declaredTypes(sql, data));
        }
        return metaData;
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw new SQLException("only FETCH_FORWARD is supported");
        }
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("the fetch size must not be negative, was " + rows);
        }
        fetchSize = rows; // rows per later page of a streamed result; a whole one has no pages
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public String getCursorName() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public String toString() {
        return "ResultSet[" + data.labels() + ", " + rows.size() + (stream != null
                ? " rows in this page, streaming]" : " rows]");
    }

    // ------------------------------------------------------------------ values

    @Override
    Object value(int columnIndex) throws SQLException {
        Row row = currentRow();
        Object v = row.get(columnIndex(data, columnIndex));
        lastWasNull = v == null;
        return v;
    }

    @Override
    Object value(String columnLabel) throws SQLException {
        Row row = currentRow();
        Object v = row.get(columnIndex(data, columnLabel));
        lastWasNull = v == null;
        return v;
    }

    private Row currentRow() throws SQLException {
        checkOpen();
        if (index < 0 || index >= rows.size()) {
            throw new SQLException(index < 0 ? "the cursor is before the first row; call next()"
                    : "the cursor is after the last row");
        }
        return rows.get(index);
    }
}
