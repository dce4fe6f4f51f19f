package dev.lanes.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A statement's routing is found once per text: Spring prepares a new statement for every call,
 * and each one must not pay the lexer again; a bulk text is not kept, and the memory stays
 * bounded however many texts an application runs.
 */
class SqlShapeTest {
    @Test
    void aTextPreparedAgainReusesItsShape() {
        SqlShape first = SqlShape.of("SELECT v FROM counter WHERE id = ?");
        assertThat(SqlShape.of("SELECT v FROM counter WHERE id = ?")).isSameAs(first);
        assertThat(first.read()).isTrue();
        assertThat(first.returnsRows()).isTrue();
        SqlShape update = SqlShape.of("UPDATE counter SET v = ? WHERE id = 1");
        assertThat(update.read()).isFalse();
        assertThat(update.countsChanges()).isTrue();
        assertThat(update.returnsRows()).isFalse();
    }

    @Test
    void aBulkTextIsNotKeptAndManyTextsStayCorrect() {
        String bulk = "INSERT INTO t(v) VALUES ('" + "x".repeat(10_000) + "') RETURNING id";
        SqlShape once = SqlShape.of(bulk);
        SqlShape again = SqlShape.of(bulk);
        assertThat(again).isNotSameAs(once).isEqualTo(once);
        assertThat(once.mayInsert()).isTrue();
        assertThat(once.returnsRows()).isTrue();
        for (int i = 0; i < 3_000; i++) { // past the bound: emptied, filled again, still right
            SqlShape s = SqlShape.of("SELECT " + i);
            assertThat(s.read()).isTrue();
            assertThat(s).isEqualTo(SqlShape.find("SELECT " + i));
        }
        SqlShape hot = SqlShape.of("DELETE FROM t WHERE id = ?");
        assertThat(SqlShape.of("DELETE FROM t WHERE id = ?")).isSameAs(hot);
        assertThat(hot.read()).isFalse();
    }
}
