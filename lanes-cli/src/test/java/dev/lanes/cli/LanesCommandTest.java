package dev.lanes.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The lanes command as the lanes-cli distribution has it: inspect alone, and short errors. */
class LanesCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void theDistributionHasInspectAndNoBench() {
        assertThat(LanesCommand.commandLine().getSubcommands().keySet())
                .containsExactlyInAnyOrder("inspect", "help");
    }

    @Test
    void aWrongValuePrintsTheErrorAndOneLineOfUsageNotTheHelp() {
        int exit = run("inspect", "--interval", "soon", "app.db");

        assertThat(exit).isEqualTo(2);
        assertThat(lines(err)).hasSize(2);
        assertThat(lines(err)[0]).startsWith("lanes inspect: ").contains("--interval", "soon");
        assertThat(lines(err)[1]).isEqualTo(
                "Usage: lanes inspect [OPTIONS] DB_FILE (lanes inspect --help lists everything)");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aMissingParameterSaysWhichAndShowsTheUsageLine() {
        assertThat(run("inspect")).isEqualTo(2);

        assertThat(err.toString()).contains("DB_FILE", "Usage: lanes inspect [OPTIONS] DB_FILE")
                .doesNotContain("Opens the file read-only");
    }

    @Test
    void aMisspeltCommandIsSuggestedItsRightName() {
        assertThat(run("inspekt", "app.db")).isEqualTo(2);

        assertThat(err.toString()).contains("lanes: Unmatched argument", "inspekt", "inspect",
                "Usage: lanes [OPTIONS] COMMAND");
        assertThat(lines(err).length).isLessThanOrEqualTo(5);
    }

    @Test
    void benchSaysWhereTheBenchmarkSuiteIsInsteadOfUnknown() {
        assertThat(run("bench", "--repeat", "3")).isEqualTo(2);

        assertThat(err.toString().strip()).isEqualTo("lanes: bench is not in this distribution:"
                + " the benchmark suite is the lanes-bench module; from a source checkout run"
                + " ./lanes bench");
    }

    @Test
    void theHelpStillListsEverything() {
        assertThat(run("inspect", "--help")).isZero();

        assertThat(out.toString()).contains("Opens the file read-only", "--watch", "--interval",
                "--text");
    }

    private int run(String... args) {
        CommandLine line = LanesCommand.commandLine();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    private static String[] lines(StringWriter w) {
        return w.toString().strip().split("\\R");
    }
}
