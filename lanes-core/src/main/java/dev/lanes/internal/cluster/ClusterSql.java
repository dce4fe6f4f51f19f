package dev.lanes.internal.cluster;

import dev.lanes.Row;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Rows;
import dev.lanes.internal.types.ValueConvention;
import dev.lanes.spi.ClusterSession;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * A cluster session's parameters and results as the rest of the runtime takes them. (What SQL a
 * cluster refuses is {@code StatementPolicy.CLUSTER_WRITER}'s and {@code CLUSTER_SCRIPT}'s.)
 * Stateless.
 */
final class ClusterSql {
    private ClusterSql() {}

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

    /** Fails a result larger in all than {@code maxBytes}, as a local reader does. */
    static void checkSize(String name, String sql, List<Row> rows, long maxBytes) {
        if (maxBytes == Rows.UNLIMITED) {
            return;
        }
        long bytes = 0;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            for (int j = 0; j < row.size(); j++) {
                bytes += Rows.sizeOf(row.get(j));
            }
            if (bytes > maxBytes) {
                throw Rows.tooLarge(name, sql, maxBytes, i + 1);
            }
        }
    }

    /**
     * A statement's parameters as the SPI takes them: each stored as Lanes stores every value it
     * binds ({@link ValueConvention#store}), so that a cluster database holds what a local one
     * would (a date as Lanes' text, a {@code BigDecimal} in plain notation, a {@code UUID} or an
     * enum as text) and refuses what a local one refuses (a lone surrogate, {@code NaN}), whatever
     * the engine's own encoding would make of the Java value. Every path to the engine binds here.
     */
    static List<Object> params(Object[] args) {
        if (args == null || args.length == 0) {
            return List.of();
        }
        Object[] stored = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            stored[i] = ValueConvention.store(args[i], i + 1);
        }
        return Arrays.asList(stored);
    }
}
