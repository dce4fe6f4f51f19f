package dev.lanes.jdbcit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.lanes.Database;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** jOOQ on {@code DSL.using(db.dataSource(), SQLDialect.SQLITE)}. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JooqTest {
    private static final Table<?> NOTE = table(name("note"));
    private static final Field<Long> ID = field(name("id"), Long.class);
    private static final Field<String> TEXT = field(name("text"), String.class);
    private static final Field<Long> N = field(name("n"), Long.class);

    @RegisterExtension final LanesFixture fixture = new LanesFixture();

    @Test
    void insertReturningQueriesTransactionsAndNestedRollback() throws Exception {
        Database db = fixture.open("jooq.db");
        DSLContext ctx = DSL.using(db.dataSource(), SQLDialect.SQLITE);
        ctx.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL, n INTEGER)");

        Record1<Long> first = ctx.insertInto(NOTE).set(TEXT, "first").set(N, 0L)
                .returningResult(ID).fetchOne();
        assertThat(first.value1()).isEqualTo(1L);
        assertThat(ctx.select(TEXT).from(NOTE).where(ID.eq(1L)).fetchOne(TEXT))
                .isEqualTo("first");

        // 8 threads increment one row in read-then-write transactions
        fixture.onThreads(8, thread -> {
            for (int i = 0; i < 25; i++) {
                ctx.transaction(cfg -> {
                    DSLContext tx = DSL.using(cfg);
                    long n = tx.select(N).from(NOTE).where(ID.eq(1L)).fetchOne(N);
                    tx.update(NOTE).set(N, n + 1).where(ID.eq(1L)).execute();
                });
            }
            return null;
        });
        assertThat(ctx.select(N).from(NOTE).where(ID.eq(1L)).fetchOne(N)).isEqualTo(200L);

        ctx.transaction(outer -> {
            DSLContext tx = DSL.using(outer);
            tx.insertInto(NOTE).set(TEXT, "outer").execute();
            Throwable inner = catchThrowable(() -> tx.transaction(nested -> {
                DSL.using(nested).insertInto(NOTE).set(TEXT, "nested").execute();
                throw new IllegalStateException("nested body failed");
            }));
            assertThat(inner).hasMessageContaining("nested body failed");
        });
        List<String> texts = ctx.select(TEXT).from(NOTE).orderBy(ID).fetch(TEXT);
        assertThat(texts).containsExactly("first", "outer");
        assertThat(db.isTransactionOpen()).isFalse();
    }
}
