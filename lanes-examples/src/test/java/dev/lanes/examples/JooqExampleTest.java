package dev.lanes.examples;

import static dev.lanes.examples.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

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
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * jOOQ inside Lanes bodies: wrap the body's connection with {@code DSL.using(conn,
 * SQLDialect.SQLITE)} and use jOOQ as usual, except for transactions, which the lane owns.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JooqExampleTest {
    // No code generation needed for an example: plain names, typed fields.
    static final Table<Record> BOOK = table(name("book"));
    static final Field<Long> ID = field(name("id"), Long.class);
    static final Field<String> TITLE = field(name("title"), String.class);
    static final Field<Integer> YEAR = field(name("year"), Integer.class);

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

    static DSLContext jooq(Connection conn) {
        return DSL.using(conn, SQLDialect.SQLITE);
    }

    /** Every title, in insertion order, read with jOOQ on a reader. */
    List<String> titles() {
        return db.read(conn -> jooq(conn).select(TITLE).from(BOOK).orderBy(ID).fetch(TITLE));
    }

    int count() {
        return db.read(conn -> jooq(conn).fetchCount(BOOK));
    }

    @Test
    void jooqWritesInsideAWriteBodyAndReadsInsideAReadBody() {
        // A write body: every statement runs in the lane's transaction and commits with it.
        int inserted = db.write(conn -> {
            DSLContext ctx = jooq(conn);
            return ctx.insertInto(BOOK, TITLE, YEAR)
                    .values("Dune", 1965)
                    .values("Neuromancer", 1984)
                    .execute();
        });
        assertThat(inserted).isEqualTo(2);

        // A read body: one snapshot on a read-only connection.
        List<String> titles = db.read(conn -> jooq(conn)
                .select(TITLE).from(BOOK).where(YEAR.lt(1980)).orderBy(ID)
                .fetch(TITLE));
        assertThat(titles).containsExactly("Dune");

        // jOOQ's result types leave the body detached from the connection.
        var rows = db.read(conn -> jooq(conn).selectFrom(BOOK).orderBy(ID).fetch());
        assertThat(rows.getValues(TITLE)).containsExactly("Dune", "Neuromancer");
    }

    @Test
    void aFailingJooqBodyRollsBackWhole() {
        db.write(conn -> jooq(conn).insertInto(BOOK, TITLE).values("kept").execute());

        assertThatThrownBy(() -> db.write(conn -> {
            jooq(conn).insertInto(BOOK, TITLE).values("undone").execute();
            // NOT NULL violation: the whole body is undone, not just this statement
            return jooq(conn).insertInto(BOOK, TITLE).values((String) null).execute();
        })).isInstanceOf(LanesException.class)
                .satisfies(e -> assertThat(((LanesException) e).outcome())
                        .isEqualTo(WriteOutcome.ROLLED_BACK));

        assertThat(titles()).containsExactly("kept");
    }

    /**
     * jOOQ's {@code transaction(...)} on a body's connection: the body's statements run, then
     * jOOQ's {@code commit()} is refused by the guarded connection, so the write fails and
     * nothing of it persists. jOOQ wraps the refusal in its {@code DataAccessException}; the
     * guard's {@link InvalidRequestException} is in the failure's cause chain.
     */
    @Test
    void jooqTransactionInsideAWriteBodyIsRefused() {
        Throwable failure = catchThrowable(() -> db.write(conn -> jooq(conn).transactionResult(
                trx -> trx.dsl().insertInto(BOOK, TITLE).values("never").execute())));

        assertThat(assertRefused(failure, InvalidRequestException.class))
                .hasMessageContaining("commit() is refused inside a body")
                .hasMessageContaining("the lane owns the transaction");
        assertThat(((LanesException) failure).outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(count()).isZero();
        // The writer is healthy: the next write commits.
        db.write(conn -> jooq(conn).insertInto(BOOK, TITLE).values("after").execute());
        assertThat(titles()).containsExactly("after");
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void refusedJooqTransactionNeverCorruptsItsGroup() throws Exception {
        CompletableFuture<Integer> before;
        CompletableFuture<Integer> refused;
        CompletableFuture<Integer> after;
        groups.sizes.clear();
        try (LaneBlocker blocker = new LaneBlocker(db)) {
            // Queued behind the blocked lane, these three run as one commit group.
            before = db.writeAsync(conn ->
                    jooq(conn).insertInto(BOOK, TITLE).values("before").execute());
            refused = db.writeAsync(conn -> jooq(conn).transactionResult(trx ->
                    trx.dsl().insertInto(BOOK, TITLE).values("inside jOOQ transaction").execute()));
            after = db.writeAsync(conn ->
                    jooq(conn).insertInto(BOOK, TITLE).values("after").execute());
            blocker.release();
        }

        assertThat(before.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        Throwable failure = catchThrowable(() -> refused.get(10, TimeUnit.SECONDS));
        assertThat(failure).isInstanceOf(ExecutionException.class);
        assertThat(assertRefused(failure.getCause(), InvalidRequestException.class))
                .hasMessageContaining("the lane owns the transaction");
        // Two commits in all: the blocker's, then one group for the three queued writes, in which
        // the two neighbours committed (the metric counts committed writes).
        assertThat(groups.sizes).containsExactly(1, 2);
        assertThat(titles()).containsExactly("before", "after");
    }

    /**
     * In a read body jOOQ's transaction reaches {@code commit()} on a reader, which refuses it
     * as a {@link ReadOnlyViolationException}; the reader is cleaned and reused.
     */
    @Test
    void jooqTransactionInsideAReadBodyIsRefused() {
        db.execute("INSERT INTO book(title) VALUES ('Dune')");
        Throwable failure = catchThrowable(() -> db.read(conn -> jooq(conn).transactionResult(
                trx -> trx.dsl().fetchCount(BOOK))));

        assertThat(assertRefused(failure, ReadOnlyViolationException.class))
                .hasMessageContaining("commit() is refused in a read");
        assertThat(count()).isEqualTo(1);
    }
}
