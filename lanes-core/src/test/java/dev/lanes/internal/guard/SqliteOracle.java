package dev.lanes.internal.guard;

import dev.lanes.LanesException;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sqlite.SqliteConnections;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * SQLite's own verdict on a text, found by running it on a scratch connection (plain sqlite-jdbc,
 * not the runtime) inside a transaction and a savepoint that are rolled back afterwards, so
 * nothing persists.
 *
 * <p>{@link Mode#READER} runs it under {@code PRAGMA query_only=1}, as a reader does: SQLite
 * refusing it with {@code SQLITE_READONLY} means it tried to write. {@link Mode#WRITER} runs it
 * on a writable connection inside {@code BEGIN IMMEDIATE}, as a body does. In both modes the
 * oracle then looks at what the text did:
 * <ul>
 *   <li>transaction control ran when the transaction ended, the oracle's savepoint is gone or
 *       was rolled back to (a marker row inserted after it vanished), or a savepoint named in
 *       {@link HostileSql#SAVEPOINT_NAMES} exists;
 *   <li>the connection or database changed when any of a set of pragmas, the schema version,
 *       {@code total_changes()}, the attached databases or the temp schema differ.
 * </ul>
 * The text runs the way {@code Statement.executeUpdate(String)} runs it: every statement, in
 * order, up to the first error ({@code sqlite3_exec}). The scratch connection has {@code
 * SQLITE_LIMIT_ATTACHED} = 0 and extension loading off, so no text can write a file.
 *
 * <p>Confined to the test's thread.
 */
public final class SqliteOracle implements AutoCloseable {
    /** The statement shapes of the guards' texts, as a runtime keeps them. */
    private static final Shapes SHAPES = new Shapes();

    /** How the text runs. */
    public enum Mode { READER, WRITER }

    /**
     * What SQLite did with a text.
     *
     * @param code SQLite's primary result code (0 when every statement ran)
     * @param error its message, or null
     * @param transactionControl whether the text controlled the transaction
     * @param changed whether the connection or the database differ afterwards
     * @param difference what differs, for messages; empty when nothing does
     */
    public record Verdict(int code, String error, boolean transactionControl, boolean changed,
            String difference) {
        /** Whether SQLite refused it as a write ({@code SQLITE_READONLY}). */
        public boolean wrote() {
            return code == 8;
        }

        /** Whether it ran all through as a read that changed nothing and left the transaction. */
        public boolean plainRead() {
            return code == 0 && !transactionControl && !changed;
        }

        /** Whether it wrote, changed anything, or controlled the transaction. */
        public boolean notARead() {
            return wrote() || transactionControl || changed;
        }
    }

    /**
     * A text run through a guard.
     *
     * @param refusal what the guard refused it with; null when it let the text run
     * @param verdict what SQLite did: with the guard's refusal, what it did with the text run
     *     directly, as if no guard were there
     */
    public record Guarded(LanesException refusal, Verdict verdict) {}

    /** What the snapshot reads, in one query: pragmas, counters, attachments, schemas. */
    private static final List<String> SNAPSHOT_NAMES = List.of("schema_version", "user_version",
            "application_id", "query_only", "cache_size", "foreign_keys", "recursive_triggers",
            "journal_mode", "temp_store", "automatic_index", "busy_timeout", "synchronous",
            "total_changes", "attached", "temp_objects", "main_objects");
    private static final String SNAPSHOT = snapshotQuery();

    private static String snapshotQuery() {
        StringBuilder b = new StringBuilder("SELECT ");
        for (String name : SNAPSHOT_NAMES.subList(0, 12)) {
            b.append("(SELECT * FROM pragma_").append(name).append("), ");
        }
        return b.append("total_changes(), (SELECT count(*) FROM pragma_database_list WHERE name ")
                .append("NOT IN ('main', 'temp')), (SELECT count(*) FROM temp.sqlite_master), ")
                .append("(SELECT count(*) FROM main.sqlite_master)").toString();
    }

    private final Path dir;
    private final Mode mode;
    private int generation;
    private Path file;
    private Path template;
    private SQLiteConnection c;

    public SqliteOracle(Path dir, Mode mode) throws SQLException {
        this.dir = dir;
        this.mode = mode;
        fresh();
    }

    /** What SQLite does with {@code sql}, with no guard in front of it. */
    public Verdict run(String sql) throws SQLException {
        return runWith(sql, () -> execute(sql));
    }

    /**
     * Runs {@code sql} through a guard of this oracle's mode ({@code executeUpdate}, the path
     * that runs every statement of a text): the guard either refuses it before SQLite sees it,
     * or lets SQLite run it, and the verdict says what SQLite then did.
     */
    public Guarded throughGuard(String sql) throws SQLException {
        LanesException[] refusal = new LanesException[1];
        Verdict v = runWith(sql, () -> {
            ConnectionGuard guard = mode == Mode.READER
                    ? ConnectionGuard.read("fuzz", c, ConnectionGuard.StopCheck.NONE, SHAPES)
                    : ConnectionGuard.write("fuzz", c, true, null, SHAPES);
            try (Statement s = guard.connection().createStatement()) {
                s.executeUpdate(sql);
            } catch (LanesException e) {
                refusal[0] = e;
            } finally {
                guard.end();
            }
        });
        if (refusal[0] != null) {
            return new Guarded(refusal[0], run(sql));
        }
        return new Guarded(null, v);
    }

    /**
     * Whether SQLite compiles {@code statement} (one statement) to transaction control: a
     * program holding an {@code AutoCommit} or {@code Savepoint} instruction, as {@code BEGIN},
     * {@code COMMIT}, {@code ROLLBACK}, {@code SAVEPOINT} and {@code RELEASE} do and nothing
     * else does. Sees what the state-based verdict cannot: a {@code SAVEPOINT} released again.
     *
     * @return null when SQLite cannot compile it
     */
    public Boolean compilesToTransactionControl(String statement) {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN " + statement)) {
            while (rs.next()) {
                String opcode = rs.getString("opcode");
                if (opcode.equals("AutoCommit") || opcode.equals("Savepoint")) {
                    return true;
                }
            }
            return false;
        } catch (SQLException e) {
            return null;
        }
    }

    private interface Work {
        void run() throws SQLException;
    }

    private Verdict runWith(String sql, Work work) throws SQLException {
        exec("ROLLBACK", true);
        exec(mode == Mode.READER ? "BEGIN" : "BEGIN IMMEDIATE", false);
        exec("SAVEPOINT oracle", false);
        exec("INSERT INTO lanes_oracle_marker VALUES (1)", false);
        if (mode == Mode.READER) {
            exec("PRAGMA query_only=1", false);
        }
        List<String> before = snapshot();
        long markers = markers();
        int code = 0;
        String error = null;
        try {
            work.run();
        } catch (SQLException e) {
            code = e.getErrorCode() & 0xFF;
            error = e.getMessage();
        }
        boolean inTransaction = inTransaction();
        List<String> after = snapshot();
        boolean tc = !inTransaction || markers() != markers || savepointsExist();
        boolean changed = !before.equals(after);
        exec("ROLLBACK", true);
        if (tc || changed) {
            fresh(); // whatever the text left behind (a commit, a setting) must not carry over
        } else if (mode == Mode.READER) {
            exec("PRAGMA query_only=0", false);
        }
        return new Verdict(code, error, tc, changed, difference(before, after));
    }

    private static String difference(List<String> before, List<String> after) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < before.size(); i++) {
            if (!before.get(i).equals(after.get(i))) {
                b.append(b.length() == 0 ? "" : ", ").append(before.get(i)).append(" -> ")
                        .append(after.get(i));
            }
        }
        return b.toString();
    }

    private void execute(String sql) throws SQLException {
        c.getDatabase()._exec(sql);
    }

    private boolean inTransaction() throws SQLException {
        try {
            exec("BEGIN", false);
        } catch (SQLException e) {
            if (e.getMessage().contains("within a transaction")) {
                return true;
            }
            throw e;
        }
        exec("COMMIT", false);
        return false;
    }

    /** Whether the oracle's savepoint is gone, or one the texts name exists. */
    private boolean savepointsExist() {
        for (String name : HostileSql.SAVEPOINT_NAMES) {
            if (tryExec("RELEASE " + name)) {
                return true;
            }
        }
        return !tryExec("ROLLBACK TO oracle");
    }

    private long markers() throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM lanes_oracle_marker")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return -1; // the text dropped the marker table (it then rolls back with the rest)
        }
    }

    private List<String> snapshot() throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(SNAPSHOT)) {
            rs.next();
            for (int i = 0; i < SNAPSHOT_NAMES.size(); i++) {
                values.add(SNAPSHOT_NAMES.get(i) + "=" + rs.getObject(i + 1));
            }
        } catch (SQLException e) {
            values.add("error: " + e.getMessage()); // a text that dropped what it reads
        }
        return values;
    }

    private void exec(String sql, boolean ignoreErrors) throws SQLException {
        try {
            c.getDatabase()._exec(sql);
        } catch (SQLException e) {
            if (!ignoreErrors) {
                throw e;
            }
        }
    }

    private boolean tryExec(String sql) {
        try {
            c.getDatabase()._exec(sql);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** A new scratch database with the schema the generated texts name: a copy of the template. */
    private void fresh() throws SQLException {
        close();
        if (template == null) {
            template = dir.resolve("oracle-" + mode + "-template.db");
            try (SQLiteConnection t = open(template)) {
                t.getDatabase()._exec("PRAGMA journal_mode=DELETE;"
                        + "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);"
                        + "CREATE TABLE u(a);"
                        + "CREATE INDEX t_v ON t(v);"
                        + "CREATE VIEW w AS SELECT * FROM t;"
                        + "CREATE VIRTUAL TABLE f USING fts5(body);"
                        + "CREATE TABLE lanes_oracle_marker(x);"
                        + "INSERT INTO t(v) VALUES ('one'), ('two');"
                        + "INSERT INTO u VALUES (1);"
                        + "INSERT INTO f(body) VALUES ('x y');");
            }
        }
        file = dir.resolve("oracle-" + mode + "-" + (generation++) + ".db");
        try {
            Files.copy(template, file);
        } catch (java.io.IOException e) {
            throw new SQLException("cannot copy the scratch template to " + file, e);
        }
        c = open(file);
        c.getDatabase()._exec("PRAGMA journal_mode=WAL"); // as the runtime's databases
        c.getConnectionConfig().setAutoCommit(false); // manual mode, as the runtime's connections
    }

    private static SQLiteConnection open(Path path) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setSynchronous(SQLiteConfig.SynchronousMode.OFF); // scratch: nothing to keep
        return SqliteConnections.open(config, path, SqliteConnections.Limits.LOCKED_DOWN);
    }

    @Override
    public void close() throws SQLException {
        if (c != null) {
            c.close();
            c = null;
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                try {
                    Files.deleteIfExists(Path.of(file + suffix));
                } catch (java.io.IOException e) {
                    throw new SQLException("cannot delete the scratch database " + file, e);
                }
            }
        }
    }
}
