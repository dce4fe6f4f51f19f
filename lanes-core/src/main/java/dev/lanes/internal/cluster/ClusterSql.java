package dev.lanes.internal.cluster;

import dev.lanes.InvalidRequestException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.ReadOnlyClassifier;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.SqlText;
import dev.lanes.spi.ClusterSession;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * The SQL rules that differ on a cluster database, decided from the text before anything is sent.
 * Stateless.
 */
final class ClusterSql {
    private ClusterSql() {}

    /**
     * Refuses a statement given to a write that would return rows (a query, or a write with
     * {@code RETURNING}): a write runs as an exec, which does not read rows, and libdqlite 1.11's
     * leader aborts on the next write after a write whose rows were left unread.
     */
    static void refuseRows(String database, String where, String sql) {
        String why = ReadOnlyClassifier.refusal(sql) == null ? "a query"
                : SqlText.hasWord(sql, "RETURNING") ? "a write with RETURNING" : null;
        if (why != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": " + where
                    + " is " + why + " ('" + SqlText.shorten(sql) + "'), which returns rows; on a "
                    + "cluster database a write returns no rows: run the write, then read with "
                    + "query; nothing ran", null);
        }
    }

    /** Whether the statement's update count is its changes: SQLite leaves it stale for others. */
    static boolean countsRows(String sql) {
        switch (SqlText.firstKeyword(sql)) {
            case "INSERT":
            case "UPDATE":
            case "DELETE":
            case "REPLACE":
            case "WITH":
                return true;
            default:
                return false;
        }
    }

    /**
     * A query's result from a cluster session, as a JDBC result: the labels are the columns the
     * session named (for an empty result too, when its engine describes results, as dqlite's
     * does), the names are the labels, as sqlite-jdbc's are, and the declared types are asked of
     * {@code schema} when first wanted (see {@link DeclaredTypes}).
     */
    static ResultData resultData(ClusterSession.Result result, SchemaCopy schema, String sql) {
        List<String> labels = result.columns();
        return new ResultData(labels, labels, new DeclaredTypes(schema, sql, labels),
                result.rows());
    }

    /**
     * The declared types of a cluster query's columns, which a session does not give: found on
     * the {@link SchemaCopy} when one is first read (a JDBC caller seldom asks for a type name,
     * and finding them costs a round trip), then kept. Thread-safe: a racing first read finds an
     * equal list.
     */
    static final class DeclaredTypes extends AbstractList<String> {
        private final SchemaCopy schema;
        private final String sql;
        private final List<String> labels;
        private volatile List<String> found;

        DeclaredTypes(SchemaCopy schema, String sql, List<String> labels) {
            this.schema = schema;
            this.sql = sql;
            this.labels = labels;
        }

        @Override
        public String get(int index) {
            List<String> types = found;
            if (types == null) {
                types = labels.isEmpty() ? List.of() : schema.declaredTypes(sql, labels);
                found = types;
            }
            return types.get(index);
        }

        @Override
        public int size() {
            return labels.size();
        }
    }

    /** A statement's parameters as the SPI takes them. */
    static List<Object> params(Object[] args) {
        return args == null || args.length == 0 ? List.of() : Arrays.asList(args);
    }
}
