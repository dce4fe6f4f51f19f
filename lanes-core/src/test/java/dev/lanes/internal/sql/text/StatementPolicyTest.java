package dev.lanes.internal.sql.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Each rule has one message wherever it applies; a refusal is typed, never ran, names the
 * database; a kept shape passes or is refused exactly as a fresh one; {@code ATTACH} is judged by
 * the limit of the place that asks, every time.
 */
class StatementPolicyTest {
    /** A text that breaks each rule, and nothing before it. */
    static final Map<Rule, String> BREAKS = Map.ofEntries(
            Map.entry(Rule.NO_STATEMENT, " ; /* nothing */ ;"),
            Map.entry(Rule.NUL, "SELECT 1;\0SELECT 2"),
            Map.entry(Rule.LONE_SURROGATE, "SELECT 'a\uDC00'"),
            Map.entry(Rule.DRIVER_COMMAND, "restore from x.db"),
            Map.entry(Rule.WRITE_ON_READER, "DELETE FROM t"),
            Map.entry(Rule.TRANSACTION_CONTROL, "SAVEPOINT s"),
            Map.entry(Rule.ATTACH, "ATTACH ':memory:' AS m"),
            Map.entry(Rule.VACUUM_INTO, "VACUUM main INTO 'x.db'"),
            Map.entry(Rule.OWNED_PRAGMA, "PRAGMA journal_mode = DELETE"),
            Map.entry(Rule.PROCESS_PRAGMA, "PRAGMA temp_store_directory = '/tmp'"),
            Map.entry(Rule.SETUP_PRAGMA, "PRAGMA foreign_keys = OFF"),
            Map.entry(Rule.UNKNOWN_PRAGMA, "PRAGMA key = 'x'"),
            Map.entry(Rule.SEVERAL_STATEMENTS, "SELECT 1; SELECT 2"),
            Map.entry(Rule.RETURNS_ROWS, "SELECT 1"),
            Map.entry(Rule.CLUSTER_RETURNING, "DELETE FROM t RETURNING id"),
            Map.entry(Rule.CLUSTER_CHECKPOINT, "PRAGMA wal_checkpoint(TRUNCATE)"));

    /** What only each rule's message says, to tell which rule refused. */
    static final Map<Rule, String> MARKS = Map.ofEntries(
            Map.entry(Rule.NO_STATEMENT, "without a statement"),
            Map.entry(Rule.NUL, "holding a NUL"),
            Map.entry(Rule.LONE_SURROGATE, "lone UTF-16 surrogate"),
            Map.entry(Rule.DRIVER_COMMAND, "is the driver's"),
            Map.entry(Rule.WRITE_ON_READER, "is refused on a reader"),
            Map.entry(Rule.TRANSACTION_CONTROL, "Lanes owns the transaction"),
            Map.entry(Rule.ATTACH, "ATTACH is refused ("),
            Map.entry(Rule.VACUUM_INTO, "VACUUM INTO is refused"),
            Map.entry(Rule.OWNED_PRAGMA, "Lanes owns it"),
            Map.entry(Rule.PROCESS_PRAGMA, "it is process-wide, so"),
            Map.entry(Rule.SETUP_PRAGMA, "is refused in SQL"),
            Map.entry(Rule.UNKNOWN_PRAGMA, "does not place it"),
            Map.entry(Rule.SEVERAL_STATEMENTS, "more than one statement"),
            Map.entry(Rule.RETURNS_ROWS, "returns rows, which"),
            Map.entry(Rule.CLUSTER_RETURNING, "a write with RETURNING is refused on a cluster"),
            Map.entry(Rule.CLUSTER_CHECKPOINT, "PRAGMA wal_checkpoint is refused on a cluster"));

    @Test
    void everyRuleHasOneMessageAtEveryPlaceThatAppliesIt() {
        Map<Rule, Set<String>> messages = new HashMap<>();
        Map<Rule, Set<StatementPolicy>> places = new HashMap<>();
        for (String sql : BREAKS.values()) {
            StatementShape shape = StatementShape.of(sql);
            for (StatementPolicy policy : StatementPolicy.values()) {
                Throwable t = catchThrowable(() -> policy.admit("one.db", shape, 0));
                if (t == null) {
                    continue;
                }
                assertThat(t).isInstanceOf(LanesException.class);
                LanesException refusal = (LanesException) t;
                assertThat(refusal.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
                assertThat(refusal.getMessage()).startsWith("one.db: ");
                Rule rule = ruleOf(refusal.getMessage());
                messages.computeIfAbsent(rule, k -> new java.util.HashSet<>())
                        .add(template(refusal.getMessage(), shape));
                places.computeIfAbsent(rule, k -> EnumSet.noneOf(StatementPolicy.class))
                        .add(policy);
            }
        }
        assertThat(messages.keySet()).as("every rule refuses somewhere")
                .containsExactlyInAnyOrder(Rule.values());
        for (Rule rule : Rule.values()) {
            assertThat(messages.get(rule)).as("%s at %s", rule, places.get(rule)).hasSize(1);
        }
        assertThat(places.get(Rule.WRITE_ON_READER)).containsExactlyInAnyOrder(
                StatementPolicy.READER, StatementPolicy.READ_SCRIPT, StatementPolicy.READ_BATCH);
        assertThat(places.get(Rule.CLUSTER_RETURNING)).containsExactlyInAnyOrder(
                StatementPolicy.CLUSTER_WRITER, StatementPolicy.CLUSTER_WRITE_BODY,
                StatementPolicy.CLUSTER_SCRIPT);
        assertThat(places.get(Rule.CLUSTER_CHECKPOINT)).containsExactlyInAnyOrder(
                StatementPolicy.CLUSTER_WRITER, StatementPolicy.CLUSTER_WRITE_BODY,
                StatementPolicy.CLUSTER_SCRIPT);
        assertThat(places.get(Rule.SEVERAL_STATEMENTS)).doesNotContain(StatementPolicy.SCRIPT,
                StatementPolicy.READ_SCRIPT, StatementPolicy.CLUSTER_SCRIPT);
    }

    /** The one rule whose mark {@code message} holds. */
    private static Rule ruleOf(String message) {
        List<Rule> found = MARKS.entrySet().stream().filter(e -> message.contains(e.getValue()))
                .map(Map.Entry::getKey).toList();
        assertThat(found).as(message).hasSize(1);
        return found.get(0);
    }

    /**
     * A message without what it quotes of the text, the statement's place, and on a reader the
     * kind of write it names.
     */
    private static String template(String message, StatementShape shape) {
        String m = message.replaceAll(" in statement \\d+ of the (script|batch)", "");
        m = m.replace("'" + shown(shape.sql()) + "'", "<sql>");
        for (String statement : shape.statements()) {
            m = m.replace("'" + shown(statement) + "'", "<sql>");
        }
        m = m.replaceAll("^one\\.db: .* is refused on a reader",
                "one.db: <kind> is refused on a reader");
        return m.replaceAll("at offset \\d+", "at offset n");
    }

    /** A text as a message quotes it. */
    private static String shown(String sql) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            b.append(c == 0 ? "\\0" : Character.isSurrogate(c) ? "\\u"
                    + Integer.toHexString(c) : String.valueOf(c));
        }
        return StatementShape.shorten(b.toString());
    }

    @Test
    void aReaderRefusesAWriteAsAWriteAndTheRestOfTheRulesAsEveryoneDoes() {
        StatementShape attach = StatementShape.of("ATTACH ':memory:' AS m");
        assertThatThrownBy(() -> StatementPolicy.READER.admit("r.db", attach, 5))
                .isInstanceOf(ReadOnlyViolationException.class)
                .hasMessageContaining("ATTACH is refused on a reader");
        assertThatThrownBy(() -> StatementPolicy.READER.admit("r.db",
                StatementShape.of("SELECT 1; PRAGMA user_version = 5"), 0))
                .as("a write in a later statement is found before the count of statements")
                .isInstanceOf(ReadOnlyViolationException.class).hasMessageContaining("pragma");
        assertThatCode(() -> StatementPolicy.READER.admit("r.db",
                StatementShape.of("PRAGMA main.journal_mode"), 0)).doesNotThrowAnyException();
    }

    /** A kept shape is refused every time, with its message, and a passing one passes. */
    @Test
    void aRefusedTextIsRefusedAgainAndAPassingOneStillPasses() {
        Shapes shapes = new Shapes();
        for (int run = 0; run < 3; run++) {
            assertThatThrownBy(() -> StatementPolicy.READER.admit("memo.db",
                    shapes.of("DELETE FROM t"), 0))
                    .isInstanceOf(ReadOnlyViolationException.class).hasMessageContaining("memo.db");
            assertThatThrownBy(() -> StatementPolicy.WRITER.admit("memo.db", shapes.of("COMMIT"),
                    0)).isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("transaction control (COMMIT)");
            StatementPolicy.READER.admit("memo.db", shapes.of("SELECT v FROM t WHERE id = ?"), 0);
            StatementPolicy.WRITER.admit("memo.db", shapes.of("INSERT INTO t(v) VALUES (?)"), 0);
        }
    }

    /**
     * An {@code ATTACH} passed where the limit allows it is still refused where it does not,
     * every time: the shape says it attaches, the place's limit decides.
     */
    @Test
    void anAttachPassedWhereAllowedIsStillRefusedWhereNot() {
        Shapes shapes = new Shapes();
        StatementShape attach = shapes.of("ATTACH DATABASE ':memory:' AS memo_test");
        assertThatCode(() -> StatementPolicy.WRITER.admit("allowed.db", attach, 2))
                .doesNotThrowAnyException();
        assertThatCode(() -> StatementPolicy.WRITER.admit("unknown.db", attach,
                StatementPolicy.UNKNOWN_ATTACH_LIMIT)).doesNotThrowAnyException();
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> StatementPolicy.WRITER.admit("closed.db",
                    shapes.of("ATTACH DATABASE ':memory:' AS memo_test"), 0))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("ATTACH");
        }
        StatementShape insert = shapes.of("INSERT INTO memo_test(v) VALUES (?)");
        StatementPolicy.WRITER.admit("a.db", insert, 0);
        StatementPolicy.WRITER.admit("a.db", shapes.of("INSERT INTO memo_test(v) VALUES (?)"), 0);
        assertThatThrownBy(() -> StatementPolicy.SCRIPT.admit("a.db",
                shapes.of("INSERT INTO memo_test(v) VALUES (?); ATTACH ':memory:' AS m"), 0))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("ATTACH")
                .hasMessageContaining("statement 1 of the script");
    }

    @Test
    void aBatchOrScriptRefusalSaysWhichStatementBrokeTheRule() {
        assertThatThrownBy(() -> StatementPolicy.WRITER.admit("b.db",
                StatementShape.of("PRAGMA cache_size = 1"), 0, "statement 3 of the batch"))
                .hasMessageContaining("statement 3 of the batch")
                .hasMessageContaining("'PRAGMA cache_size = 1'");
        assertThatThrownBy(() -> StatementPolicy.SCRIPT.admit("b.db",
                StatementShape.of("SELECT 1; CREATE TABLE u(a); -- c\n ROLLBACK"), 0))
                .hasMessageContaining("statement 2 of the script")
                .hasMessageContaining("'ROLLBACK'");
    }

    @Test
    void theRowsRuleKnowsWhichPragmasReturnRows() {
        for (String sql : List.of("PRAGMA user_version = 3", "PRAGMA main.application_id(7)",
                "PRAGMA defer_foreign_keys = ON", "PRAGMA incremental_vacuum(5)",
                "PRAGMA shrink_memory", "INSERT INTO t VALUES (1)")) {
            assertThatCode(() -> StatementPolicy.WRITER.admit("p.db", StatementShape.of(sql), 0))
                    .as(sql).doesNotThrowAnyException();
        }
        for (String sql : List.of("PRAGMA user_version", "PRAGMA table_info(t)",
                "PRAGMA wal_checkpoint(PASSIVE)", "PRAGMA optimize", "EXPLAIN DELETE FROM t",
                "WITH c AS (SELECT 1) SELECT * FROM c", "UPDATE t SET v = 1 RETURNING id")) {
            assertThatThrownBy(() -> StatementPolicy.WRITER.admit("p.db",
                    StatementShape.of(sql), 0)).as(sql).hasMessageContaining("returns rows");
        }
    }
}
