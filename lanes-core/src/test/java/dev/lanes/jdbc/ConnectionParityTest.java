package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConfig;

/**
 * A connection of the data source answers what code asks a connection of as sqlite-jdbc's own
 * connection answers it, over the same file: validity, schema and catalog, warnings, client
 * info, parameter metadata, and the database metadata's constants. Where the driver cannot know
 * better than a logical connection ({@code isReadOnly} of the metadata), the logical connection's
 * mode answers; constants are asked once, not on a reader per call.
 */
@Timeout(60)
class ConnectionParityTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    /** One question asked of a connection. */
    private interface Question {
        Object ask(Connection c) throws SQLException;
    }

    private static final List<String> NAMES = List.of("isValid(0)", "isValid(5)", "getSchema",
            "getCatalog", "setSchema then getSchema", "setCatalog then getCatalog",
            "getWarnings", "getClientInfo(ApplicationName)", "statement getWarnings",
            "result set getWarnings", "getTypeMap", "nativeSQL", "getNetworkTimeout",
            "getHoldability", "getTransactionIsolation", "getAutoCommit", "isReadOnly");
    private static final List<Question> QUESTIONS = List.of(c -> c.isValid(0),
            c -> c.isValid(5), Connection::getSchema, Connection::getCatalog, c -> {
                c.setSchema("other");
                return c.getSchema();
            }, c -> {
                c.setCatalog("other");
                return c.getCatalog();
            }, Connection::getWarnings, c -> c.getClientInfo("ApplicationName"), c -> {
                try (Statement s = c.createStatement()) {
                    return s.getWarnings();
                }
            }, c -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                    return rs.getWarnings();
                }
            }, Connection::getTypeMap, c -> c.nativeSQL("SELECT {fn now()}"),
            Connection::getNetworkTimeout, Connection::getHoldability,
            Connection::getTransactionIsolation, Connection::getAutoCommit,
            Connection::isReadOnly);

    private static List<Object> answers(Connection c) throws SQLException {
        List<Object> answers = new ArrayList<>();
        for (int i = 0; i < QUESTIONS.size(); i++) {
            answers.add(NAMES.get(i) + " = " + QUESTIONS.get(i).ask(c));
        }
        return answers;
    }

    private static Connection raw(Database db) throws SQLException {
        return new SQLiteConfig().createConnection("jdbc:sqlite:" + db.path());
    }

    @Test
    void aConnectionAnswersAsTheDriversConnectionDoes() throws Exception {
        Database db = fixture.open("parity.db");
        try (Connection raw = raw(db); Connection lanes = db.dataSource().getConnection()) {
            assertThat(answers(lanes)).isEqualTo(answers(raw));
        }
        Connection raw = raw(db);
        Connection lanes = db.dataSource().getConnection();
        raw.close();
        lanes.close();
        assertThat(lanes.isValid(0)).as("closed").isEqualTo(raw.isValid(0)).isFalse();
        Connection beforeClose = db.dataSource().getConnection();
        db.close();
        assertThat(beforeClose.isValid(0)).as("its database closed").isFalse();
    }

    @Test
    void parameterMetaDataCountsAsSqliteCountsAndDeclaresNoTypes() throws Exception {
        Database db = fixture.open("params.db");
        List<String> sqls = List.of("SELECT ?", "INSERT INTO t(v) VALUES (?)",
                "SELECT * FROM t WHERE id = ?2 AND v = ?1", "SELECT :a, :a, @b, $c, ?",
                "SELECT '?' -- ?", "SELECT 1", "SELECT ?5, ?");
        try (Connection raw = raw(db); Connection lanes = db.dataSource().getConnection()) {
            for (String sql : sqls) {
                try (PreparedStatement r = raw.prepareStatement(sql);
                        PreparedStatement l = lanes.prepareStatement(sql)) {
                    ParameterMetaData expected = r.getParameterMetaData();
                    ParameterMetaData actual = l.getParameterMetaData();
                    assertThat(actual.getParameterCount()).as(sql)
                            .isEqualTo(expected.getParameterCount());
                    if (expected.getParameterCount() > 0) {
                        assertThat(actual.getParameterClassName(1))
                                .isEqualTo(expected.getParameterClassName(1));
                        assertThat(actual.getParameterMode(1))
                                .isEqualTo(expected.getParameterMode(1));
                        assertThat(actual.isNullable(1)).isEqualTo(expected.isNullable(1));
                        assertThatThrownBy(() -> expected.getParameterType(1))
                                .isInstanceOf(SQLException.class);
                        assertThatThrownBy(() -> actual.getParameterType(1))
                                .isInstanceOf(SQLFeatureNotSupportedException.class);
                    }
                }
            }
        }
    }

    @Test
    void metadataConstantsAreAskedOnceAndReadOnlyIsTheConnectionsMode() throws Exception {
        Database db = fixture.open("meta.db");
        try (Connection raw = raw(db); Connection lanes = db.dataSource().getConnection()) {
            DatabaseMetaData expected = raw.getMetaData();
            DatabaseMetaData actual = lanes.getMetaData();
            assertThat(actual.getDatabaseProductName())
                    .isEqualTo(expected.getDatabaseProductName()).isEqualTo("SQLite");
            assertThat(actual.getDatabaseProductVersion())
                    .isEqualTo(expected.getDatabaseProductVersion());
            assertThat(actual.getIdentifierQuoteString())
                    .isEqualTo(expected.getIdentifierQuoteString());
            assertThat(actual.getUserName()).isEqualTo(expected.getUserName());
            assertThat(actual.supportsBatchUpdates()).isEqualTo(expected.supportsBatchUpdates());

            long readsBefore = db.diagnostics().readers().acquisitions();
            for (int i = 0; i < 50; i++) { // Spring asks this for every null bound untyped
                assertThat(lanes.getMetaData().getDatabaseProductName()).isEqualTo("SQLite");
                assertThat(lanes.getMetaData().getUserName()).isNull();
            }
            assertThat(db.diagnostics().readers().acquisitions() - readsBefore)
                    .as("constants take no reader once known").isZero();

            assertThat(actual.isReadOnly()).as("a read-write connection, though a reader "
                    + "would answer").isFalse();
            lanes.setReadOnly(true);
            assertThat(lanes.getMetaData().isReadOnly()).isTrue();
        }
    }
}
