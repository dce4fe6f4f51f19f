package dev.lanes.internal.guard;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.InvalidRequestException;
import org.junit.jupiter.api.Test;

/**
 * The memo of texts that hold no {@code ATTACH}, which spares a lexer pass per write, never lets
 * an {@code ATTACH} through: a text is remembered only once it was read through and found free
 * of one, never when a database whose limit allows attachments skipped the check.
 */
class AttachRefusalMemoTest {
    @Test
    void anAttachPassedWhereAllowedIsStillRefusedWhereNot() {
        String attach = "ATTACH DATABASE ':memory:' AS memo_test_" + System.nanoTime();
        assertThatCode(() -> Refusals.attach("allowed.db", "db.execute", attach, 2))
                .doesNotThrowAnyException();
        assertThatCode(() -> Refusals.attach("unknown.db", "db.execute", attach, -1))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> Refusals.attach("closed.db", "db.execute", attach, 0))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("ATTACH");
        assertThatThrownBy(() -> Refusals.attach("closed.db", "db.execute", attach, 0))
                .as("refused again: a refusal is never remembered as a pass")
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void aTextThatPassedStaysPassingAndAnotherTextWithAnAttachIsReadAfresh() {
        String insert = "INSERT INTO memo_test(v) VALUES (?) -- " + System.nanoTime();
        assertThatCode(() -> Refusals.attach("a.db", "db.execute", insert, 0))
                .doesNotThrowAnyException();
        assertThatCode(() -> Refusals.attach("a.db", "db.execute", insert, 0))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> Refusals.attach("a.db", "db.executeScript",
                insert.substring(0, insert.indexOf(" --")) + "; ATTACH ':memory:' AS m", 0))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("ATTACH");
    }
}
