package dev.lanes.cli;

import dev.lanes.cli.bench.BenchCommand;
import dev.lanes.cli.inspect.InspectCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code lanes} command: the entry point of the shaded {@code lanes.jar}. It only routes to
 * its subcommands, one class each, listed in {@code subcommands} below ({@code bench}, {@code
 * inspect}); a new subcommand is a new class added to that list. Run without a subcommand it prints usage.
 */
@Command(
        name = "lanes",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Lanes: a concurrency runtime for embedded SQLite on the JVM.",
        subcommands = {BenchCommand.class, InspectCommand.class, HelpCommand.class})
public final class LanesCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        // exit explicitly: the exit code is the command's, and no lingering pool thread of a
        // library can keep the JVM alive after the command finished
        System.exit(commandLine().execute(args));
    }

    /**
     * The configured command line, shared by {@link #main} and in-process callers such as tests,
     * so that both parse arguments the same way.
     */
    public static CommandLine commandLine() {
        return new CommandLine(new LanesCommand())
                // "--synchronous normal" is as natural to type as "NORMAL"
                .setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public void run() {
        CommandLine line = spec.commandLine();
        line.usage(line.getOut());
    }
}
