package dev.lanes.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An auto-commit read of a text whose results' declared types were never asked for reads none
 * (a native call per column on every read); the first type asked finds them on a reader and
 * marks the text, whose later results carry their own again. A schema rebuilt between a read
 * and its first ask shows which: a result read without types reports the schema of the ask, one
 * read with them the schema of its read.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JdbcDeclaredTypesTest {
    /** Makes each test's texts its own: which texts were asked is remembered process-wide. */
    private static final AtomicInteger TEXTS = new AtomicInteger();

    @TempDir Path dir;
    private Lanes lanes;
    private Database db;

    @BeforeEach
    void open() {
        lanes = Lanes.builder().name("jdbc-types").maxThreads(4).build();
        db = lanes.open(dir.resolve("types.db"), DatabaseOptions.builder().build());
    }

    @AfterEach
    void close() {
        lanes.close();
    }

    /** A text no other test (nor an earlier run in this JVM) has read. */
    private static String text(String sql) {
        return sql + " /* " + JdbcDeclaredTypesTest.class.getSimpleName() + " "
                + TEXTS.incrementAndGet() + " " + System.nanoTime() + " */";
    }

    private void rebuild(String table, String type, Object value) {
        db.execute("DROP TABLE IF EXISTS " + table);
        db.execute("CREATE TABLE " + table + "(a " + type + ")");
        db.execute("INSERT INTO " + table + " VALUES (?)", value);
    }

    private static ResultSet read(PreparedStatement s) throws SQLException {
        ResultSet rs = s.executeQuery();
        assertThat(rs.next()).isTrue();
        return rs;
    }

    @Test
    void theFirstAskFindsTheTypesAndMarksTheTextWhoseLaterResultsCarryTheirOwn()
            throws Exception {
        rebuild("r", "INTEGER", 1);
        String sql = text("SELECT a FROM r");
        String other = text("SELECT a AS a FROM r");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement first = c.prepareStatement(sql);
                PreparedStatement second = c.prepareStatement(sql);
                PreparedStatement another = c.prepareStatement(other)) {
            ResultSetMetaData never = read(first).getMetaData();
            ResultSetMetaData otherText = read(another).getMetaData();
            rebuild("r", "VARCHAR(8)", "x");
            // read without its types: the schema of the ask
            assertThat(never.getColumnTypeName(1)).isEqualTo("VARCHAR");

            ResultSetMetaData marked = read(second).getMetaData();
            rebuild("r", "BLOB", new byte[] {1});
            // the text was marked: this result carries the types of its own read
            assertThat(marked.getColumnTypeName(1)).isEqualTo("VARCHAR");
            // a text never asked is not confused with the marked one
            assertThat(otherText.getColumnTypeName(1)).isEqualTo("BLOB");
        }
    }

    @Test
    void aResultWhoseColumnsChangedSinceItsReadKnowsNoDeclaredTypeAndFollowsItsValues()
            throws Exception {
        rebuild("w", "VARCHAR(5)", "x");
        String sql = text("SELECT * FROM w");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(sql)) {
            ResultSetMetaData meta = read(s).getMetaData();
            db.execute("ALTER TABLE w ADD COLUMN b INTEGER");
            // its text now has two columns: the declared type is unknown, the value says TEXT
            assertThat(meta.getColumnTypeName(1)).isEqualTo("TEXT");
            assertThat(meta.getColumnCount()).isEqualTo(1);
        }
    }

    @Test
    void typesAreFoundAfterTheConnectionClosedAndMatchTheDriver() throws Exception {
        db.execute("CREATE TABLE d(n NUMERIC(10,2), t TEXT, i INTEGER)");
        db.execute("INSERT INTO d VALUES (1.5, 'x', 2)");
        String sql = text("SELECT n, t, i, i + 1 AS e FROM d");
        ResultSetMetaData meta;
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(sql)) {
            meta = read(s).getMetaData();
        }
        assertThat(new String[] {meta.getColumnTypeName(1), meta.getColumnTypeName(2),
                meta.getColumnTypeName(3), meta.getColumnTypeName(4)})
                .containsExactly(db.read(c -> {
                    try (PreparedStatement theirs = c.prepareStatement(sql);
                            ResultSet rs = theirs.executeQuery()) {
                        ResultSetMetaData m = rs.getMetaData();
                        return new String[] {m.getColumnTypeName(1), m.getColumnTypeName(2),
                                m.getColumnTypeName(3), m.getColumnTypeName(4)};
                    }
                }));
        assertThat(meta.getColumnTypeName(1)).isEqualTo("NUMERIC");
    }

    @Test
    void aFailureToFindThemIsAnSqlExceptionWithTheCause() throws Exception {
        rebuild("f", "INTEGER", 1);
        String sql = text("SELECT a FROM f");
        ResultSetMetaData meta;
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(sql)) {
            meta = read(s).getMetaData();
        }
        lanes.close();
        SQLException e = catchThrowableOfType(SQLException.class,
                () -> meta.getColumnTypeName(1));
        assertThat((Throwable) e).isNotNull();
        assertThat(e.getCause()).isInstanceOf(LanesException.class);
        // what needs no declared type still answers
        assertThat(meta.getColumnLabel(1)).isEqualTo("a");
    }
}
