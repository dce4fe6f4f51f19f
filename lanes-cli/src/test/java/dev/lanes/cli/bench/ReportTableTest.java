package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ReportTableTest {

    @Test
    void repeatedRowsAreMediansAndSaySo() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(firstLine(table)).isEqualTo("lanes bench: write, tenants; 1s warm-up + 5s"
                + " measured per run; --repeat 3, lanes and baseline interleaved");
        assertThat(lines(table, "each row: ")).containsExactly(
                "each row: the median of 3 runs (errors: their sum)",
                "each row: the median of 3 runs (errors: their sum)");
        // one row per system and configuration, not one per repetition; the errors of all
        assertThat(lines(table, "NORMAL   lanes        64", "NORMAL   hikari       64"))
                .containsExactly(
                        "NORMAL   lanes        64     120,000       25.0      900.0     9,000.0  -",
                        "NORMAL   hikari       64      50,000       25.0    4,000.0    40,000.0"
                                + "  SQLITE_BUSY=5");
        assertThat(lines(table, "NORMAL   lanes        16")).containsExactly(
                "NORMAL   lanes        16   all        60,000        6.0      800.0     8,000.0  -",
                "NORMAL   lanes        16   read       48,000        5.0      500.0     5,000.0",
                "NORMAL   lanes        16   write      12,000       16.0    1,100.0     9,000.0");
    }

    @Test
    void aFailedCheckIsShownForTheRepetitionThatFailedItUnderItsSystemsRow() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(lines(table, "  !")).containsExactly(
                "  ! hikari, repeat 2/3: 10 acknowledged but 9 found (rows in bench)");
        assertThat(table.indexOf("  ! hikari")).isGreaterThan(table.indexOf("NORMAL   hikari"))
                .isLessThan(table.indexOf("NORMAL   lanes         1"));
    }

    @Test
    void eachRepetitionsFootprintIsShown() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(lines(table, "  repeat ")).hasSize(6);
        assertThat(table).contains("  repeat 1/3: 1,000 databases: 60 of 64 pool threads live",
                "  repeat 2/3: 1,000 databases: 61 of 64 pool threads live",
                "per database: heap 30.0 KiB", "  repeat 3/3: file descriptors: at most 9,500");
    }

    @Test
    void ratiosShowTheirMedianAndRangeOverTheRepetitionPairs() throws Exception {
        String table = render(RepeatedFixtures.REPEAT);

        assertThat(lines(table, "ratios")).containsOnly(
                "ratios (above 1 means lanes is better): median (min-max) of 3 repetition pairs");
        assertThat(lines(table, "NORMAL        64")).containsExactly("NORMAL        64 hikari     "
                + "       2.00x (2.00-3.25)        1.00x (0.50-1.50)       4.44x (2.00-10.00)");
        // the baseline completed nothing in repetition 2: no ratio there, the others' median
        assertThat(lines(table, "NORMAL         1")).singleElement().asString()
                .contains("0.88x (0.75-1.00, 1 n/a)");
    }

    @Test
    void anEvenNumberOfRepetitionsTakesTheMeanOfTheMiddleTwo() throws Exception {
        String table = render(2);

        assertThat(lines(table, "NORMAL   lanes        64", "NORMAL   hikari       64"))
                .containsExactly(
                        "NORMAL   lanes        64     115,000       25.0      950.0     9,500.0  -",
                        "NORMAL   hikari       64      45,000       22.5    3,000.0    30,000.0"
                                + "  SQLITE_BUSY=3");
        // (2.00 + 3.25) / 2
        assertThat(lines(table, "NORMAL        64")).singleElement().asString()
                .contains("2.63x (2.00-3.25)");
        assertThat(lines(table, "  !")).containsExactly(
                "  ! hikari, repeat 2/2: 10 acknowledged but 9 found (rows in bench)");
    }

    @Test
    void aSingleRunPrintsAsItAlwaysDid() throws Exception {
        String table = render(1);

        assertThat(firstLine(table)).isEqualTo(
                "lanes bench: write, tenants; 1s warm-up + 5s measured per run; --repeat 1");
        assertThat(table).doesNotContain("each row", "median", "repeat 1/1", "  !");
        assertThat(lines(table, "NORMAL   lanes        64")).containsExactly(
                "NORMAL   lanes        64     100,000       30.0      900.0     9,000.0  -");
        assertThat(lines(table, "ratios")).containsOnly("ratios (above 1 means lanes is better)");
        assertThat(lines(table, "NORMAL        64")).containsExactly("NORMAL        64 hikari   "
                + "                     2.00x                0.50x                4.44x");
        assertThat(lines(table, "  1,000 databases: 60 of 64 pool threads live")).hasSize(1);
    }

    private static String render(int repeat) throws Exception {
        StringWriter out = new StringWriter();
        ReportTable table = new ReportTable(new PrintWriter(out, true), repeat);
        table.printHeader(RepeatedFixtures.options(repeat), ReportFixtures.environment());
        RepeatedFixtures.run(repeat, table, RepeatedFixtures.write(), RepeatedFixtures.tenants());
        return out.toString();
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElseThrow();
    }

    private static List<String> lines(String text, String... prefixes) {
        return text.lines()
                .filter(l -> Arrays.stream(prefixes).anyMatch(l::startsWith))
                .collect(Collectors.toList());
    }
}
