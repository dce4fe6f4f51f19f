package dev.lanes.internal.sql.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A text's shape is found once per runtime: Spring prepares a new statement for every call, and
 * each one must not pay the lexer again; a bulk text is not kept, and the memory stays bounded
 * however many texts an application runs, without ever being emptied at once.
 */
class ShapesTest {
    @Test
    void aTextPreparedAgainReusesItsShape() {
        Shapes shapes = new Shapes();
        StatementShape first = shapes.of("SELECT v FROM counter WHERE id = ?");
        assertThat(shapes.of("SELECT v FROM counter WHERE id = ?")).isSameAs(first);
        assertThat(first.reads()).isTrue();
        assertThat(first.returnsRows()).isTrue();
        StatementShape update = shapes.of("UPDATE counter SET v = ? WHERE id = 1");
        assertThat(update.reads()).isFalse();
        assertThat(update.countsChanges()).isTrue();
        assertThat(update.returnsRows()).isFalse();
        assertThat(shapes.keeps("SELECT v FROM counter WHERE id = ?")).isTrue();
        assertThat(shapes.keeps("SELECT 2")).isFalse();
    }

    @Test
    void aBulkTextIsNotKeptAndManyTextsStayCorrect() {
        Shapes shapes = new Shapes();
        String bulk = "INSERT INTO t(v) VALUES ('" + "x".repeat(Shapes.MAX_LENGTH)
                + "') RETURNING id";
        StatementShape once = shapes.of(bulk);
        StatementShape again = shapes.of(bulk);
        assertThat(again).isNotSameAs(once).isEqualTo(once);
        assertThat(shapes.keeps(bulk)).isFalse();
        assertThat(once.mayInsert()).isTrue();
        assertThat(once.returnsRows()).isTrue();
        int texts = (int) (Shapes.MAX_WEIGHT / 8); // far past the bound
        for (int i = 0; i < texts; i++) {
            StatementShape s = shapes.of("SELECT " + i);
            assertThat(s.reads()).isTrue();
            assertThat(s).isEqualTo(StatementShape.of("SELECT " + i));
        }
        shapes.cleanUp();
        int kept = 0;
        long weight = 0;
        for (int i = 0; i < texts; i++) {
            if (shapes.keeps("SELECT " + i)) {
                kept++;
                weight += ("SELECT " + i).length() + 16;
            }
        }
        assertThat(weight).as("the texts kept, weighed by length").isPositive()
                .isLessThanOrEqualTo(Shapes.MAX_WEIGHT);
        assertThat(kept).as("bounded, and never emptied at once").isPositive().isLessThan(texts);
        StatementShape hot = shapes.of("DELETE FROM t WHERE id = ?");
        assertThat(shapes.of("DELETE FROM t WHERE id = ?")).isSameAs(hot);
        assertThat(hot.reads()).isFalse();
    }

    @Test
    void theStatementsOfAScriptAreKeptWithTheirOwnShapesWithoutAnotherPass() {
        Shapes shapes = new Shapes();
        StatementShape script = shapes.of("CREATE TABLE a(x); INSERT INTO a VALUES (1) RETURNING x;"
                + " PRAGMA user_version = 2");
        List<String> statements = shapes.statements(script);
        assertThat(statements).containsExactly("CREATE TABLE a(x)",
                "INSERT INTO a VALUES (1) RETURNING x", "PRAGMA user_version = 2");
        for (String statement : statements) {
            assertThat(shapes.keeps(statement)).isTrue();
            StatementShape kept = shapes.of(statement);
            StatementShape read = StatementShape.of(statement);
            assertThat(kept.parts()).isEqualTo(read.parts());
            assertThat(kept.several()).isFalse();
        }
    }
}
