package dev.lanes.cli.inspect;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
}
