package dev.lanes.examples;

import static dev.lanes.examples.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * JDBI inside Lanes bodies: {@code Jdbi.create(conn)} on the body's connection, then handles as
 * usual. {@code Jdbi.create(Connection)} never closes the connection, which the lane owns and
 * reuses ({@code Jdbi.open(conn)} would close it when the handle closes, and the guarded
 * connection refuses that).
 *
 * <p>Transactions: the body's connection is already inside the lane's transaction ({@code
 * getAutoCommit()} is {@code false}), so JDBI's {@code useTransaction}/{@code inTransaction}
 * join it, as JDBI joins any enclosing transaction: their work commits or rolls back with the
 * write. What JDBI would do to end or split a transaction itself ({@code commit()}, {@code
 * rollback()}, savepoints, {@code setAutoCommit}) is refused with {@link
 * InvalidRequestException}, and the write fails whole.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JdbiExampleTest {
    record Book(long id, String title, Integer year) {}

    @TempDir
    Path dir;

    final GroupSizes groups = new GroupSizes();
    Lanes lanes;
    Database db;

    @BeforeEach
    void open() {
        lanes = Lanes.builder().metrics(groups).build();
        db = lanes.open(dir.resolve("books.db"));
        db.execute("CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER)");
    }

    @AfterEach
    void close() {
        if (lanes != null) {
            lanes.close();
        }
    }

    /** JDBI on a body's connection; it never closes the connection. */
    static Jdbi jdbi(Connection conn) {
        return Jdbi.create(conn);
    }

    static int insert(Handle h, String title) {
        return h.createUpdate("INSERT INTO book(title) VALUES (:title)")
                .bind("title", title)
                .execute();
    }

    List<String> titles() {
        return db.read(conn -> jdbi(conn).withHandle(h ->
                h.createQuery("SELECT title FROM book ORDER BY id").mapTo(String.class).list()));
    }

    @Test
    void jdbiHandleInsideAWriteBodyAndAReadBody() {
        // A write body: the handle's statements run in the lane's transaction.
        long id = db.write(conn -> jdbi(conn).withHandle(h -> h
                .createUpdate("INSERT INTO book(title, year) VALUES (:title, :year)")
                .bind("title", "Dune")
                .bind("year", 1965)
                .executeAndReturnGeneratedKeys("id")
                .mapTo(Long.class)
                .one()));

        // A read body: one snapshot on a read-only connection.
        List<Book> books = db.read(conn -> jdbi(conn).withHandle(h -> h
                .createQuery("SELECT id, title, year FROM book WHERE year < :year ORDER BY id")
                .bind("year", 1980)
                .map((rs, ctx) -> new Book(rs.getLong("id"), rs.getString("title"),
                        rs.getInt("year")))
                .list()));
        assertThat(books).containsExactly(new Book(id, "Dune", 1965));
    }

    /**
     * {@code Jdbi.open(conn)} makes a handle that closes its connection when it closes; the
     * guard refuses that, so the write fails. Use {@code Jdbi.create(conn)}.
     */
    @Test
    void jdbiOpenWouldCloseTheLanesConnectionAndIsRefused() {
        Throwable failure = catchThrowable(() -> db.write(conn -> {
            try (Handle h = Jdbi.open(conn)) {
                return insert(h, "never");
            }
        }));

        assertThat(failure).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("close() is refused: the connection belongs to the runtime");
        assertThat(titles()).isEmpty();
    }

    /** JDBI's classic manual transaction: {@code begin()}, work, {@code commit()}. */
    @Test
    void jdbiCommitInsideAWriteBodyIsRefused() {
        Throwable failure = catchThrowable(() -> db.write(conn -> {
            Handle h = jdbi(conn).open();
            h.begin();
            insert(h, "never");
            h.commit();
            return null;
        }));

        assertThat(failure).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("commit() is refused inside a body")
                .hasMessageContaining("the lane owns the transaction");
        assertThat(((LanesException) failure).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(titles()).isEmpty();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void jdbiSavepointAndRollbackInsideAWriteBodyAreRefused() {
        Throwable savepoint = catchThrowable(() -> db.write(conn ->
                jdbi(conn).withHandle(h -> h.savepoint("before_import"))));
        assertThat(savepoint).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("setSavepoint() is refused inside a body");

        Throwable rollback = catchThrowable(() -> db.write(conn -> {
            Handle h = jdbi(conn).open();
            h.begin();
            insert(h, "never");
            h.rollback();
            return null;
        }));
        assertThat(assertRefused(rollback, InvalidRequestException.class))
                .hasMessageContaining("is refused inside a body");
        assertThat(titles()).isEmpty();
    }

    /**
     * {@code inTransaction} sees a connection already in a transaction and runs its callback
     * inside it: the callback's work is the write's, all or nothing.
     */
    @Test
    void jdbiTransactionCallbacksJoinTheWrite() {
        int inserted = db.write(conn -> jdbi(conn).inTransaction(h -> insert(h, "joined")));
        assertThat(inserted).isEqualTo(1);

        Throwable failure = catchThrowable(() -> db.write(conn -> {
            jdbi(conn).useTransaction(h -> {
                insert(h, "undone");
                throw new IllegalStateException("the import found a bad row");
            });
            return null;
        }));
        assertThat(failure).isInstanceOf(LanesException.class)
                .hasRootCauseMessage("the import found a bad row");
        assertThat(((LanesException) failure).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(titles()).containsExactly("joined");
    }

    @Test
    void refusedJdbiTransactionNeverCorruptsItsGroup() throws Exception {
        CompletableFuture<Integer> before;
        CompletableFuture<Integer> refused;
        CompletableFuture<Integer> failedCallback;
        CompletableFuture<Integer> after;
        groups.sizes.clear();
        try (LaneBlocker blocker = new LaneBlocker(db)) {
            // Queued behind the blocked lane, these four run as one commit group.
            before = db.writeAsync(conn -> jdbi(conn).withHandle(h -> insert(h, "before")));
            refused = db.writeAsync(conn -> {
                Handle h = jdbi(conn).open();
                h.begin();
                int n = insert(h, "inside JDBI transaction");
                h.commit();
                return n;
            });
            failedCallback = db.writeAsync(conn -> jdbi(conn).inTransaction(h -> {
                insert(h, "inside failed callback");
                throw new IllegalStateException("callback failed");
            }));
            after = db.writeAsync(conn -> jdbi(conn).withHandle(h -> insert(h, "after")));
            blocker.release();
        }

        assertThat(before.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        Throwable refusal = catchThrowable(() -> refused.get(10, TimeUnit.SECONDS));
        assertThat(refusal).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("commit() is refused inside a body");
        Throwable callback = catchThrowable(() -> failedCallback.get(10, TimeUnit.SECONDS));
        assertThat(callback).isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("callback failed");
        // Two commits in all: the blocker's, then one group for the four queued writes, in which
        // the two neighbours committed (the metric counts committed writes).
        assertThat(groups.sizes).containsExactly(1, 2);
        assertThat(titles()).containsExactly("before", "after");
    }

    @Test
    void jdbiCommitInsideAReadBodyIsRefused() {
        db.execute("INSERT INTO book(title) VALUES ('Dune')");
        Throwable failure = catchThrowable(() -> db.read(conn -> {
            Handle h = jdbi(conn).open();
            h.begin();
            h.createQuery("SELECT count(*) FROM book").mapTo(Integer.class).one();
            h.commit();
            return null;
        }));

        assertThat(failure).isInstanceOf(ReadOnlyViolationException.class)
                .hasMessageContaining("commit() is refused in a read");
        assertThat(titles()).containsExactly("Dune");
    }
}
