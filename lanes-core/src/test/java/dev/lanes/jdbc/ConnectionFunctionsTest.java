package dev.lanes.jdbc;

import static dev.lanes.jdbc.JdbcFixture.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code last_insert_rowid()} and {@code changes()} through the data source are the
 * connection's own, as on a SQLite connection, though in auto-commit mode the insert ran on the
 * lane and the select would run on a reader.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionFunctionsTest {
    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    /**
     * Hibernate's StatelessSession (and a Session outside a transaction) inserts in auto-commit
     * mode and then reads the id with {@code select last_insert_rowid()}: the select ran on a
     * reader, which had inserted nothing, and every entity got id 0.
     */
    @Test
    void hibernateAutoCommitIdsWereZero_lastInsertRowidIsTheConnectionsOwnInsert()
            throws Exception {
        Database db = fixture.open("rowid.db");
        db.execute("INSERT INTO t(id, v) VALUES (10, 'seed')");
        try (Connection a = db.dataSource().getConnection();
                Connection b = db.dataSource().getConnection()) {
            assertThat(scalar(a, "SELECT last_insert_rowid()")).as("before any insert").isZero();
            insert(a, "a1");
            insert(b, "b1");
            assertThat(scalar(a, "SELECT last_insert_rowid()")).as("a's own, not b's later one")
                    .isEqualTo(11);
            assertThat(scalar(b, "select LAST_INSERT_ROWID() as id;")).isEqualTo(12);
            try (PreparedStatement ignored = a.prepareStatement(
                    "INSERT OR IGNORE INTO t(id, v) VALUES (10, 'dup')")) {
                assertThat(ignored.executeUpdate()).isZero();
            }
            assertThat(scalar(a, "SELECT last_insert_rowid()"))
                    .as("an insert that inserted nothing leaves it as it was").isEqualTo(11);
            try (Statement s = a.createStatement();
                    ResultSet rs = s.executeQuery("SELECT last_insert_rowid() AS \"new id\"")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("new id");
                assertThat(rs.getLong("new id")).isEqualTo(11);
                assertThat(rs.next()).isFalse();
            }
        }
        assertThat(JdbcFixture.count(db, "a1")).isEqualTo(1);
    }

    /**
     * jOOQ reads a generated id back with {@code select id from t where _rowid_ =
     * last_insert_rowid()} on the insert's connection: on a reader that matched no row, and
     * {@code returning(ID).fetchOne()} was null.
     */
    @Test
    void jooqReturningWasNull_aQueryThatCallsThemSeesTheConnectionsOwnValues() throws Exception {
        Database db = fixture.open("query.db");
        try (Connection c = db.dataSource().getConnection()) {
            insert(c, "mine");
            db.execute("INSERT INTO t(v) VALUES ('someone else')");
            try (PreparedStatement q = c.prepareStatement(
                    "select v, 'last_insert_rowid()' AS quoted /* changes() */ from t "
                            + "where _rowid_ = last_insert_rowid ( ) and ? = changes()")) {
                q.setInt(1, 1);
                try (ResultSet rs = q.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString("v")).isEqualTo("mine");
                    assertThat(rs.getString("quoted")).as("a string stays a string")
                            .isEqualTo("last_insert_rowid()");
                    assertThat(rs.next()).isFalse();
                }
            }
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertThat(scalar(c, "SELECT count(*) FROM t WHERE id <= last_insert_rowid()"))
                    .as("in a read-only transaction too").isEqualTo(1);
            c.commit();
        }
    }

    @Test
    void changesIsTheConnectionsOwnLastStatement() throws Exception {
        Database db = fixture.open("changes.db");
        try (Connection c = db.dataSource().getConnection()) {
            for (String v : new String[] {"x", "x", "x", "y"}) {
                insert(c, v);
            }
            try (Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("UPDATE t SET v = 'z' WHERE v = 'x'")).isEqualTo(3);
                db.execute("DELETE FROM t WHERE v = 'y'"); // another request's count
                assertThat(scalar(c, "SELECT changes()")).isEqualTo(3);
                s.execute("CREATE TABLE other(x)");
                assertThat(scalar(c, "SELECT changes()")).as("DDL leaves it as it was")
                        .isEqualTo(3);
            }
        }
    }

    @Test
    void insideAPinnedTransactionTheyRunOnTheTransactionsConnection() throws Exception {
        Database db = fixture.open("pinned.db");
        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            insert(c, "in-tx");
            assertThat(scalar(c, "SELECT last_insert_rowid()")).isEqualTo(1);
            assertThat(scalar(c, "SELECT last_insert_rowid() + 1")).isEqualTo(2);
            c.commit();
        }
    }

    /**
     * The writer reads an insert's generated key by stepping its cached {@code SELECT
     * last_insert_rowid()} directly, and a query of that same text inside the transaction runs
     * on the same cached statement through a result set: each must leave it usable by the other.
     */
    @Test
    void generatedKeysAndALastInsertRowidQueryShareTheWritersStatement() throws Exception {
        Database db = fixture.open("keys-then-query.db");
        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            for (long id = 1; id <= 3; id++) {
                try (PreparedStatement p = c.prepareStatement("INSERT INTO t(v) VALUES (?)",
                        Statement.RETURN_GENERATED_KEYS)) {
                    p.setString(1, "v" + id);
                    assertThat(p.executeUpdate()).isEqualTo(1);
                    try (ResultSet keys = p.getGeneratedKeys()) {
                        assertThat(keys.next()).isTrue();
                        assertThat(keys.getLong(1)).as("generated key of insert %d", id)
                                .isEqualTo(id);
                    }
                }
                assertThat(scalar(c, "SELECT last_insert_rowid()")).as("after insert %d", id)
                        .isEqualTo(id);
            }
            c.commit();
        }
        try (Connection c = db.dataSource().getConnection()) {
            insert(c, "auto-commit"); // its key read on the statement the queries above used
            assertThat(scalar(c, "SELECT last_insert_rowid()")).isEqualTo(4);
        }
    }

    private static void insert(Connection c, String v) throws Exception {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            p.setString(1, v);
            assertThat(p.executeUpdate()).isEqualTo(1);
        }
    }
}
