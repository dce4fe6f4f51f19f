package dev.lanes.internal.sql.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.internal.sql.text.SqlLexer.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one SQL lexer: which tokens a text holds, as SQLite's tokenizer would cut them. */
class SqlLexerTest {

    /** "KIND text" for each token of {@code sql}. */
    private static List<String> tokens(String sql) {
        List<String> out = new ArrayList<>();
        SqlLexer lex = new SqlLexer(sql);
        while (lex.next()) {
            out.add(lex.kind() + " " + lex.text());
        }
        assertThat(lex.kind()).as("no token after the last").isNull();
        return out;
    }

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("  -- c\n\t/* x */ SELECT", List.of("WORD SELECT")),
                Arguments.of("SELECT /* never closed", List.of("WORD SELECT")),
                Arguments.of("a -- to the end of the line\nb", List.of("WORD a", "WORD b")),
                Arguments.of("'it''s'", List.of("STRING 'it''s'")),
                Arguments.of("'never closed", List.of("STRING 'never closed")),
                Arguments.of("x'0F' X'a0'", List.of("STRING x'0F'", "STRING X'a0'")),
                Arguments.of("\"a\"\"b\" `c` [d e]",
                        List.of("QUOTED \"a\"\"b\"", "QUOTED `c`", "QUOTED [d e]")),
                Arguments.of("1 1.5e-3 .5 0x1F 2E+9",
                        List.of("NUMBER 1", "NUMBER 1.5e-3", "NUMBER .5", "NUMBER 0x1F",
                                "NUMBER 2E+9")),
                Arguments.of("? ?12 :name @p $v",
                        List.of("PARAMETER ?", "PARAMETER ?12", "PARAMETER :name",
                                "PARAMETER @p", "PARAMETER $v")),
                Arguments.of("f(a, b) = c;", List.of("WORD f", "PUNCT (", "WORD a", "PUNCT ,",
                        "WORD b", "PUNCT )", "PUNCT =", "WORD c", "SEMICOLON ;")),
                Arguments.of("na\u00efve_col$1 _x", List.of("WORD na\u00efve_col$1", "WORD _x")),
                Arguments.of("a\u0000b", List.of("WORD a", "PUNCT \u0000", "WORD b")),
                Arguments.of("x'ab", List.of("STRING x'ab")),
                Arguments.of("", List.of()),
                Arguments.of(" \t\n\r\f ", List.of()),
                // SQLite's tokenizer does not take a vertical tab for white space
                Arguments.of(" \u000b ", List.of("PUNCT \u000b")));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("texts")
    void aTextIsCutIntoTheTokensSqliteWouldSee(String sql, List<String> expected) {
        assertThat(tokens(sql)).isEqualTo(expected);
    }

    @Test
    void keywordsCompareInAsciiCaseOnly() {
        SqlLexer lex = new SqlLexer("commit COMM\u0131T Commit");
        lex.next();
        assertThat(lex.is("COMMIT")).isTrue();
        assertThat(lex.upperWord()).isEqualTo("COMMIT");
        lex.next();
        assertThat(lex.is("COMMIT")).as("a dotless i is no I to SQLite").isFalse();
        assertThat(lex.upperWord()).isEqualTo("COMM\u0131T");
        lex.next();
        assertThat(lex.is("COMMIT")).isTrue();
        assertThat(lex.is("COMMITS")).isFalse();
    }

    @Test
    void aNameIsReadTheWaySqliteReadsOneWhereANameIsExpected() {
        assertThat(names("table_info \"my\"\"t\" [x y] 'str' `b``q` x'00' 1 (")).containsExactly(
                "TABLE_INFO", "MY\"T", "X Y", "STR", "B`Q", "", "", "");
    }

    private static List<String> names(String sql) {
        List<String> out = new ArrayList<>();
        SqlLexer lex = new SqlLexer(sql);
        while (lex.next()) {
            out.add(lex.upperName());
        }
        return out;
    }

    @Test
    void punctuationIsRecognisedOnlyAsItsOwnKind() {
        SqlLexer lex = new SqlLexer("( '('");
        lex.next();
        assertThat(lex.isPunct('(')).isTrue();
        assertThat(lex.upperWord()).as("not a word").isEmpty();
        lex.next();
        assertThat(lex.isPunct('(')).as("a string starting with a quote").isFalse();
    }

    @Test
    void theFirstWordSkipsCommentsAndIsEmptyWhenTheTextStartsOtherwise() {
        assertThat(SqlLexer.firstWord("/* c */ -- x\n  pragma x")).isEqualTo("PRAGMA");
        assertThat(SqlLexer.firstWord("(SELECT 1)")).isEmpty();
        assertThat(SqlLexer.firstWord("'SELECT'")).isEmpty();
        assertThat(SqlLexer.firstWord("")).isEmpty();
        assertThat(SqlLexer.firstWord("with_x AS")).isEqualTo("WITH_X");
    }

    @Test
    void aLexerOverARangeSeesOnlyThatRange() {
        String sql = "SELECT a; DELETE b";
        SqlLexer lex = new SqlLexer(sql, 10, sql.length());
        assertThat(lex.next()).isTrue();
        assertThat(lex.text()).isEqualTo("DELETE");
        assertThat(lex.start()).isEqualTo(10);
        assertThat(lex.end()).isEqualTo(16);
        assertThat(SqlLexer.skipSpaceAndComments("  /* x */ y", 0, 11)).isEqualTo(10);
        assertThat(SqlLexer.skipSpaceAndComments("  -- x", 0, 6)).isEqualTo(6);
    }
}
