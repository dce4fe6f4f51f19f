package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.SqlFunction;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sqlite.SQLiteConnection;

/**
 * {@code unwrap} is the one documented way from a body's connection to the driver's: every
 * object reached from the guarded connection by any other call, on the writer and on readers,
 * is guarded, leads back only to the guarded connection, and cannot be cast to the driver's.
 */
@Timeout(60)
class GuardedObjectsTest {
    @TempDir Path dir;
    Lanes lanes;
    Database db;

    static Stream<String> sides() {
        return Stream.of("write", "maintenance", "read");
    }

    static <T> T on(String side, Database db, SqlFunction<T> body) {
        switch (side) {
            case "write": return db.write(body);
            case "maintenance": return db.maintenance(body);
            default: return db.read(body);
        }
    }

    @BeforeEach
    void start() {
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "objects.db", DatabaseOptions.DEFAULTS);
        db.execute("INSERT INTO t(v) VALUES ('row')");
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sides")
    void everyPathBackToAConnectionLeadsToTheGuardedOne(String side) {
        List<String> escapes = on(side, db, c -> {
            List<String> found = new ArrayList<>();
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT v FROM t");
            PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?");
            ps.setLong(1, 1);
            ResultSet prs = ps.executeQuery();
            DatabaseMetaData md = c.getMetaData();
            ResultSet tables = md.getTables(null, null, "%", null);
            ResultSet columns = md.getColumns(null, null, "t", "%");
            check(found, "Statement.getConnection()", s.getConnection(), c);
            check(found, "ResultSet.getStatement().getConnection()",
                    rs.getStatement().getConnection(), c);
            check(found, "PreparedStatement.getConnection()", ps.getConnection(), c);
            check(found, "prepared ResultSet.getStatement().getConnection()",
                    prs.getStatement().getConnection(), c);
            check(found, "DatabaseMetaData.getConnection()", md.getConnection(), c);
            check(found, "getTables(...).getStatement().getConnection()",
                    tables.getStatement().getConnection(), c);
            check(found, "getColumns(...).getStatement().getConnection()",
                    columns.getStatement().getConnection(), c);
            check(found, "getTables(...).getStatement().getConnection().getMetaData()"
                    + ".getConnection()", tables.getStatement().getConnection().getMetaData()
                    .getConnection(), c);
            for (Object o : List.of(s, rs, ps, prs, md, tables, columns, tables.getStatement(),
                    rs.getMetaData(), ps.getMetaData(), ps.getParameterMetaData(),
                    tables.getMetaData())) {
                if (o.getClass().getName().startsWith("org.sqlite")) {
                    found.add("a driver object: " + o.getClass().getName());
                }
            }
            return found;
        });
        assertThat(escapes).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sides")
    void resultSetAndParameterMetaDataCannotBeCastBackToTheDriversObjects(String side) {
        // The driver's result set is its own ResultSetMetaData and its prepared statement its
        // own ParameterMetaData: unwrapped, a cast of either would lead to the raw connection.
        List<Boolean> castable = on(side, db, c -> {
            PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?");
            ps.setLong(1, 1);
            ResultSet rs = ps.executeQuery();
            return List.of(rs.getMetaData() instanceof ResultSet,
                    ps.getMetaData() instanceof ResultSet,
                    ps.getParameterMetaData() instanceof PreparedStatement,
                    c.getMetaData().getTables(null, null, "%", null).getMetaData()
                            instanceof ResultSet);
        });
        assertThat(castable).containsOnly(false);
        // and they still answer what they are for
        String column = on(side, db, c -> c.createStatement().executeQuery("SELECT v FROM t")
                .getMetaData().getColumnName(1));
        assertThat(column).isEqualTo("v");
        int parameters = on(side, db, c -> c.prepareStatement("SELECT ?, ?")
                .getParameterMetaData().getParameterCount());
        assertThat(parameters).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sides")
    void whatTheGuardedObjectsLeadBackToStillRefusesWhatTheBodyMayNotDo(String side) {
        Throwable viaMetaData = catchThrowable(() -> on(side, db, c -> {
            Connection back = c.getMetaData().getTables(null, null, "%", null).getStatement()
                    .getConnection();
            back.commit();
            return null;
        }));
        assertThat(viaMetaData).isInstanceOf(LanesException.class)
                .hasMessageContaining("commit()");
        Throwable closeViaStatement = catchThrowable(() -> on(side, db, c -> {
            c.createStatement().executeQuery("SELECT 1").getStatement().getConnection().close();
            return null;
        }));
        assertThat(closeViaStatement).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("close()");
        assertHealthy(db);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sides")
    void unwrapIsTheOneDocumentedEscapeHatch(String side) {
        boolean raw = on(side, db, c -> {
            SQLiteConnection driver = c.unwrap(SQLiteConnection.class);
            return c.isWrapperFor(SQLiteConnection.class) && driver != null
                    && !(c instanceof SQLiteConnection);
        });
        assertThat(raw).isTrue();
    }

    @Test
    void aGuardedObjectKeptPastItsBodyIsUseless() {
        Statement kept = db.read(Connection::createStatement);
        assertThat(catchThrowable(() -> kept.executeQuery("SELECT 1")))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("belongs to a request that has ended");
        DatabaseMetaData md = db.write(Connection::getMetaData);
        assertThat(catchThrowable(() -> md.getConnection().createStatement()))
                .isInstanceOf(InvalidRequestException.class);
    }

    private static void check(List<String> found, String path, Connection reached,
            Connection guarded) {
        if (reached != guarded) {
            found.add(path + " reached " + reached.getClass().getName());
        }
    }
}
