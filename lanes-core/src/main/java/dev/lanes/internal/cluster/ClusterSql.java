package dev.lanes.internal.cluster;

import dev.lanes.InvalidRequestException;
import dev.lanes.Row;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.ReadOnlyClassifier;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.SqlLexer;
import dev.lanes.internal.sql.SqlText;
import java.util.Arrays;
import java.util.Collections;
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
                : hasReturning(sql) ? "a write with RETURNING" : null;
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

    private static boolean hasReturning(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        while (lexer.next()) {
            if (lexer.is("RETURNING")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rows a cluster session returned, as a JDBC result: the labels are the rows' columns (none
     * when there is no row: a session gives rows, not columns), the names are the labels, and
     * every declared type is unknown (null), since a session does not give them.
     */
    static ResultData resultData(List<Row> rows) {
        List<String> labels = rows.isEmpty() ? List.of() : rows.get(0).columns();
        return new ResultData(labels, labels, Collections.nCopies(labels.size(), null), rows);
    }

    /** A statement's parameters as the SPI takes them. */
    static List<Object> params(Object[] args) {
        return args == null || args.length == 0 ? List.of() : Arrays.asList(args);
    }
}
