package dev.lanes.cli.inspect;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.lanes.cli.DurationConverter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lanes inspect <db-file>}: prints what a database file holds and whether a Lanes runtime
 * owns it, read-only and without taking the lease, so it runs beside the owner. The facts come
 * from {@link DatabaseInspector}; this class reads the flags and prints them as JSON (default) or
 * as a table ({@code --text}).
 */
@Command(
        name = "inspect",
        mixinStandardHelpOptions = true,
        header = "Shows a database file's size, pages, journal mode, identity, lease and health.",
        description = {
            "Opens the file read-only with plain sqlite-jdbc (no Lanes runtime, no lease), so it"
                    + " works while a Lanes runtime holds the database, and prints its file and"
                    + " WAL sizes, page size and count, freelist, journal mode, the identity UUID"
                    + " of _lanes_identity, whether the lease (a byte of .lanes-lock/<xx>) is held,"
                    + " and PRAGMA quick_check.",
            "With --watch it shows, every --interval until Ctrl-C, what can be read of a live"
                    + " database without SQLite and without disturbing its owner: the WAL's size"
                    + " and age, the frames in the WAL against those checkpointed (from the"
                    + " wal-index header in -shm, read-only), and the lease. On a terminal the"
                    + " view is rewritten in place; otherwise one line per sample (one JSON"
                    + " object per line with --json).",
            "Exit status: 0 when quick_check finds nothing, 1 when it reports problems, 2 when"
                    + " the file cannot be inspected."
        })
public final class InspectCommand implements Callable<Integer> {
    /** Exit status when quick_check reports problems. */
    static final int PROBLEMS = 1;
    /** Exit status when the file could not be inspected at all. */
    static final int UNREADABLE = 2;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DB_FILE", description = "The database file.")
    private Path database;

    @ArgGroup(exclusive = true)
    private Format format = new Format();

    @Option(names = "--watch", description = "Show the WAL, checkpoint progress and lease of a"
            + " live database every --interval, until Ctrl-C.")
    private boolean watch;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s",
            converter = DurationConverter.class,
            description = "How often --watch samples (500ms, 1s, 2m…); default ${DEFAULT-VALUE}.")
    private Duration interval;

    // for tests: stop --watch after this many samples (0: until Ctrl-C)
    @Option(names = "--count", hidden = true, defaultValue = "0")
    private long count;

    /** The output format flags, mutually exclusive. */
    static final class Format {
        @Option(names = "--json", description = "Print JSON (the default).")
        boolean json;

        @Option(names = "--text", description = "Print a table for people.")
        boolean text;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (interval.isZero()) {
            throw new ParameterException(spec.commandLine(), "--interval must be above zero");
        }
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "--count must not be negative");
        }
        if (watch) {
            return watch(out, err);
        }
        Inspection inspection;
        try {
            inspection = DatabaseInspector.inspect(database);
        } catch (NoSuchFileException e) {
            err.println("lanes inspect: no such database file: " + e.getFile());
            err.flush();
            return UNREADABLE;
        } catch (SQLException e) {
            err.println("lanes inspect: cannot read " + database + " as an SQLite database: "
                    + e.getMessage());
            err.flush();
            return UNREADABLE;
        }
        if (format.text) {
            InspectionText.print(inspection, out);
        } else {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(inspection));
            out.flush();
        }
        return inspection.ok() ? 0 : PROBLEMS;
    }

    private int watch(PrintWriter out, PrintWriter err) throws IOException {
        Path file = database.toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
            err.println("lanes inspect: no such database file: " + file);
            err.flush();
            return UNREADABLE;
        }
        Watch.Screen screen;
        if (format.json) {
            screen = Watch.json(out);
        } else if (Watch.onTerminal()) {
            screen = Watch.inPlace(file, out, interval);
        } else {
            screen = Watch.lines(file, out);
        }
        Watch.run(file, interval, count, screen);
        return 0;
    }
}
