package dev.lanes.internal.sqlite;

import dev.lanes.internal.sql.text.PragmaTable;
import dev.lanes.internal.util.LogNames;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * SQLite's own defences on every connection the runtime opens, behind Lanes' statement policy
 * (the lexer, which refuses first and with a better message). sqlite-jdbc exposes neither {@code
 * sqlite3_db_config} nor {@code sqlite3_set_authorizer}, so Lanes carries a small SQLite loadable
 * extension of its own ({@code src/main/c/lanesguard.c}, built into the jar for Linux when the
 * build machine has gcc). {@link #install} loads it into a connection, with extension loading
 * switched on for that one call, and seals it:
 * <ul>
 *   <li>{@code SQLITE_DBCONFIG_DEFENSIVE}: {@code PRAGMA writable_schema=ON} does nothing, and
 *       {@code sqlite_schema}, shadow tables (an FTS5 table's {@code _data}, ...) and {@code
 *       sqlite_dbpage} cannot be written, {@code journal_mode=OFF} and {@code schema_version=N}
 *       are ignored: no SQL can corrupt the file on purpose;
 *   <li>an authorizer, which SQLite consults for every {@code PRAGMA} as it prepares a statement,
 *       after it has resolved every spelling: it refuses a pragma {@link PragmaTable} does not
 *       know, and the setting of one the table marks {@link PragmaTable.Use#OWNED} or {@link
 *       PragmaTable.Use#PROCESS}, before SQLite applies it ({@code not authorized}, {@code
 *       SQLITE_AUTH}); and any later call of the function that sealed it.
 * </ul>
 * {@code install} runs last in a connection's setup, after Lanes' own pragmas and the user's
 * {@code ConnectionSetup}, so that what the table lets only the setup do has been done.
 *
 * <p>Where the library is not in the jar (another platform, or a build without gcc), {@link
 * #available()} is false, {@code install} does nothing, and the first attempt logs one warning:
 * the lexer's policy is then the only check.
 *
 * <p>The library is copied once per process to a new file in {@code org.sqlite.tmpdir} (else
 * {@code java.io.tmpdir}), as the driver's own library is, readable by this user only, and
 * deleted at exit; one private in-memory connection keeps it loaded for the life of the process. Thread-safe; {@code install} runs on the thread that owns the connection.
 */
public final class SqliteGuard {
    private static final Logger log = LoggerFactory.getLogger(LogNames.LIFECYCLE);

    /** The extension's entry point. */
    static final String ENTRY_POINT = "sqlite3_lanesguard_init";

    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private SqliteGuard() {}

    /** Whether the native guard is available on this platform and build. */
    public static boolean available() {
        return Library.PATH != null;
    }

    /** Why the guard is not available; null when it is. */
    public static String unavailable() {
        return Library.UNAVAILABLE;
    }

    /**
     * Loads the guard into {@code c} and seals it with the pragma table; does nothing (but warn
     * once) where the guard is not {@linkplain #available() available}.
     *
     * @throws SQLException when the guard is available but did not load or seal: the caller
     *     closes the connection and fails the open
     */
    public static void install(SQLiteConnection c) throws SQLException {
        Path library = Library.PATH;
        if (library == null) {
            if (WARNED.compareAndSet(false, true)) {
                log.warn("SQLite's defensive mode and pragma authorizer are off: {}; Lanes' "
                        + "statement policy alone refuses what may not run", Library.UNAVAILABLE);
            }
            return;
        }
        load(c, library);
        try (PreparedStatement s = c.prepareStatement("SELECT lanes_guard_seal(?, ?)")) {
            s.setString(1, Names.KNOWN);
            s.setString(2, Names.REFUSED_SETTINGS);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != 1) {
                    throw new SQLException("Lanes' native guard did not seal");
                }
            }
        }
    }

    /**
     * Loads the guard into {@code c} without sealing it: defensive mode on, the authorizer not
     * yet refusing anything. {@link #install} seals it at once; tests load it alone to show what
     * defensive mode does by itself.
     */
    static void load(SQLiteConnection c, Path library) throws SQLException {
        ConnectionSettings.loadExtension(c, library, ENTRY_POINT, "Lanes' native guard");
    }

    /** The library's file; null when not {@linkplain #available() available}. */
    static Path library() {
        return Library.PATH;
    }

    /** The pragma table as the two lists the extension takes. */
    private static final class Names {
        /** Every pragma the table places. */
        static final String KNOWN;
        /** The pragmas no SQL may set: those Lanes owns and the process-wide ones. */
        static final String REFUSED_SETTINGS;

        static {
            StringJoiner known = new StringJoiner(" ");
            StringJoiner refused = new StringJoiner(" ");
            for (PragmaTable.Entry e : PragmaTable.all()) {
                known.add(e.name());
                if (e.use() == PragmaTable.Use.OWNED || e.use() == PragmaTable.Use.PROCESS) {
                    refused.add(e.name());
                }
            }
            KNOWN = known.toString();
            REFUSED_SETTINGS = refused.toString();
        }
    }

    /** The library, copied out of the jar on first use. */
    private static final class Library {
        static final String UNAVAILABLE;
        static final Path PATH;

        /**
         * A private in-memory connection with the guard loaded, never closed: it keeps the
         * library mapped, so that loading it into another connection costs a reference count,
         * not a fresh {@code dlopen} of the file (measured: several milliseconds per open).
         */
        @SuppressWarnings("unused")
        private static final SQLiteConnection PIN;

        static {
            String[] why = new String[1];
            Path path = extract(why);
            SQLiteConnection pin = null;
            if (path != null) {
                try {
                    pin = (SQLiteConnection) new SQLiteConfig().createConnection(
                            "jdbc:sqlite::memory:");
                    load(pin, path);
                } catch (SQLException | RuntimeException e) {
                    why[0] = "Lanes' native guard does not load (" + e.getMessage() + ")";
                    path = null;
                    close(pin);
                    pin = null;
                }
            }
            PATH = path;
            PIN = pin;
            UNAVAILABLE = why[0];
        }

        private static void close(SQLiteConnection c) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (SQLException ignored) {
                // nothing was loaded into it that needs undoing
            }
        }

        private static Path extract(String[] why) {
            String platform = platform();
            String resource = "lanes-guard/" + platform + "/liblanesguard.so";
            try (InputStream in = SqliteGuard.class.getResourceAsStream(resource)) {
                if (in == null) {
                    why[0] = "Lanes' native guard is not built for " + platform + " (building "
                            + "lanes-core on Linux with gcc and libsqlite3-dev builds it)";
                    return null;
                }
                String dir = System.getProperty("org.sqlite.tmpdir",
                        System.getProperty("java.io.tmpdir"));
                Path file = Files.createTempFile(Paths.get(dir), "lanes-guard-", ".so");
                file.toFile().deleteOnExit();
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                return file;
            } catch (IOException | RuntimeException e) {
                why[0] = "Lanes' native guard could not be copied out of the jar (" + e + ")";
                return null;
            }
        }

        private static String platform() {
            String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
            arch = arch.equals("amd64") ? "x86_64" : arch.equals("arm64") ? "aarch64" : arch;
            return (os.startsWith("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch;
        }
    }
}
