package dev.lanes.spring.data;

import java.sql.DatabaseMetaData;
import java.util.Locale;
import java.util.Optional;
import org.springframework.data.jdbc.core.dialect.DialectResolver;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.relational.core.dialect.AbstractDialect;
import org.springframework.data.relational.core.dialect.Dialect;
import org.springframework.data.relational.core.dialect.IdGeneration;
import org.springframework.data.relational.core.dialect.LimitClause;
import org.springframework.data.relational.core.dialect.LockClause;
import org.springframework.data.relational.core.sql.LockOptions;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * A Spring Data JDBC dialect for SQLite, which Spring Data does not know: {@code LIMIT … OFFSET
 * …}, ANSI-quoted identifiers (Spring Data's default), ids from generated keys (one insert at a
 * time where ids are generated), and no lock
 * clause (SQLite has no {@code SELECT … FOR UPDATE}; on Lanes a read-write transaction holds the
 * writer lane from its first statement, which serializes it already). Found by Spring Data's
 * {@link DialectResolver} through {@code META-INF/spring.factories} for any data source whose
 * product name is SQLite, the Lanes {@code DataSource} among them.
 */
public final class SqliteJdbcDialect extends AbstractDialect implements JdbcDialect {
    /** The dialect. */
    public static final SqliteJdbcDialect INSTANCE = new SqliteJdbcDialect();

    private static final LimitClause LIMIT = new LimitClause() {
        @Override
        public String getLimit(long limit) {
            return "LIMIT " + limit;
        }

        @Override
        public String getOffset(long offset) {
            return "LIMIT -1 OFFSET " + offset;
        }

        @Override
        public String getLimitOffset(long limit, long offset) {
            return "LIMIT " + limit + " OFFSET " + offset;
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    private static final LockClause NO_LOCK = new LockClause() {
        @Override
        public String getLock(LockOptions lockOptions) {
            return "";
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    /**
     * Keys from {@code getGeneratedKeys()}, one insert at a time: after a batch, SQLite's driver
     * gives only the last row's key, so batched inserts that need their ids run one by one.
     */
    private static final IdGeneration ID_GENERATION = new IdGeneration() {
        @Override
        public boolean supportedForBatchOperations() {
            return false;
        }
    };

    private SqliteJdbcDialect() {}

    @Override
    public IdGeneration getIdGeneration() {
        return ID_GENERATION;
    }

    @Override
    public LimitClause limit() {
        return LIMIT;
    }

    @Override
    public LockClause lock() {
        return NO_LOCK;
    }

    /** Gives {@link SqliteJdbcDialect#INSTANCE} for an SQLite data source. */
    public static final class Provider implements DialectResolver.JdbcDialectProvider {
        @Override
        public Optional<Dialect> getDialect(JdbcOperations operations) {
            String product = operations.execute((ConnectionCallback<String>) c -> {
                DatabaseMetaData metaData = c.getMetaData();
                return metaData.getDatabaseProductName();
            });
            return product != null && product.toLowerCase(Locale.ROOT).contains("sqlite")
                    ? Optional.of(INSTANCE) : Optional.empty();
        }
    }
}
