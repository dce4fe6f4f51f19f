package dev.lanes.internal.sqlite;

import dev.lanes.ConnectionSetup.AggregateDefinition;
import dev.lanes.ConnectionSetup.CollationDefinition;
import dev.lanes.ConnectionSetup.FunctionDefinition;
import dev.lanes.ConnectionSetup.PragmaSetting;
import dev.lanes.ConnectionSetup;
import dev.lanes.DatabaseOptions;
import dev.lanes.SqlConsumer;
import dev.lanes.internal.util.LogNames;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.Collation;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteConnectionConfig;

/**
 * Applies a database's {@link ConnectionSetup} to each new connection: the one step every open
 * site runs (the writer's connector, the reader set, the checkpointer, a backup), after Lanes'
 * own set-up, so that a connection reopened after an eviction or an idle release is set up
 * exactly as the first one was. In order: extensions, functions, aggregates, collations, pragmas,
 * {@code onConnect}, and last {@linkplain SqliteGuard SQLite's own defences}, sealed with the
 * pragma table, which from then on refuse what only the setup may do.
 *
 * <p>Every failure is an {@link SQLException} naming what failed and on which {@link Role}, with
 * the cause attached; the caller closes the connection and reports the open as failed its own
 * way (the writer: the database dies; a reader: that read fails).
 *
 * <p><b>Functions</b> are registered through a {@link FunctionTrampoline}, one per connection,
 * which names the function in its errors and lets one instance serve every connection.
 *
 * <p>Immutable and stateless: {@link #apply} runs on the thread that opened the connection and
 * owns it.
 */
public final class ConnectionSettings {
    private static final Logger log = LoggerFactory.getLogger(LogNames.LIFECYCLE);

    /** Nothing to set up. */
    public static final ConnectionSettings NONE = new ConnectionSettings(ConnectionSetup.NONE);

    /** Which connection is being set up, for messages. */
    public enum Role {
        WRITER("the writer connection"),
        READER("a reader connection"),
        CHECKPOINTER("the checkpointer's connection"),
        BACKUP("a backup's connection");

        private final String description;

        Role(String description) {
            this.description = description;
        }

        @Override
        public String toString() {
            return description;
        }
    }

    /** Pragmas whose plain form does work rather than report a setting: never read back. */
    private static final Set<String> ACTIONS = Set.of("optimize", "incremental_vacuum",
            "shrink_memory", "integrity_check", "quick_check", "foreign_key_check",
            "wal_checkpoint");
    /** SQLite's {@code SQLITE_INNOCUOUS} function flag, which the driver does not name. */
    static final int SQLITE_INNOCUOUS = 0x200000;
    private static final String IN_TRANSACTION = "cannot start a transaction within a transaction";

    private final ConnectionSetup setup;

    private ConnectionSettings(ConnectionSetup setup) {
        this.setup = setup;
    }

    public static ConnectionSettings of(DatabaseOptions options) {
        ConnectionSetup s = options.connectionSetup();
        return s.isEmpty() ? NONE : new ConnectionSettings(s);
    }

    /** Applies everything, in order, to a new connection of the database, then seals it. */
    public void apply(SQLiteConnection c, Role role) throws SQLException {
        if (!setup.isEmpty()) {
            applyDefinitions(c, role);
            for (PragmaSetting p : setup.pragmas()) {
                pragma(c, p, role);
            }
            if (setup.onConnect().isPresent()) {
                onConnect(c, setup.onConnect().get(), role);
            }
        }
        try {
            SqliteGuard.install(c);
        } catch (SQLException e) {
            throw new SQLException("SQLite's defences could not be set on " + role + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Applies only what SQL may need to read a database's schema (extensions, functions,
     * aggregates, collations): for a backup's copy, which is not a connection of the database.
     */
    public void applyDefinitions(SQLiteConnection c, Role role) throws SQLException {
        for (Path library : setup.extensions()) {
            loadExtension(c, library, null, "extension " + library + " on " + role);
        }
        for (FunctionDefinition f : setup.functions()) {
            boolean shared = f.instance() != null;
            Function fn = shared ? f.instance() : instance("function " + f.name(), f.factory(),
                    role);
            FunctionTrampoline.register(c, f.name(), f.nArgs(), schemaFlags(f.flags()), fn,
                    shared);
        }
        for (AggregateDefinition a : setup.aggregates()) {
            Function.Aggregate fn = instance("aggregate " + a.name(), a.factory(), role);
            Function.create(c, a.name(), fn, a.nArgs(), SQLITE_INNOCUOUS);
        }
        for (CollationDefinition order : setup.collations()) {
            Collation.create(c, order.name(), new SafeCollation(c, order));
        }
    }

    /**
     * The flags a function is registered with: a deterministic one is also {@code
     * SQLITE_INNOCUOUS}, so that it runs from the schema (an index, a {@code CHECK}, a generated
     * column, a view or trigger) although every connection keeps {@code trusted_schema} off;
     * another runs only when SQL calls it directly.
     */
    static int schemaFlags(int flags) {
        return (flags & Function.FLAG_DETERMINISTIC) != 0 ? flags | SQLITE_INNOCUOUS : flags;
    }

    private static <T> T instance(String what, Supplier<? extends T> factory, Role role)
            throws SQLException {
        T fn;
        try {
            fn = factory.get();
        } catch (RuntimeException | Error e) {
            throw new SQLException("the factory of " + what + " threw on " + role + ": " + e, e);
        }
        if (fn == null) {
            throw new SQLException("the factory of " + what + " returned null on " + role);
        }
        return fn;
    }

    // ------------------------------------------------------------------ extensions

    /**
     * Loads one extension ({@code entryPoint} null: SQLite's default for the file's name) with
     * loading switched on for this call alone ({@code sqlite3_enable_load_extension}, which
     * governs the C API and SQL's {@code load_extension()} together); a connection whose loading
     * cannot be switched off again is not used. {@code what} names it in messages.
     */
    static void loadExtension(SQLiteConnection c, Path library, String entryPoint, String what)
            throws SQLException {
        if (DriverInternals.enableLoadExtension(c, true) != 0) {
            throw new SQLException("cannot switch extension loading on to load " + what);
        }
        String sql = entryPoint == null ? "SELECT load_extension(?)"
                : "SELECT load_extension(?, ?)";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, library.toString());
            if (entryPoint != null) {
                s.setString(2, entryPoint);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
            }
        } catch (SQLException e) {
            throw new SQLException(what + " did not load: " + e.getMessage(), e);
        } finally {
            if (DriverInternals.enableLoadExtension(c, false) != 0) {
                throw new SQLException("cannot switch extension loading off again after "
                        + what + "; the connection is not used");
            }
        }
    }

    // ------------------------------------------------------------------ pragmas

    private static void pragma(SQLiteConnection c, PragmaSetting p, Role role)
            throws SQLException {
        String name = p.name().toLowerCase(Locale.ROOT);
        String sql = "PRAGMA " + name + (p.value() == null ? "" : " = " + literal(p.value()));
        try (Statement s = c.createStatement()) {
            if (!known(c, name)) {
                throw new SQLException("SQLite knows no pragma " + p.name() + " (it ignores "
                        + "unknown pragmas silently, so Lanes refuses it)");
            }
            String reported = firstValue(s, sql);
            if (p.value() == null || ACTIONS.contains(name)) {
                return;
            }
            String now = reported != null ? reported : firstValue(s, "PRAGMA " + name);
            if (now != null && contradicts(p.value(), now)) {
                throw new SQLException("SQLite kept " + name + " at " + now + ", not the "
                        + literal(p.value()) + " asked for (it ignores a value it refuses)");
            }
        } catch (SQLException e) {
            throw new SQLException("'" + sql + "' failed on " + role + ": " + e.getMessage(), e);
        }
    }

    /** A value as SQL: an integer in decimal, text as a string literal with quotes doubled. */
    static String literal(Object value) {
        if (value instanceof Long) {
            return value.toString();
        }
        return "'" + value.toString().replace("'", "''") + "'";
    }

    private static boolean known(SQLiteConnection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT 1 FROM pragma_pragma_list WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The first column of the first row {@code sql} returns; null when it returns none. */
    private static String firstValue(Statement s, String sql) throws SQLException {
        if (!s.execute(sql)) {
            return null;
        }
        try (ResultSet rs = s.getResultSet()) {
            return rs.next() && rs.getMetaData().getColumnCount() == 1 ? rs.getString(1) : null;
        }
    }

    /**
     * Whether what SQLite reports contradicts the value set: numbers compare as numbers, text
     * ignoring case, and on/off words as 1 and 0; a word SQLite reports as a number (say {@code
     * temp_store = MEMORY}, which reads 2) cannot be judged and passes.
     */
    private static boolean contradicts(Object asked, String now) {
        Long number = asked instanceof Long ? (Long) asked : number((String) asked);
        if (number != null) {
            return !number.equals(number(now));
        }
        String text = ((String) asked).trim().toLowerCase(Locale.ROOT);
        switch (text) {
            case "on": case "true": case "yes":
                return !"1".equals(now);
            case "off": case "false": case "no":
                return !"0".equals(now);
            default:
                return number(now) == null && !text.equalsIgnoreCase(now);
        }
    }

    private static Long number(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ onConnect

    /**
     * Runs the hook on the connection in auto-commit, as a plain JDBC connection is, then checks
     * that it left it so: open, in auto-commit, outside any transaction (the deferred-{@code
     * BEGIN} probe); the runtime's manual mode is restored after.
     */
    private static void onConnect(SQLiteConnection c, SqlConsumer<Connection> hook, Role role)
            throws SQLException {
        SQLiteConnectionConfig config = c.getConnectionConfig();
        boolean manual = !config.isAutoCommit();
        config.setAutoCommit(true); // the flag only: the driver issues nothing
        try {
            hook.accept(c);
        } catch (Exception | Error e) {
            throw new SQLException("onConnect failed on " + role + ": " + e, e);
        }
        if (c.isClosed()) {
            throw new SQLException("onConnect closed " + role + "; it must leave it open");
        }
        if (!config.isAutoCommit()) {
            throw new SQLException("onConnect left " + role + " out of auto-commit "
                    + "(setAutoCommit(false) began a transaction); it must not start one");
        }
        try (Statement s = c.createStatement()) {
            try {
                s.execute("BEGIN");
            } catch (SQLException e) {
                if (e.getMessage() != null && e.getMessage().contains(IN_TRANSACTION)) {
                    throw new SQLException("onConnect left a transaction open on " + role
                            + "; it must not start one", e);
                }
                throw e;
            }
            s.execute("COMMIT");
        }
        config.setAutoCommit(!manual);
    }

    // ------------------------------------------------------------------ callbacks

    /**
     * A user comparator as a collation. SQLite cannot take an error from a collation, and a Java
     * exception left pending in the driver's native callback is undefined behaviour, so a throw
     * stops the statement instead ({@code sqlite3_interrupt} on its own connection, from the
     * thread stepping it) and is logged with the collation's name; the order is never guessed.
     */
    private static final class SafeCollation extends Collation {
        private final SQLiteConnection connection;
        private final CollationDefinition order;

        SafeCollation(SQLiteConnection connection, CollationDefinition order) {
            this.connection = connection;
            this.order = order;
        }

        @Override
        protected int xCompare(String a, String b) {
            try {
                return order.order().compare(a, b);
            } catch (RuntimeException | Error e) {
                log.warn("collation {} threw; the statement using it is interrupted",
                        order.name(), e);
                try {
                    DriverInternals.interrupt(connection);
                } catch (SQLException closed) {
                    // nothing runs on a closed connection
                }
                return 0;
            }
        }
    }
}
