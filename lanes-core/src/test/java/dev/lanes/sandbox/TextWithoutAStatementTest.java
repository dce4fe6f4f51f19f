package dev.lanes.sandbox;

import static dev.lanes.sandbox.HostileInputAtScaleTest.descriptorsUnder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.TestRuntime;
import java.sql.Connection;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Regression, found by {@link HostileInputAtScaleTest}: a text in which SQLite finds no
 * statement (empty, white space, only comments or semicolons, an unterminated comment, or
 * anything after a leading NUL) made sqlite-jdbc 3.53.4.0 fail with "The prepared statement has
 * been finalized", after which the connection could not be closed: every such request leaked a
 * connection and its descriptors, still open after {@code Lanes.close()} released the lease.
 * Now each path refuses such a text, typed and before the driver sees it, and nothing stays
 * open.
 */
@Timeout(60)
class TextWithoutAStatementTest {
    static final List<String> EMPTY = List.of("", "   \n\t", "-- only a comment",
            "/* unterminated", ";;", " ; -- x", "\0SELECT 1", "/* a */ ; \0 DELETE FROM t");

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    static Stream<Arguments> paths() {
        return Stream.of("db.execute", "db.query", "write body, execute",
                "write body, prepareStatement", "write body, addBatch", "read body, executeQuery",
                "read body, prepareStatement", "maintenance body", "tx.execute", "tx.query",
                "db.executeBatch", "dataSource, autocommit")
                .flatMap(how -> EMPTY.stream().map(sql -> Arguments.of(how, sql)));
    }

    @ParameterizedTest(name = "{0}: [{1}]")
    @MethodSource("paths")
    void aTextWithoutAStatementIsRefusedTypedAndLeavesNoConnectionOpen(String how, String sql)
            throws Exception {
        Database db = runtime.openWithTable("empty.db", DatabaseOptions.builder().readers(1)
                .build());
        db.execute("INSERT INTO t(v) VALUES ('kept')");
        Throwable t = catchThrowable(() -> run(db, how, sql));
        assertThat(t).as(how).isInstanceOf(LanesException.class);
        assertThat(rootOrSelf(t)).as(how).isInstanceOf(InvalidRequestException.class);
        assertThat(rootOrSelf(t).getMessage()).contains("without a statement")
                .contains("nothing ran");
        Sandbox.assertHealthy(db);
        runtime.close();
        assertThat(descriptorsUnder(runtime.dir())).as("descriptors left open by %s of [%s]", how,
                sql).isEmpty();
    }

    @Test
    void aTextWithAStatementAndEmptyOnesAfterItStillRuns() throws Exception {
        Database db = runtime.openWithTable("kept.db");
        db.execute("INSERT INTO t(v) VALUES ('a'); -- a comment after it");
        assertThat(db.query("SELECT count(*) FROM t; ;").get(0).get(0)).isEqualTo(1L);
        assertThat(db.executeScript("INSERT INTO t(v) VALUES ('b');; -- trailing\n")).isOne();
        runtime.close();
        assertThat(descriptorsUnder(runtime.dir())).isEmpty();
    }

    private static void run(Database db, String how, String sql) throws Exception {
        switch (how) {
            case "db.query":
                db.query(sql);
                break;
            case "read body, executeQuery":
                db.read(c -> c.createStatement().executeQuery(sql));
                break;
            case "read body, prepareStatement":
                db.read(c -> c.prepareStatement(sql).executeQuery());
                break;
            case "dataSource, autocommit":
                try (Connection c = db.dataSource().getConnection()) {
                    c.createStatement().execute(sql);
                } catch (java.sql.SQLException e) {
                    throw unwrap(e);
                }
                break;
            default:
                Sandbox.runOnWriter(db, how, sql);
                break;
        }
    }

    /** The Lanes failure behind a JDBC exception of the data source, or the exception. */
    private static Exception unwrap(java.sql.SQLException e) {
        return e.getCause() instanceof LanesException ? (LanesException) e.getCause() : e;
    }

    /** A body's refusal may arrive as the cause of the request's failure. */
    private static Throwable rootOrSelf(Throwable t) {
        return t instanceof InvalidRequestException || t.getCause() == null ? t : t.getCause();
    }
}
