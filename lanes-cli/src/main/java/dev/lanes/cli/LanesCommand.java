package dev.lanes.cli;

import dev.lanes.cli.inspect.InspectCommand;
import java.io.PrintWriter;
import java.util.ServiceLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * The {@code lanes} command: the entry point of the executable jars (lanes-cli's {@code
 * lanes-cli-VERSION-all.jar}, and lanes-bench's {@code lanes.jar}, which the {@code ./lanes}
 * launcher runs). It only routes to its subcommands, one class each: {@code inspect} here, and
 * every {@link LanesSubcommand} found on the class path ({@code bench}, from lanes-bench). Run
 * without a subcommand it prints usage; a wrong argument prints the error and one line of usage.
 */
@Command(
        name = "lanes",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Lanes: a concurrency runtime for embedded SQLite on the JVM.",
        subcommands = {InspectCommand.class, HelpCommand.class})
public final class LanesCommand implements Runnable {
    /** Where the bench lives when it is not on the class path: said instead of "unknown". */
    private static final String BENCH = "bench";

    @Spec
    private CommandSpec spec;

    /**
     * Runs the command and exits with its status.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        // exit explicitly: the exit code is the command's, and no lingering pool thread of a
        // library can keep the JVM alive after the command finished
        System.exit(commandLine().execute(args));
    }

    /**
     * The configured command line, shared by {@link #main} and in-process callers such as tests,
     * so that both parse arguments the same way.
     *
     * @return a new command line with every subcommand on the class path
     */
    public static CommandLine commandLine() {
        CommandLine line = new CommandLine(new LanesCommand());
        for (LanesSubcommand subcommand : ServiceLoader.load(LanesSubcommand.class)) {
            line.addSubcommand(subcommand);
        }
        // "--synchronous normal" is as natural to type as "NORMAL"
        return line.setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(LanesCommand::shortUsage);
    }

    @Override
    public void run() {
        CommandLine line = spec.commandLine();
        line.usage(line.getOut());
    }

    /**
     * A wrong argument: the error, the suggestions for a misspelt one, and one line of usage that
     * says where the whole help is, instead of the whole help.
     */
    private static int shortUsage(ParameterException e, String[] args) {
        CommandLine line = e.getCommandLine();
        PrintWriter err = line.getErr();
        String name = line.getCommandSpec().qualifiedName();
        if (line.getCommandSpec().parent() == null && args.length > 0 && BENCH.equals(args[0])
                && !line.getSubcommands().containsKey(BENCH)) {
            err.println(name + ": bench is not in this distribution: the benchmark suite is the"
                    + " lanes-bench module; from a source checkout run ./lanes bench");
            err.flush();
            return line.getCommandSpec().exitCodeOnInvalidInput();
        }
        err.println(name + ": " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Usage: " + synopsis(line.getCommandSpec()) + " (" + name + " --help lists"
                + " everything)");
        err.flush();
        return line.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** {@code lanes bench [OPTIONS]}, {@code lanes inspect [OPTIONS] DB_FILE}: one short line. */
    static String synopsis(CommandSpec spec) {
        StringBuilder line = new StringBuilder(spec.qualifiedName());
        if (!spec.options().isEmpty()) {
            line.append(" [OPTIONS]");
        }
        spec.positionalParameters().forEach(p -> line.append(' ').append(p.paramLabel()));
        if (!spec.subcommands().isEmpty()) {
            line.append(" COMMAND");
        }
        return line.toString();
    }
}
