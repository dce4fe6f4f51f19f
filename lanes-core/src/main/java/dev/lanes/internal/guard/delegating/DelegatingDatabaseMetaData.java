package dev.lanes.internal.guard.delegating;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;

/**
 * A {@link DatabaseMetaData} that forwards every call, once per method and typed, through the
 * calls of {@link DelegatingMetaDataCapabilities} (which holds the yes-or-no methods): {@link
 * #call}, {@link #rows} for a result set, {@link #constant} for an answer of the database alone.
 * A subclass decides where the calls run, overrides only what it answers itself, and answers
 * {@code unwrap} and {@code isWrapperFor}. Holds no state of its own.
 */
public abstract class DelegatingDatabaseMetaData extends DelegatingMetaDataCapabilities {
    /** How many slots {@link #constant} is called with. */
    public static final int CONSTANTS = 136;

    /** A driver version: JDBC lets only these fail unchecked. */
    private int driverVersion(int slot, Call<Integer> call) {
        try {
            return constant(slot, call);
        } catch (SQLException e) {
            throw new IllegalStateException("the driver's version is unknown: " + e.getMessage(),
                    e);
        }
    }

    @Override
    public String getURL() throws SQLException {
        return constant(87, DatabaseMetaData::getURL);
    }

    @Override
    public String getUserName() throws SQLException {
        return constant(88, DatabaseMetaData::getUserName);
    }

    @Override
    public String getDatabaseProductName() throws SQLException {
        return constant(89, DatabaseMetaData::getDatabaseProductName);
    }

    @Override
    public String getDatabaseProductVersion() throws SQLException {
        return constant(90, DatabaseMetaData::getDatabaseProductVersion);
    }

    @Override
    public String getDriverName() throws SQLException {
        return constant(91, DatabaseMetaData::getDriverName);
    }

    @Override
    public String getDriverVersion() throws SQLException {
        return constant(92, DatabaseMetaData::getDriverVersion);
    }

    @Override
    public int getDriverMajorVersion() {
        return driverVersion(93, DatabaseMetaData::getDriverMajorVersion);
    }

    @Override
    public int getDriverMinorVersion() {
        return driverVersion(94, DatabaseMetaData::getDriverMinorVersion);
    }

    @Override
    public String getIdentifierQuoteString() throws SQLException {
        return constant(95, DatabaseMetaData::getIdentifierQuoteString);
    }

    @Override
    public String getSQLKeywords() throws SQLException {
        return constant(96, DatabaseMetaData::getSQLKeywords);
    }

    @Override
    public String getNumericFunctions() throws SQLException {
        return constant(97, DatabaseMetaData::getNumericFunctions);
    }

    @Override
    public String getStringFunctions() throws SQLException {
        return constant(98, DatabaseMetaData::getStringFunctions);
    }

    @Override
    public String getSystemFunctions() throws SQLException {
        return constant(99, DatabaseMetaData::getSystemFunctions);
    }

    @Override
    public String getTimeDateFunctions() throws SQLException {
        return constant(100, DatabaseMetaData::getTimeDateFunctions);
    }

    @Override
    public String getSearchStringEscape() throws SQLException {
        return constant(101, DatabaseMetaData::getSearchStringEscape);
    }

    @Override
    public String getExtraNameCharacters() throws SQLException {
        return constant(102, DatabaseMetaData::getExtraNameCharacters);
    }

    @Override
    public String getSchemaTerm() throws SQLException {
        return constant(103, DatabaseMetaData::getSchemaTerm);
    }

    @Override
    public String getProcedureTerm() throws SQLException {
        return constant(104, DatabaseMetaData::getProcedureTerm);
    }

    @Override
    public String getCatalogTerm() throws SQLException {
        return constant(105, DatabaseMetaData::getCatalogTerm);
    }

    @Override
    public String getCatalogSeparator() throws SQLException {
        return constant(106, DatabaseMetaData::getCatalogSeparator);
    }

    @Override
    public int getMaxBinaryLiteralLength() throws SQLException {
        return constant(107, DatabaseMetaData::getMaxBinaryLiteralLength);
    }

    @Override
    public int getMaxCharLiteralLength() throws SQLException {
        return constant(108, DatabaseMetaData::getMaxCharLiteralLength);
    }

    @Override
    public int getMaxColumnNameLength() throws SQLException {
        return constant(109, DatabaseMetaData::getMaxColumnNameLength);
    }

    @Override
    public int getMaxColumnsInGroupBy() throws SQLException {
        return constant(110, DatabaseMetaData::getMaxColumnsInGroupBy);
    }

    @Override
    public int getMaxColumnsInIndex() throws SQLException {
        return constant(111, DatabaseMetaData::getMaxColumnsInIndex);
    }

    @Override
    public int getMaxColumnsInOrderBy() throws SQLException {
        return constant(112, DatabaseMetaData::getMaxColumnsInOrderBy);
    }

    @Override
    public int getMaxColumnsInSelect() throws SQLException {
        return constant(113, DatabaseMetaData::getMaxColumnsInSelect);
    }

    @Override
    public int getMaxColumnsInTable() throws SQLException {
        return constant(114, DatabaseMetaData::getMaxColumnsInTable);
    }

    @Override
    public int getMaxConnections() throws SQLException {
        return constant(115, DatabaseMetaData::getMaxConnections);
    }

    @Override
    public int getMaxCursorNameLength() throws SQLException {
        return constant(116, DatabaseMetaData::getMaxCursorNameLength);
    }

    @Override
    public int getMaxIndexLength() throws SQLException {
        return constant(117, DatabaseMetaData::getMaxIndexLength);
    }

    @Override
    public int getMaxSchemaNameLength() throws SQLException {
        return constant(118, DatabaseMetaData::getMaxSchemaNameLength);
    }

    @Override
    public int getMaxProcedureNameLength() throws SQLException {
        return constant(119, DatabaseMetaData::getMaxProcedureNameLength);
    }

    @Override
    public int getMaxCatalogNameLength() throws SQLException {
        return constant(120, DatabaseMetaData::getMaxCatalogNameLength);
    }

    @Override
    public int getMaxRowSize() throws SQLException {
        return constant(121, DatabaseMetaData::getMaxRowSize);
    }

    @Override
    public int getMaxStatementLength() throws SQLException {
        return constant(122, DatabaseMetaData::getMaxStatementLength);
    }

    @Override
    public int getMaxStatements() throws SQLException {
        return constant(123, DatabaseMetaData::getMaxStatements);
    }

    @Override
    public int getMaxTableNameLength() throws SQLException {
        return constant(124, DatabaseMetaData::getMaxTableNameLength);
    }

    @Override
    public int getMaxTablesInSelect() throws SQLException {
        return constant(125, DatabaseMetaData::getMaxTablesInSelect);
    }

    @Override
    public int getMaxUserNameLength() throws SQLException {
        return constant(126, DatabaseMetaData::getMaxUserNameLength);
    }

    @Override
    public int getDefaultTransactionIsolation() throws SQLException {
        return constant(127, DatabaseMetaData::getDefaultTransactionIsolation);
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern,
            String procedureNamePattern) throws SQLException {
        return rows(m -> m.getProcedures(catalog, schemaPattern, procedureNamePattern));
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern,
            String procedureNamePattern, String columnNamePattern) throws SQLException {
        return rows(m -> m.getProcedureColumns(catalog, schemaPattern, procedureNamePattern,
                columnNamePattern));
    }

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern,
            String[] types) throws SQLException {
        return rows(m -> m.getTables(catalog, schemaPattern, tableNamePattern, types));
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return rows(m -> m.getSchemas());
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return rows(m -> m.getCatalogs());
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        return rows(m -> m.getTableTypes());
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
            String columnNamePattern) throws SQLException {
        return rows(m -> m.getColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern));
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table,
            String columnNamePattern) throws SQLException {
        return rows(m -> m.getColumnPrivileges(catalog, schema, table, columnNamePattern));
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern,
            String tableNamePattern) throws SQLException {
        return rows(m -> m.getTablePrivileges(catalog, schemaPattern, tableNamePattern));
    }

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope,
            boolean nullable) throws SQLException {
        return rows(m -> m.getBestRowIdentifier(catalog, schema, table, scope, nullable));
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table)
            throws SQLException {
        return rows(m -> m.getVersionColumns(catalog, schema, table));
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table)
            throws SQLException {
        return rows(m -> m.getPrimaryKeys(catalog, schema, table));
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table)
            throws SQLException {
        return rows(m -> m.getImportedKeys(catalog, schema, table));
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table)
            throws SQLException {
        return rows(m -> m.getExportedKeys(catalog, schema, table));
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema,
            String parentTable, String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        return rows(m -> m.getCrossReference(parentCatalog, parentSchema, parentTable,
                foreignCatalog, foreignSchema, foreignTable));
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        return rows(m -> m.getTypeInfo());
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique,
            boolean approximate) throws SQLException {
        return rows(m -> m.getIndexInfo(catalog, schema, table, unique, approximate));
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern,
            int[] types) throws SQLException {
        return rows(m -> m.getUDTs(catalog, schemaPattern, typeNamePattern, types));
    }

    @Override
    public Connection getConnection() throws SQLException {
        return call(m -> m.getConnection());
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern)
            throws SQLException {
        return rows(m -> m.getSuperTypes(catalog, schemaPattern, typeNamePattern));
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return rows(m -> m.getSuperTables(catalog, schemaPattern, tableNamePattern));
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
            String attributeNamePattern) throws SQLException {
        return rows(m -> m.getAttributes(catalog, schemaPattern, typeNamePattern,
                attributeNamePattern));
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        return constant(128, DatabaseMetaData::getResultSetHoldability);
    }

    @Override
    public int getDatabaseMajorVersion() throws SQLException {
        return constant(129, DatabaseMetaData::getDatabaseMajorVersion);
    }

    @Override
    public int getDatabaseMinorVersion() throws SQLException {
        return constant(130, DatabaseMetaData::getDatabaseMinorVersion);
    }

    @Override
    public int getJDBCMajorVersion() throws SQLException {
        return constant(131, DatabaseMetaData::getJDBCMajorVersion);
    }

    @Override
    public int getJDBCMinorVersion() throws SQLException {
        return constant(132, DatabaseMetaData::getJDBCMinorVersion);
    }

    @Override
    public int getSQLStateType() throws SQLException {
        return constant(133, DatabaseMetaData::getSQLStateType);
    }

    @Override
    public RowIdLifetime getRowIdLifetime() throws SQLException {
        return constant(134, DatabaseMetaData::getRowIdLifetime);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        return rows(m -> m.getSchemas(catalog, schemaPattern));
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return rows(m -> m.getClientInfoProperties());
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        return rows(m -> m.getFunctions(catalog, schemaPattern, functionNamePattern));
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern,
            String functionNamePattern, String columnNamePattern) throws SQLException {
        return rows(m -> m.getFunctionColumns(catalog, schemaPattern, functionNamePattern,
                columnNamePattern));
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
            String columnNamePattern) throws SQLException {
        return rows(m -> m.getPseudoColumns(catalog, schemaPattern, tableNamePattern,
                columnNamePattern));
    }

    @Override
    public long getMaxLogicalLobSize() throws SQLException {
        return constant(135, DatabaseMetaData::getMaxLogicalLobSize);
    }
}
