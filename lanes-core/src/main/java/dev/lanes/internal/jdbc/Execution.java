package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Statements;

/**
 * What one JDBC execution produced: rows, or an update count and the keys it generated.
 * Immutable.
 *
 * @param rows the rows, or null for a count
 * @param count the update count, or -1 for rows
 * @param keys the count and the last rowid of an insert whose keys were fetched, else null
 */
record Execution(ResultData rows, int count, Statements.Update keys) {
    /** What an execution was asked for. */
    enum Intent {
        /** {@code executeQuery}: rows. */
        QUERY,
        /** {@code executeUpdate}: a count. */
        UPDATE,
        /** {@code execute}: rows when the statement returns any, else a count. */
        ANY
    }

    static Execution ofRows(ResultData rows) {
        return new Execution(rows, -1, null);
    }

    /** What the lane returned for a statement: rows, a count with keys, or a bare count. */
    static Execution of(Object result) {
        if (result instanceof ResultData) {
            return ofRows((ResultData) result);
        }
        if (result instanceof Statements.Update) {
            Statements.Update u = (Statements.Update) result;
            return new Execution(null, u.count(), u);
        }
        return new Execution(null, (Integer) result, null);
    }
}
