package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Types;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Through the data source, a parameter Lanes cannot bind fails the statement with the standard
 * SQLState and the native API's words, and nothing is written: a parameter never set ({@code
 * 07001}) rather than a silent NULL, a type Lanes cannot store ({@code 07006}) rather than its
 * {@code toString()}, text that is not valid UTF-16 ({@code 22021}) rather than a {@code ?}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ParameterRefusalTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    @Test
    void aParameterNeverSetIsSqlState07001NotANull() throws Exception {
        Database db = fixture.open("unset.db");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO t(id, v) VALUES (?, ?)")) {
            s.setInt(1, 1);
            SQLException trailing = refused(s::executeUpdate, "07001");
            assertThat((Throwable) trailing).hasMessage("the statement has 2 parameters but 1 argument was "
                    + "given; pass one argument per parameter (null for NULL)");

            s.clearParameters();
            s.setString(2, "v"); // parameter 1 left unset
            assertThat((Throwable) refused(s::executeUpdate, "07001"))
                    .hasMessage("parameter 1 was never set; set every parameter (setNull for NULL)");

            s.setNull(1, Types.INTEGER); // an explicit NULL is a value
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        assertThat(db.query("SELECT v FROM t")).hasSize(1);
    }

    @Test
    void aTypeLanesCannotStoreIsSqlState07006WithTheNativeWording() throws Exception {
        Database db = fixture.open("type.db");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO t(id, v) VALUES (?, ?)")) {
            s.setInt(1, 1);
            s.setObject(2, List.of("a"));
            SQLException e = refused(s::executeUpdate, "07006");
            assertThat(e.getMessage()).startsWith("parameter 2 is a java.util.ImmutableCollections$")
                    .contains("which Lanes cannot store; the supported types are String");
            assertThat(e.getCause()).isInstanceOf(InvalidRequestException.class);

            c.setAutoCommit(false); // the same inside a pinned transaction
            refused(s::executeUpdate, "07006");
            c.rollback();
        }
        assertThat(db.query("SELECT v FROM t")).isEmpty();
    }

    @Test
    void textThatIsNotValidUtf16IsSqlState22021NamingTheParameter() throws Exception {
        Database db = fixture.open("utf16.db");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO t(id, v) VALUES (?, ?)")) {
            s.setInt(1, 1);
            s.setString(2, "x\uDBFF");
            SQLException e = refused(s::executeUpdate, "22021");
            assertThat((Throwable) e).isInstanceOf(SQLDataException.class);
            assertThat(e.getMessage()).startsWith("parameter 2 is a String that is not valid "
                    + "UTF-16: a lone surrogate (\\uDBFF) at index 1");

            s.setString(2, "x"); // fixed, it runs
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        assertThat(db.query("SELECT v FROM t").get(0).getString("v")).isEqualTo("x");
    }

    @Test
    void aRefusedParameterInABatchHasItsStateToo() throws Exception {
        Database db = fixture.open("batch.db");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO t(id, v) VALUES (?, ?)")) {
            s.setInt(1, 1);
            s.setString(2, "one");
            s.addBatch();
            s.setInt(1, 2);
            s.setObject(2, new Object());
            s.addBatch();
            refused(s::executeBatch, "07006");
        }
        assertThat(db.query("SELECT v FROM t")).as("the whole batch rolled back").isEmpty();
    }

    @Test
    void aConstraintKeepsItsStatesThroughTheNativeType() throws Exception {
        Database db = fixture.open("constraint.db");
        db.execute("INSERT INTO t(id, v) VALUES (1, 'a')");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO t(id, v) VALUES (?, ?)")) {
            s.setInt(1, 1);
            s.setString(2, "b");
            SQLException dup = refused(s::executeUpdate, "23505");
            assertThat((Throwable) dup).isInstanceOf(SQLIntegrityConstraintViolationException.class);
            assertThat(dup.getCause()).isInstanceOf(dev.lanes.ConstraintViolationException.class);
        }
    }

    private static SQLException refused(ThrowingCallable call, String state) {
        SQLException e = catchThrowableOfType(SQLException.class, call);
        assertThat((Throwable) e).as("refused with " + state).isNotNull();
        assertThat(e.getSQLState()).isEqualTo(state);
        return e;
    }
}
