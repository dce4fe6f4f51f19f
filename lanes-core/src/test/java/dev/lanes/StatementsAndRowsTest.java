package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** db.execute and db.query: update counts, bound arguments, and detached rows. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatementsAndRowsTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.open("rows.db");
        db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, Name TEXT, qty INTEGER, "
                + "price REAL, data BLOB, note TEXT)");
    }

    @Test
    void executeReturnsUpdateCountsAndBindsEveryArgumentType() {
        byte[] blob = {1, 2, 3};
        assertThat(db.execute("INSERT INTO item(Name, qty, price, data, note) VALUES (?, ?, ?, ?, ?)",
                "apple", 3, 1.5, blob, null)).isEqualTo(1);
        assertThat(db.execute("INSERT INTO item(Name, qty, price) VALUES (?, ?, ?)",
                "pear", 7L, 2.25)).isEqualTo(1);
        assertThat(db.execute("INSERT INTO item(Name, qty) VALUES ('fig', 1), ('kiwi', 2)"))
                .isEqualTo(2);
        assertThat(db.execute("UPDATE item SET qty = qty + ? WHERE qty < ?", 10, 5)).isEqualTo(3);
        assertThat(db.execute("DELETE FROM item WHERE Name = ?", "nothing")).isZero();

        Row apple = db.query("SELECT * FROM item WHERE Name = ?", "apple").get(0);
        assertThat(apple.getLong("qty")).isEqualTo(13L);
        assertThat(apple.getDouble("price")).isEqualTo(1.5);
        assertThat((byte[]) apple.get("data")).containsExactly(1, 2, 3);
        assertThat(apple.get("note")).isNull();
        Row pear = db.query("SELECT * FROM item WHERE Name = ?", "pear").get(0);
        assertThat(pear.getLong("qty")).isEqualTo(7L);
    }

    @Test
    void aStatementThatChangesNoRowsReportsZeroEvenRightAfterOneThatDid() {
        assertThat(db.execute("INSERT INTO item(Name) VALUES ('a'), ('b'), ('c')")).isEqualTo(3);
        assertThat(db.execute("CREATE INDEX item_name ON item(Name)")).isZero();
        assertThat(db.execute("UPDATE item SET qty = 1")).isEqualTo(3);
        assertThat(db.execute("CREATE TABLE other(x)")).isZero();
        assertThat(db.execute("DROP TABLE other")).isZero();
    }

    @Test
    void queryReturnsRowsByCaseInsensitiveLabelAndZeroBasedIndex() {
        db.execute("INSERT INTO item(id, Name, qty, note) VALUES (1, 'apple', 3, NULL)");
        db.execute("INSERT INTO item(id, Name, qty, note) VALUES (2, 'pear', NULL, 'ripe')");

        List<Row> rows = db.query("SELECT id, Name, qty, note FROM item WHERE id >= ? ORDER BY id", 1);

        assertThat(rows).hasSize(2);
        Row first = rows.get(0);
        assertThat(first.columns()).containsExactly("id", "Name", "qty", "note");
        assertThat(first.size()).isEqualTo(4);
        assertThat(first.get(0)).isEqualTo(1L);
        assertThat(first.get(1)).isEqualTo("apple");
        assertThat(first.get("NAME")).isEqualTo("apple");
        assertThat(first.get("name")).isEqualTo("apple");
        assertThat(first.getString("Name")).isEqualTo("apple");
        assertThat(first.getLong("QTY")).isEqualTo(3L);
        assertThat(first.get("note")).isNull();
        assertThat(first.getString("note")).isNull();
        assertThat(first.getLong("note")).isNull();
        Row second = rows.get(1);
        assertThat(second.getLong("qty")).isNull();
        assertThat(second.get(2)).isNull();
        assertThat(second.getString("note")).isEqualTo("ripe");
        assertThat(second.values()).containsExactly(2L, "pear", null, "ripe");

        assertThatThrownBy(() -> first.get("missing")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> first.get(4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(db.query("SELECT * FROM item WHERE id = ?", 99)).isEmpty();
    }

    @Test
    void rowsAreDetachedAndUsableAfterTheQueryReturned() {
        db.execute("INSERT INTO item(Name) VALUES ('a')");
        List<Row> rows = db.query("SELECT Name AS label, 40 + 2 AS answer FROM item");
        db.execute("DELETE FROM item");
        assertThat(rows.get(0).getString("LABEL")).isEqualTo("a");
        assertThat(rows.get(0).getLong("answer")).isEqualTo(42L);
    }

    /** A body that inserts and returns the generated key the driver reports. */
    private static SqlFunction<Long> insertReturningKey(String name) {
        return c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO item(Name) VALUES (?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                s.setString(1, name);
                s.executeUpdate();
                try (ResultSet keys = s.getGeneratedKeys()) {
                    assertThat(keys.next()).isTrue();
                    return keys.getLong(1);
                }
            }
        };
    }

    private long idOf(String name) {
        return db.query("SELECT id FROM item WHERE Name = ?", name).get(0).getLong("id");
    }

    @Test
    void bodiesGetGeneratedKeysAlsoRightAfterStatementsThatDoNotNeedThem() {
        db.execute("INSERT INTO item(Name) VALUES (?)", "by-statement");
        long key = db.write(insertReturningKey("by-body"));
        assertThat(key).isEqualTo(idOf("by-body"));

        // The same within one commit group: statement, body, statement, body.
        CompletableFuture<Long> k1;
        CompletableFuture<Long> k2;
        ExecutorService helper = Executors.newCachedThreadPool();
        try (TestLanes.Blocker blocker = TestLanes.block(db)) {
            CompletableFuture<Integer> s1 = CompletableFuture.supplyAsync(
                    () -> db.execute("INSERT INTO item(Name) VALUES ('s1')"), helper);
            TestLanes.awaitTrue("s1 to be queued", () -> db.diagnostics().writer().queued() == 1);
            k1 = db.writeAsync(insertReturningKey("b1"));
            CompletableFuture<Integer> s2 = CompletableFuture.supplyAsync(
                    () -> db.execute("INSERT INTO item(Name) VALUES ('s2')"), helper);
            TestLanes.awaitTrue("s2 to be queued", () -> db.diagnostics().writer().queued() == 3);
            k2 = db.writeAsync(insertReturningKey("b2"));
            blocker.release();
            assertThat(TestLanes.join(s1)).isEqualTo(1);
            assertThat(TestLanes.join(s2)).isEqualTo(1);
        } finally {
            helper.shutdownNow();
        }
        assertThat(TestLanes.join(k1)).isEqualTo(idOf("b1"));
        assertThat(TestLanes.join(k2)).isEqualTo(idOf("b2"));
    }

    @Test
    void aFailedStatementFailsRolledBackWithTheSqlErrorAsCause() {
        db.execute("INSERT INTO item(id, Name) VALUES (1, 'a')");
        WriteFailedException e = catchThrowableOfType(WriteFailedException.class,
                () -> db.execute("INSERT INTO item(id, Name) VALUES (1, 'dup')"));
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).isInstanceOf(SQLException.class);
        assertThat(db.query("SELECT Name FROM item").get(0).getString("Name")).isEqualTo("a");
        // the statement cache evicted the failed statement: the same text works again
        assertThat(db.execute("INSERT INTO item(id, Name) VALUES (?, ?)", 2, "b")).isEqualTo(1);
        assertThat(db.execute("INSERT INTO item(id, Name) VALUES (?, ?)", 3, "c")).isEqualTo(1);
    }
}
