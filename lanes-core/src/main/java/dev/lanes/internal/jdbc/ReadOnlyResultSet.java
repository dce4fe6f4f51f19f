package dev.lanes.internal.jdbc;

import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLXML;

/**
 * What a forward-only, read-only {@link ResultSet} refuses besides changes ({@link
 * UnchangeableResultSet}), so that {@link DetachedResultSet} holds only what it answers: scrolling
 * fails as on any
 * {@code TYPE_FORWARD_ONLY} result set, and so do the getters of types SQLite has no values of
 * (LOB objects, arrays, refs, row ids, URLs, XML), once the cell itself was found. A closed
 * result set says it is closed first. Stateless; the subclass keeps the state.
 */
abstract sealed class ReadOnlyResultSet extends UnchangeableResultSet
        permits ConvertingResultSet {
    /** The value of a column of the current row, as the getters read it (wasNull included). */
    abstract Object value(int columnIndex) throws SQLException;

    /** {@link #value(int)} by label. */
    abstract Object value(String columnLabel) throws SQLException;

    private SQLException forwardOnly(String call) throws SQLException {
        checkOpen();
        return new SQLException("the result set is TYPE_FORWARD_ONLY (" + call + ")");
    }

    private static SQLException refused(String call) {
        return new SQLFeatureNotSupportedException("ResultSet." + call + " is not supported");
    }

    // ------------------------------------------------------------------ scrolling

    @Override
    public final void beforeFirst() throws SQLException {
        throw forwardOnly("beforeFirst");
    }

    @Override
    public final void afterLast() throws SQLException {
        throw forwardOnly("afterLast");
    }

    @Override
    public final boolean first() throws SQLException {
        throw forwardOnly("first");
    }

    @Override
    public final boolean last() throws SQLException {
        throw forwardOnly("last");
    }

    @Override
    public final boolean absolute(int row) throws SQLException {
        throw forwardOnly("absolute");
    }

    @Override
    public final boolean relative(int rows) throws SQLException {
        throw forwardOnly("relative");
    }

    @Override
    public final boolean previous() throws SQLException {
        throw forwardOnly("previous");
    }

    // ------------------------------------------------------------------ values SQLite has not

    @Override
    public final Ref getRef(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getRef");
    }

    @Override
    public final Ref getRef(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getRef");
    }

    @Override
    public final Blob getBlob(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getBlob");
    }

    @Override
    public final Blob getBlob(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getBlob");
    }

    @Override
    public final Clob getClob(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getClob");
    }

    @Override
    public final Clob getClob(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getClob");
    }

    @Override
    public final Array getArray(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getArray");
    }

    @Override
    public final Array getArray(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getArray");
    }

    @Override
    public final URL getURL(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getURL");
    }

    @Override
    public final URL getURL(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getURL");
    }

    @Override
    public final RowId getRowId(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getRowId");
    }

    @Override
    public final RowId getRowId(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getRowId");
    }

    @Override
    public final NClob getNClob(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getNClob");
    }

    @Override
    public final NClob getNClob(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getNClob");
    }

    @Override
    public final SQLXML getSQLXML(int columnIndex) throws SQLException {
        value(columnIndex);
        throw refused("getSQLXML");
    }

    @Override
    public final SQLXML getSQLXML(String columnLabel) throws SQLException {
        value(columnLabel);
        throw refused("getSQLXML");
    }
}
