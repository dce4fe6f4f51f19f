package dev.lanes.internal.guard.delegating;

import java.sql.ParameterMetaData;
import java.sql.SQLException;

/**
 * A {@link ParameterMetaData} that forwards every call, once per method and typed, to the
 * metadata {@link #delegate()} gives. A subclass answers {@code unwrap} and {@code isWrapperFor}
 * itself.
 */
public abstract class DelegatingParameterMetaData implements ParameterMetaData {
    /** The metadata a call is forwarded to; a subclass may check the call here first. */
    protected abstract ParameterMetaData delegate() throws SQLException;

    @Override
    public int getParameterCount() throws SQLException {
        return delegate().getParameterCount();
    }

    @Override
    public int isNullable(int param) throws SQLException {
        return delegate().isNullable(param);
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        return delegate().isSigned(param);
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        return delegate().getPrecision(param);
    }

    @Override
    public int getScale(int param) throws SQLException {
        return delegate().getScale(param);
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        return delegate().getParameterType(param);
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        return delegate().getParameterTypeName(param);
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        return delegate().getParameterClassName(param);
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        return delegate().getParameterMode(param);
    }
}
