package dev.lanes.internal.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.InvalidRequestException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.internal.guard.Refusals;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TextMemoTest {
    @Test
    void aTextIsFoundOnceThenRemembered() {
        TextMemo<Integer> memo = new TextMemo<>();
        AtomicInteger finds = new AtomicInteger();
        assertThat(memo.get("SELECT 1", t -> finds.incrementAndGet())).isEqualTo(1);
        assertThat(memo.get("SELECT 1", t -> finds.incrementAndGet())).isEqualTo(1);
        assertThat(finds).hasValue(1);
        assertThat(memo.contains("SELECT 1")).isTrue();
        assertThat(memo.contains("SELECT 2")).isFalse();
    }

    @Test
    void itStaysBoundedAndKeepsNoLongText() {
        TextMemo<Boolean> memo = new TextMemo<>();
        for (int i = 0; i < TextMemo.MAX_ENTRIES * 3; i++) {
            memo.remember("SELECT " + i, Boolean.TRUE);
        }
        int kept = 0;
        for (int i = 0; i < TextMemo.MAX_ENTRIES * 3; i++) {
            kept += memo.contains("SELECT " + i) ? 1 : 0;
        }
        assertThat(kept).isPositive().isLessThanOrEqualTo(TextMemo.MAX_ENTRIES);
        String bulk = "SELECT '" + "x".repeat(TextMemo.MAX_LENGTH) + "'";
        memo.remember(bulk, Boolean.TRUE);
        assertThat(memo.contains(bulk)).isFalse();
    }

    /** Only passing texts are remembered: a refused one is refused every time, with its message. */
    @Test
    void aRefusedTextIsRefusedAgainAndAPassingOneStillPasses() {
        for (int run = 0; run < 3; run++) {
            assertThatThrownBy(() -> Refusals.writeOnReader("memo.db", "DELETE FROM t"))
                    .isInstanceOf(ReadOnlyViolationException.class).hasMessageContaining("memo.db");
            assertThatThrownBy(() -> Refusals.transactionControl("memo.db", "db.execute",
                    "COMMIT")).isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("db.execute");
            Refusals.writeOnReader("memo.db", "SELECT v FROM t WHERE id = ?");
            Refusals.transactionControl("memo.db", "db.execute", "INSERT INTO t(v) VALUES (?)");
        }
    }
}
