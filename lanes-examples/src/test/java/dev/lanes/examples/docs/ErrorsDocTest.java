package dev.lanes.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/errors.md answers every error a user can meet: each {@link ErrorCode} constant has exactly
 * one row in its table, whose {@code retryable()} column says what the constant says, and every
 * exception of the published API that extends {@code LanesException} is named on the page.
 */
class ErrorsDocTest {
    /** The published modules' API packages that may declare a {@code LanesException}. */
    private static final List<String> API = List.of(
            "lanes-core/src/main/java/dev/lanes",
            "lanes-spring-boot-starter/src/main/java/dev/lanes/spring",
            "lanes-dqlite/src/main/java/dev/lanes/dqlite",
            "lanes-fleet/src/main/java/dev/lanes/fleet");

    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z_]+)` \\|(.*)$");
    private static final Pattern SUBCLASS =
            Pattern.compile("\\bclass\\s+(\\w+)\\s+extends\\s+LanesException\\b");

    private final String page = Docs.page("errors.md");

    @Test
    void everyErrorCodeHasOneRowThatSaysWhetherItIsRetryable() {
        Map<String, String> rows = codeRows(page);

        assertThat(rows.keySet()).as("the rows of docs/errors.md's table of error codes")
                .containsExactlyInAnyOrderElementsOf(
                        Arrays.stream(ErrorCode.values()).map(Enum::name).toList());
        for (ErrorCode code : ErrorCode.values()) {
            String retryable = column(rows.get(code.name()), 3);
            assertThat(retryable).as("the retryable() column of " + code)
                    .isEqualTo(code.retryable() ? "yes" : "no");
        }
    }

    @Test
    void everyLanesExceptionOfThePublishedApiIsNamed() throws IOException {
        List<String> exceptions = new ArrayList<>();
        for (String dir : API) {
            try (Stream<Path> files = Files.list(Docs.root().resolve(dir))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = SUBCLASS.matcher(Files.readString(f));
                    while (m.find()) {
                        exceptions.add(m.group(1));
                    }
                }
            }
        }
        assertThat(exceptions).as("the API's exceptions").hasSizeGreaterThan(20);

        assertThat(exceptions).as("exceptions that docs/errors.md never names")
                .filteredOn(e -> !page.contains(e + "`"))
                .isEmpty();
    }

    @Test
    void aMissingOrStaleRowIsFound() {
        String table = "## Every error code\n\n| `ErrorCode` | exception | outcome | `retryable()` |\n"
                + "| --- | --- | --- | --- |\n| `BUSY` | `BusyException` | `NOT_STARTED` | yes |\n"
                + "| `GONE` | `GoneException` | `NOT_STARTED` | no |\n\nOther exceptions:\n"
                + "| `CLOSED` | not in the table | | |\n";

        Map<String, String> rows = codeRows(table);

        assertThat(rows).containsOnlyKeys("BUSY", "GONE");
        assertThat(column(rows.get("BUSY"), 3)).isEqualTo("yes");
    }

    /** The rows of the error-code table, by code: from its heading to "Other exceptions". */
    static Map<String, String> codeRows(String page) {
        int start = page.indexOf("## Every error code");
        int end = page.indexOf("Other exceptions:", start);
        assertThat(start).as("docs/errors.md has the section 'Every error code'").isNotNegative();
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : page.substring(start, end < 0 ? page.length() : end).split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                String previous = rows.put(m.group(1), line);
                assertThat(previous).as("a second row for " + m.group(1)).isNull();
            }
        }
        return rows;
    }

    /** The cell {@code index} (from 0) of a table row, trimmed. */
    static String column(String row, int index) {
        String[] cells = row.substring(1).split("\\|", -1);
        return cells[index].strip();
    }
}
