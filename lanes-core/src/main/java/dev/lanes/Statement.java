package dev.lanes;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One SQL statement with its positional parameters, for {@link Database#executeBatch(List)}.
 *
 * @param sql the statement text (one statement)
 * @param args its parameters, bound in order
 */
public record Statement(String sql, List<Object> args) {
    public Statement {
        Objects.requireNonNull(sql, "sql");
        args = args == null ? List.of() : java.util.Collections.unmodifiableList(
                new java.util.ArrayList<>(args));
    }

    /** A statement with these parameters ({@code null} parameters are allowed). */
    public static Statement of(String sql, Object... args) {
        return new Statement(sql, args == null ? List.of() : Arrays.asList(args));
    }
}
