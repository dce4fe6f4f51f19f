package dev.lanes.internal.sql.text;

import java.util.List;

/**
 * What the tests of the lexer and of the guards ask of a text, each read afresh from its {@link
 * StatementShape} (no cache): the questions the tests asked before the shape held the answers.
 */
public final class Texts {
    private Texts() {}

    public static boolean noStatement(String sql) {
        return StatementShape.of(sql).empty();
    }

    public static String firstKeyword(String sql) {
        return StatementShape.of(sql).firstKeyword();
    }

    public static String transactionControl(String sql) {
        return StatementShape.of(sql).transactionControl();
    }

    public static List<String> split(String sql) {
        return StatementShape.of(sql).statements();
    }

    public static List<String> statementsOf(String sql) {
        return split(sql);
    }

    public static boolean severalStatements(String sql) {
        return StatementShape.of(sql).several();
    }

    public static String driverCommand(String sql) {
        return StatementShape.of(sql).driverCommand();
    }

    /** Why {@code sql} may not run on a reader; null when every statement of it reads. */
    public static String refusal(String sql) {
        return StatementShape.of(sql).notARead();
    }

    /** Whether {@code sql} holds a lone UTF-16 surrogate, which every path refuses. */
    public static boolean holdsALoneSurrogate(String sql) {
        return StatementShape.of(sql).loneSurrogateAt() >= 0;
    }

    /** Whether a statement of {@code sql} names a pragma that Lanes' pragma table does not place. */
    public static boolean namesAnUnplacedPragma(String sql) {
        return StatementShape.of(sql).parts().stream()
                .anyMatch(p -> p.pragma() != null && p.pragma().entry() == null);
    }

    public static String shorten(String sql) {
        return StatementShape.shorten(sql);
    }
}
