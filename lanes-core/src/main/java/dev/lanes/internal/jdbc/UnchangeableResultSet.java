package dev.lanes.internal.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * What no read-only {@link ResultSet} does, in one place: every update of a cell and every row
 * change fails with {@link SQLFeatureNotSupportedException} (JDBC lets a driver refuse them),
 * after a closed result set said it is closed. Stateless.
 */
abstract sealed class UnchangeableResultSet implements ResultSet, OwnWrapper
        permits ReadOnlyResultSet {
    /** Fails with an {@link SQLException} once the result set is closed. */
    abstract void checkOpen() throws SQLException;

    final SQLException readOnly(String call) throws SQLException {
        checkOpen();
        return new SQLFeatureNotSupportedException("the result set is read-only (" + call + ")");
    }

    @Override
    public final boolean rowUpdated() throws SQLException {
        throw readOnly("rowUpdated");
    }

    @Override
    public final boolean rowInserted() throws SQLException {
        throw readOnly("rowInserted");
    }

    @Override
    public final boolean rowDeleted() throws SQLException {
        throw readOnly("rowDeleted");
    }

    @Override
    public final void insertRow() throws SQLException {
        throw readOnly("insertRow");
    }

    @Override
    public final void deleteRow() throws SQLException {
        throw readOnly("deleteRow");
    }

    @Override
    public final void refreshRow() throws SQLException {
        throw readOnly("refreshRow");
    }

    @Override
    public final void moveToInsertRow() throws SQLException {
        throw readOnly("moveToInsertRow");
    }

    @Override
    public final void moveToCurrentRow() throws SQLException {
        throw readOnly("moveToCurrentRow");
    }

    @Override
    public final void cancelRowUpdates() throws SQLException {
        checkOpen();
        throw new SQLFeatureNotSupportedException("ResultSet.cancelRowUpdates is not supported");
    }

    @Override
    public final void updateNull(int columnIndex) throws SQLException {
        throw readOnly("updateNull");
    }

    @Override
    public final void updateBoolean(int columnIndex, boolean x) throws SQLException {
        throw readOnly("updateBoolean");
    }

    @Override
    public final void updateByte(int columnIndex, byte x) throws SQLException {
        throw readOnly("updateByte");
    }

    @Override
    public final void updateShort(int columnIndex, short x) throws SQLException {
        throw readOnly("updateShort");
    }

    @Override
    public final void updateInt(int columnIndex, int x) throws SQLException {
        throw readOnly("updateInt");
    }

    @Override
    public final void updateLong(int columnIndex, long x) throws SQLException {
        throw readOnly("updateLong");
    }

    @Override
    public final void updateFloat(int columnIndex, float x) throws SQLException {
        throw readOnly("updateFloat");
    }

    @Override
    public final void updateDouble(int columnIndex, double x) throws SQLException {
        throw readOnly("updateDouble");
    }

    @Override
    public final void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
        throw readOnly("updateBigDecimal");
    }

    @Override
    public final void updateString(int columnIndex, String x) throws SQLException {
        throw readOnly("updateString");
    }

    @Override
    public final void updateBytes(int columnIndex, byte[] x) throws SQLException {
        throw readOnly("updateBytes");
    }

    @Override
    public final void updateDate(int columnIndex, Date x) throws SQLException {
        throw readOnly("updateDate");
    }

    @Override
    public final void updateTime(int columnIndex, Time x) throws SQLException {
        throw readOnly("updateTime");
    }

    @Override
    public final void updateTimestamp(int columnIndex, Timestamp x) throws SQLException {
        throw readOnly("updateTimestamp");
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream x, int length)
            throws SQLException {
        throw readOnly("updateAsciiStream");
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream x, int length)
            throws SQLException {
        throw readOnly("updateBinaryStream");
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader x, int length)
            throws SQLException {
        throw readOnly("updateCharacterStream");
    }

    @Override
    public final void updateObject(int columnIndex, Object x, int scaleOrLength)
            throws SQLException {
        throw readOnly("updateObject");
    }

    @Override
    public final void updateObject(int columnIndex, Object x) throws SQLException {
        throw readOnly("updateObject");
    }

    @Override
    public final void updateNull(String columnLabel) throws SQLException {
        throw readOnly("updateNull");
    }

    @Override
    public final void updateBoolean(String columnLabel, boolean x) throws SQLException {
        throw readOnly("updateBoolean");
    }

    @Override
    public final void updateByte(String columnLabel, byte x) throws SQLException {
        throw readOnly("updateByte");
    }

    @Override
    public final void updateShort(String columnLabel, short x) throws SQLException {
        throw readOnly("updateShort");
    }

    @Override
    public final void updateInt(String columnLabel, int x) throws SQLException {
        throw readOnly("updateInt");
    }

    @Override
    public final void updateLong(String columnLabel, long x) throws SQLException {
        throw readOnly("updateLong");
    }

    @Override
    public final void updateFloat(String columnLabel, float x) throws SQLException {
        throw readOnly("updateFloat");
    }

    @Override
    public final void updateDouble(String columnLabel, double x) throws SQLException {
        throw readOnly("updateDouble");
    }

    @Override
    public final void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
        throw readOnly("updateBigDecimal");
    }

    @Override
    public final void updateString(String columnLabel, String x) throws SQLException {
        throw readOnly("updateString");
    }

    @Override
    public final void updateBytes(String columnLabel, byte[] x) throws SQLException {
        throw readOnly("updateBytes");
    }

    @Override
    public final void updateDate(String columnLabel, Date x) throws SQLException {
        throw readOnly("updateDate");
    }

    @Override
    public final void updateTime(String columnLabel, Time x) throws SQLException {
        throw readOnly("updateTime");
    }

    @Override
    public final void updateTimestamp(String columnLabel, Timestamp x) throws SQLException {
        throw readOnly("updateTimestamp");
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream x, int length)
            throws SQLException {
        throw readOnly("updateAsciiStream");
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream x, int length)
            throws SQLException {
        throw readOnly("updateBinaryStream");
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader x, int length)
            throws SQLException {
        throw readOnly("updateCharacterStream");
    }

    @Override
    public final void updateObject(String columnLabel, Object x, int scaleOrLength)
            throws SQLException {
        throw readOnly("updateObject");
    }

    @Override
    public final void updateObject(String columnLabel, Object x) throws SQLException {
        throw readOnly("updateObject");
    }

    @Override
    public final void updateRow() throws SQLException {
        throw readOnly("updateRow");
    }

    @Override
    public final void updateRef(int columnIndex, Ref x) throws SQLException {
        throw readOnly("updateRef");
    }

    @Override
    public final void updateRef(String columnLabel, Ref x) throws SQLException {
        throw readOnly("updateRef");
    }

    @Override
    public final void updateBlob(int columnIndex, Blob x) throws SQLException {
        throw readOnly("updateBlob");
    }

    @Override
    public final void updateBlob(String columnLabel, Blob x) throws SQLException {
        throw readOnly("updateBlob");
    }

    @Override
    public final void updateClob(int columnIndex, Clob x) throws SQLException {
        throw readOnly("updateClob");
    }

    @Override
    public final void updateClob(String columnLabel, Clob x) throws SQLException {
        throw readOnly("updateClob");
    }

    @Override
    public final void updateArray(int columnIndex, Array x) throws SQLException {
        throw readOnly("updateArray");
    }

    @Override
    public final void updateArray(String columnLabel, Array x) throws SQLException {
        throw readOnly("updateArray");
    }

    @Override
    public final void updateRowId(int columnIndex, RowId x) throws SQLException {
        throw readOnly("updateRowId");
    }

    @Override
    public final void updateRowId(String columnLabel, RowId x) throws SQLException {
        throw readOnly("updateRowId");
    }

    @Override
    public final void updateNString(int columnIndex, String x) throws SQLException {
        throw readOnly("updateNString");
    }

    @Override
    public final void updateNString(String columnLabel, String x) throws SQLException {
        throw readOnly("updateNString");
    }

    @Override
    public final void updateNClob(int columnIndex, NClob x) throws SQLException {
        throw readOnly("updateNClob");
    }

    @Override
    public final void updateNClob(String columnLabel, NClob x) throws SQLException {
        throw readOnly("updateNClob");
    }

    @Override
    public final void updateSQLXML(int columnIndex, SQLXML x) throws SQLException {
        throw readOnly("updateSQLXML");
    }

    @Override
    public final void updateSQLXML(String columnLabel, SQLXML x) throws SQLException {
        throw readOnly("updateSQLXML");
    }

    @Override
    public final void updateNCharacterStream(int columnIndex, Reader x, long length)
            throws SQLException {
        throw readOnly("updateNCharacterStream");
    }

    @Override
    public final void updateNCharacterStream(String columnLabel, Reader x, long length)
            throws SQLException {
        throw readOnly("updateNCharacterStream");
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream x, long length)
            throws SQLException {
        throw readOnly("updateAsciiStream");
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream x, long length)
            throws SQLException {
        throw readOnly("updateBinaryStream");
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader x, long length)
            throws SQLException {
        throw readOnly("updateCharacterStream");
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream x, long length)
            throws SQLException {
        throw readOnly("updateAsciiStream");
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream x, long length)
            throws SQLException {
        throw readOnly("updateBinaryStream");
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader x, long length)
            throws SQLException {
        throw readOnly("updateCharacterStream");
    }

    @Override
    public final void updateBlob(int columnIndex, InputStream x, long length) throws SQLException {
        throw readOnly("updateBlob");
    }

    @Override
    public final void updateBlob(String columnLabel, InputStream x, long length)
            throws SQLException {
        throw readOnly("updateBlob");
    }

    @Override
    public final void updateClob(int columnIndex, Reader x, long length) throws SQLException {
        throw readOnly("updateClob");
    }

    @Override
    public final void updateClob(String columnLabel, Reader x, long length) throws SQLException {
        throw readOnly("updateClob");
    }

    @Override
    public final void updateNClob(int columnIndex, Reader x, long length) throws SQLException {
        throw readOnly("updateNClob");
    }

    @Override
    public final void updateNClob(String columnLabel, Reader x, long length) throws SQLException {
        throw readOnly("updateNClob");
    }

    @Override
    public final void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw readOnly("updateNCharacterStream");
    }

    @Override
    public final void updateNCharacterStream(String columnLabel, Reader x) throws SQLException {
        throw readOnly("updateNCharacterStream");
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
        throw readOnly("updateAsciiStream");
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
        throw readOnly("updateBinaryStream");
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw readOnly("updateCharacterStream");
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
        throw readOnly("updateAsciiStream");
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
        throw readOnly("updateBinaryStream");
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader x) throws SQLException {
        throw readOnly("updateCharacterStream");
    }

    @Override
    public final void updateBlob(int columnIndex, InputStream x) throws SQLException {
        throw readOnly("updateBlob");
    }

    @Override
    public final void updateBlob(String columnLabel, InputStream x) throws SQLException {
        throw readOnly("updateBlob");
    }

    @Override
    public final void updateClob(int columnIndex, Reader x) throws SQLException {
        throw readOnly("updateClob");
    }

    @Override
    public final void updateClob(String columnLabel, Reader x) throws SQLException {
        throw readOnly("updateClob");
    }

    @Override
    public final void updateNClob(int columnIndex, Reader x) throws SQLException {
        throw readOnly("updateNClob");
    }

    @Override
    public final void updateNClob(String columnLabel, Reader x) throws SQLException {
        throw readOnly("updateNClob");
    }

    @Override
    public final void updateObject(int columnIndex, Object x, SQLType targetSqlType,
            int scaleOrLength) throws SQLException {
        throw readOnly("updateObject");
    }

    @Override
    public final void updateObject(String columnLabel, Object x, SQLType targetSqlType,
            int scaleOrLength) throws SQLException {
        throw readOnly("updateObject");
    }

    @Override
    public final void updateObject(int columnIndex, Object x, SQLType targetSqlType)
            throws SQLException {
        throw readOnly("updateObject");
    }

    @Override
    public final void updateObject(String columnLabel, Object x, SQLType targetSqlType)
            throws SQLException {
        throw readOnly("updateObject");
    }
}
