package dev.lanes.internal.guard.delegating;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The part of {@link DelegatingDatabaseMetaData} that answers yes or no (what the database
 * supports, how it sorts and stores), and the calls every method is made through. Split off only
 * to keep each file short; nothing uses it but {@link DelegatingDatabaseMetaData}.
 */
public abstract class DelegatingMetaDataCapabilities implements DatabaseMetaData {
    /** One call on the driver's metadata. */
    @FunctionalInterface
    public interface Call<T> {
        T on(DatabaseMetaData metaData) throws SQLException;
    }

    DelegatingMetaDataCapabilities() {}

    /** Makes a call that returns no result set, on the metadata the subclass forwards to. */
    protected abstract <T> T call(Call<T> call) throws SQLException;

    /** Makes a call that returns a result set, which the subclass hands out as it chooses. */
    protected abstract ResultSet rows(Call<ResultSet> call) throws SQLException;

    /**
     * Makes a call without arguments that returns no result set (the product, its limits,
     * what it supports): an answer that depends on the database alone, which a subclass may
     * remember. Each such method has its own {@code slot}, from 0 to {@link
     * DelegatingDatabaseMetaData#CONSTANTS} (exclusive). By default, {@link #call}.
     */
    protected <T> T constant(int slot, Call<T> call) throws SQLException {
        return call(call);
    }

    @Override
    public boolean allProceduresAreCallable() throws SQLException {
        return constant(0, DatabaseMetaData::allProceduresAreCallable);
    }

    @Override
    public boolean allTablesAreSelectable() throws SQLException {
        return constant(1, DatabaseMetaData::allTablesAreSelectable);
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return constant(2, DatabaseMetaData::isReadOnly);
    }

    @Override
    public boolean nullsAreSortedHigh() throws SQLException {
        return constant(3, DatabaseMetaData::nullsAreSortedHigh);
    }

    @Override
    public boolean nullsAreSortedLow() throws SQLException {
        return constant(4, DatabaseMetaData::nullsAreSortedLow);
    }

    @Override
    public boolean nullsAreSortedAtStart() throws SQLException {
        return constant(5, DatabaseMetaData::nullsAreSortedAtStart);
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        return constant(6, DatabaseMetaData::nullsAreSortedAtEnd);
    }

    @Override
    public boolean usesLocalFiles() throws SQLException {
        return constant(7, DatabaseMetaData::usesLocalFiles);
    }

    @Override
    public boolean usesLocalFilePerTable() throws SQLException {
        return constant(8, DatabaseMetaData::usesLocalFilePerTable);
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() throws SQLException {
        return constant(9, DatabaseMetaData::supportsMixedCaseIdentifiers);
    }

    @Override
    public boolean storesUpperCaseIdentifiers() throws SQLException {
        return constant(10, DatabaseMetaData::storesUpperCaseIdentifiers);
    }

    @Override
    public boolean storesLowerCaseIdentifiers() throws SQLException {
        return constant(11, DatabaseMetaData::storesLowerCaseIdentifiers);
    }

    @Override
    public boolean storesMixedCaseIdentifiers() throws SQLException {
        return constant(12, DatabaseMetaData::storesMixedCaseIdentifiers);
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
        return constant(13, DatabaseMetaData::supportsMixedCaseQuotedIdentifiers);
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
        return constant(14, DatabaseMetaData::storesUpperCaseQuotedIdentifiers);
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
        return constant(15, DatabaseMetaData::storesLowerCaseQuotedIdentifiers);
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
        return constant(16, DatabaseMetaData::storesMixedCaseQuotedIdentifiers);
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws SQLException {
        return constant(17, DatabaseMetaData::supportsAlterTableWithAddColumn);
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        return constant(18, DatabaseMetaData::supportsAlterTableWithDropColumn);
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        return constant(19, DatabaseMetaData::supportsColumnAliasing);
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws SQLException {
        return constant(20, DatabaseMetaData::nullPlusNonNullIsNull);
    }

    @Override
    public boolean supportsConvert() throws SQLException {
        return constant(21, DatabaseMetaData::supportsConvert);
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) throws SQLException {
        return call(m -> m.supportsConvert(fromType, toType));
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        return constant(22, DatabaseMetaData::supportsTableCorrelationNames);
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws SQLException {
        return constant(23, DatabaseMetaData::supportsDifferentTableCorrelationNames);
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws SQLException {
        return constant(24, DatabaseMetaData::supportsExpressionsInOrderBy);
    }

    @Override
    public boolean supportsOrderByUnrelated() throws SQLException {
        return constant(25, DatabaseMetaData::supportsOrderByUnrelated);
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        return constant(26, DatabaseMetaData::supportsGroupBy);
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        return constant(27, DatabaseMetaData::supportsGroupByUnrelated);
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        return constant(28, DatabaseMetaData::supportsGroupByBeyondSelect);
    }

    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        return constant(29, DatabaseMetaData::supportsLikeEscapeClause);
    }

    @Override
    public boolean supportsMultipleResultSets() throws SQLException {
        return constant(30, DatabaseMetaData::supportsMultipleResultSets);
    }

    @Override
    public boolean supportsMultipleTransactions() throws SQLException {
        return constant(31, DatabaseMetaData::supportsMultipleTransactions);
    }

    @Override
    public boolean supportsNonNullableColumns() throws SQLException {
        return constant(32, DatabaseMetaData::supportsNonNullableColumns);
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        return constant(33, DatabaseMetaData::supportsMinimumSQLGrammar);
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws SQLException {
        return constant(34, DatabaseMetaData::supportsCoreSQLGrammar);
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        return constant(35, DatabaseMetaData::supportsExtendedSQLGrammar);
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws SQLException {
        return constant(36, DatabaseMetaData::supportsANSI92EntryLevelSQL);
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws SQLException {
        return constant(37, DatabaseMetaData::supportsANSI92IntermediateSQL);
    }

    @Override
    public boolean supportsANSI92FullSQL() throws SQLException {
        return constant(38, DatabaseMetaData::supportsANSI92FullSQL);
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        return constant(39, DatabaseMetaData::supportsIntegrityEnhancementFacility);
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        return constant(40, DatabaseMetaData::supportsOuterJoins);
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        return constant(41, DatabaseMetaData::supportsFullOuterJoins);
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        return constant(42, DatabaseMetaData::supportsLimitedOuterJoins);
    }

    @Override
    public boolean isCatalogAtStart() throws SQLException {
        return constant(43, DatabaseMetaData::isCatalogAtStart);
    }

    @Override
    public boolean supportsSchemasInDataManipulation() throws SQLException {
        return constant(44, DatabaseMetaData::supportsSchemasInDataManipulation);
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() throws SQLException {
        return constant(45, DatabaseMetaData::supportsSchemasInProcedureCalls);
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() throws SQLException {
        return constant(46, DatabaseMetaData::supportsSchemasInTableDefinitions);
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() throws SQLException {
        return constant(47, DatabaseMetaData::supportsSchemasInIndexDefinitions);
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
        return constant(48, DatabaseMetaData::supportsSchemasInPrivilegeDefinitions);
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() throws SQLException {
        return constant(49, DatabaseMetaData::supportsCatalogsInDataManipulation);
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() throws SQLException {
        return constant(50, DatabaseMetaData::supportsCatalogsInProcedureCalls);
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() throws SQLException {
        return constant(51, DatabaseMetaData::supportsCatalogsInTableDefinitions);
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
        return constant(52, DatabaseMetaData::supportsCatalogsInIndexDefinitions);
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
        return constant(53, DatabaseMetaData::supportsCatalogsInPrivilegeDefinitions);
    }

    @Override
    public boolean supportsPositionedDelete() throws SQLException {
        return constant(54, DatabaseMetaData::supportsPositionedDelete);
    }

    @Override
    public boolean supportsPositionedUpdate() throws SQLException {
        return constant(55, DatabaseMetaData::supportsPositionedUpdate);
    }

    @Override
    public boolean supportsSelectForUpdate() throws SQLException {
        return constant(56, DatabaseMetaData::supportsSelectForUpdate);
    }

    @Override
    public boolean supportsStoredProcedures() throws SQLException {
        return constant(57, DatabaseMetaData::supportsStoredProcedures);
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws SQLException {
        return constant(58, DatabaseMetaData::supportsSubqueriesInComparisons);
    }

    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        return constant(59, DatabaseMetaData::supportsSubqueriesInExists);
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        return constant(60, DatabaseMetaData::supportsSubqueriesInIns);
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        return constant(61, DatabaseMetaData::supportsSubqueriesInQuantifieds);
    }

    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        return constant(62, DatabaseMetaData::supportsCorrelatedSubqueries);
    }

    @Override
    public boolean supportsUnion() throws SQLException {
        return constant(63, DatabaseMetaData::supportsUnion);
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        return constant(64, DatabaseMetaData::supportsUnionAll);
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
        return constant(65, DatabaseMetaData::supportsOpenCursorsAcrossCommit);
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
        return constant(66, DatabaseMetaData::supportsOpenCursorsAcrossRollback);
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
        return constant(67, DatabaseMetaData::supportsOpenStatementsAcrossCommit);
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
        return constant(68, DatabaseMetaData::supportsOpenStatementsAcrossRollback);
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
        return constant(69, DatabaseMetaData::doesMaxRowSizeIncludeBlobs);
    }

    @Override
    public boolean supportsTransactions() throws SQLException {
        return constant(70, DatabaseMetaData::supportsTransactions);
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) throws SQLException {
        return call(m -> m.supportsTransactionIsolationLevel(level));
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
        return constant(71,
                DatabaseMetaData::supportsDataDefinitionAndDataManipulationTransactions);
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
        return constant(72, DatabaseMetaData::supportsDataManipulationTransactionsOnly);
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() throws SQLException {
        return constant(73, DatabaseMetaData::dataDefinitionCausesTransactionCommit);
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
        return constant(74, DatabaseMetaData::dataDefinitionIgnoredInTransactions);
    }

    @Override
    public boolean supportsResultSetType(int type) throws SQLException {
        return call(m -> m.supportsResultSetType(type));
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) throws SQLException {
        return call(m -> m.supportsResultSetConcurrency(type, concurrency));
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) throws SQLException {
        return call(m -> m.ownUpdatesAreVisible(type));
    }

    @Override
    public boolean ownDeletesAreVisible(int type) throws SQLException {
        return call(m -> m.ownDeletesAreVisible(type));
    }

    @Override
    public boolean ownInsertsAreVisible(int type) throws SQLException {
        return call(m -> m.ownInsertsAreVisible(type));
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) throws SQLException {
        return call(m -> m.othersUpdatesAreVisible(type));
    }

    @Override
    public boolean othersDeletesAreVisible(int type) throws SQLException {
        return call(m -> m.othersDeletesAreVisible(type));
    }

    @Override
    public boolean othersInsertsAreVisible(int type) throws SQLException {
        return call(m -> m.othersInsertsAreVisible(type));
    }

    @Override
    public boolean updatesAreDetected(int type) throws SQLException {
        return call(m -> m.updatesAreDetected(type));
    }

    @Override
    public boolean deletesAreDetected(int type) throws SQLException {
        return call(m -> m.deletesAreDetected(type));
    }

    @Override
    public boolean insertsAreDetected(int type) throws SQLException {
        return call(m -> m.insertsAreDetected(type));
    }

    @Override
    public boolean supportsBatchUpdates() throws SQLException {
        return constant(75, DatabaseMetaData::supportsBatchUpdates);
    }

    @Override
    public boolean supportsSavepoints() throws SQLException {
        return constant(76, DatabaseMetaData::supportsSavepoints);
    }

    @Override
    public boolean supportsNamedParameters() throws SQLException {
        return constant(77, DatabaseMetaData::supportsNamedParameters);
    }

    @Override
    public boolean supportsMultipleOpenResults() throws SQLException {
        return constant(78, DatabaseMetaData::supportsMultipleOpenResults);
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        return constant(79, DatabaseMetaData::supportsGetGeneratedKeys);
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) throws SQLException {
        return call(m -> m.supportsResultSetHoldability(holdability));
    }

    @Override
    public boolean locatorsUpdateCopy() throws SQLException {
        return constant(80, DatabaseMetaData::locatorsUpdateCopy);
    }

    @Override
    public boolean supportsStatementPooling() throws SQLException {
        return constant(81, DatabaseMetaData::supportsStatementPooling);
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
        return constant(82, DatabaseMetaData::supportsStoredFunctionsUsingCallSyntax);
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
        return constant(83, DatabaseMetaData::autoCommitFailureClosesAllResultSets);
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws SQLException {
        return constant(84, DatabaseMetaData::generatedKeyAlwaysReturned);
    }

    @Override
    public boolean supportsRefCursors() throws SQLException {
        return constant(85, DatabaseMetaData::supportsRefCursors);
    }

    @Override
    public boolean supportsSharding() throws SQLException {
        return constant(86, DatabaseMetaData::supportsSharding);
    }
}
