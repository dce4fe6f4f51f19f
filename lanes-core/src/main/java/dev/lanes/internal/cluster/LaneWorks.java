package dev.lanes.internal.cluster;

import dev.lanes.internal.sql.BatchFailure;
import dev.lanes.spi.ClusterSession;
import java.util.List;

/** The {@link LaneWork}s of a cluster database. Each is immutable. */
final class LaneWorks {
    private LaneWorks() {}

    /** Statements run in order, stopping at the first failure: one atomic request. */
    static final class Batch extends LaneWork<int[]> {
        private final List<dev.lanes.Statement> statements;

        Batch(List<dev.lanes.Statement> statements) {
            this.statements = statements;
        }

        @Override
        int[] run(ClusterWriterConnection c) throws BatchFailure {
            int[] counts = new int[statements.size()];
            for (int i = 0; i < counts.length; i++) {
                dev.lanes.Statement st = statements.get(i);
                counts[i] = update(c, i, st.sql(), st.args().toArray());
            }
            return counts;
        }
    }

    /** The statements of a script, without parameters, in order: one atomic request. */
    static final class Script extends LaneWork<Integer> {
        private final List<String> statements;

        Script(List<String> statements) {
            this.statements = statements;
        }

        @Override
        Integer run(ClusterWriterConnection c) throws BatchFailure {
            for (int i = 0; i < statements.size(); i++) {
                update(c, i, statements.get(i), new Object[0]);
            }
            return statements.size();
        }
    }

    /** A query on the lane, inside its transaction: a read while corked sees the corked writes. */
    static final class Query extends LaneWork<ClusterSession.Result> {
        private final String sql;
        private final Object[] args;

        Query(String sql, Object[] args) {
            this.sql = sql;
            this.args = args;
        }

        @Override
        ClusterSession.Result run(ClusterWriterConnection c) throws Exception {
            return c.queryWithColumns(sql, args);
        }
    }

    private static int update(ClusterWriterConnection c, int index, String sql, Object[] args)
            throws BatchFailure {
        try {
            return c.update(sql, args);
        } catch (Exception e) {
            throw new BatchFailure(index, sql, e);
        }
    }
}
