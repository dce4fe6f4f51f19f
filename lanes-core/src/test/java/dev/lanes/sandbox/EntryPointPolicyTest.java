package dev.lanes.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.Statement;
import dev.lanes.Transaction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.cluster.SqliteClusterEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every entry point × every statement rule × both backends (a local file, and a cluster database
 * on an engine whose sessions are local SQLite connections; the real dqlite cluster runs the
 * drift rows in lanes-dqlite): each rule is refused with its one message everywhere a statement
 * can run, typed and before anything runs, or the text runs whole. The first rows are the drifts
 * that were found: two statements in {@code tx.execute}, {@code db.query} or a data-source
 * transaction ran only the first; {@code ATTACH} said three different things; {@code
 * db.execute("PRAGMA foreign_keys")} failed with the driver's "Query returns results";
 * {@code executeScript} ran the statements after a NUL. A body's {@code executeUpdate(String)},
 * which runs a whole text on a local file, is local only: a cluster runs one statement per
 * request and returns no rows from a write.
 */
@Timeout(120)
class EntryPointPolicyTest {
    /** Where a statement can run, and what each place expects of a text. */
    enum Entry {
        DB_EXECUTE(Kind.WRITE_ONE, true),
        DB_EXECUTE_BATCH(Kind.WRITE_ONE, true),
        DB_EXECUTE_SCRIPT(Kind.SCRIPT, true),
        WRITE_BODY_EXECUTE(Kind.BODY_ONE, true, true),
        WRITE_BODY_EXECUTE_UPDATE(Kind.WRITE_WHOLE, false, true),
        WRITE_BODY_PREPARE(Kind.BODY_ONE, true, true),
        MAINTENANCE_BODY(Kind.BODY_ONE, true, true),
        TX_EXECUTE(Kind.WRITE_ONE, true),
        TX_QUERY(Kind.TX_QUERY, true),
        DATA_SOURCE_AUTO_COMMIT(Kind.WRITE_ROWS, true),
        DATA_SOURCE_PREPARED_AUTO_COMMIT(Kind.WRITE_ROWS, true),
        DATA_SOURCE_TRANSACTION(Kind.WRITE_ROWS, true),
        DATA_SOURCE_BATCH(Kind.WRITE_ONE, true),
        DB_QUERY(Kind.READ_ONE, true),
        DB_STREAM(Kind.READ_ONE, true),
        READ_BODY_EXECUTE(Kind.READ_ONE, true, true),
        DATA_SOURCE_READ_ONLY(Kind.READ_ONE, true);

        final Kind kind;
        final boolean onCluster;
        /** Whether the SQL runs inside a body, whose refusal ends its transaction. */
        final boolean body;

        Entry(Kind kind, boolean onCluster) {
            this(kind, onCluster, false);
        }

        Entry(Kind kind, boolean onCluster, boolean body) {
            this.kind = kind;
            this.onCluster = onCluster;
            this.body = body;
        }
    }

    /** What a place runs: one statement (reading its rows or not), the whole text, or a read. */
    enum Kind {
        WRITE_ONE, WRITE_ROWS, WRITE_WHOLE, BODY_ONE, READ_ONE,
        /** {@code db.executeScript}: the whole text, statement by statement. */
        SCRIPT,
        /** {@code tx.query}: a writer's rules, given the reader's text (it reads rows). */
        TX_QUERY;

        boolean readsText() {
            return this == READ_ONE || this == TX_QUERY;
        }
    }

    /** What a case must end in. */
    record Expect(Class<? extends LanesException> type, String fragment) {
        static final Expect RUNS = new Expect(null, null);

        static Expect refused(String fragment) {
            return new Expect(InvalidRequestException.class, fragment);
        }

        static Expect readOnly() {
            return new Expect(ReadOnlyViolationException.class, "is refused on a reader");
        }
    }

    /** One rule: the text a writer and a reader get, and what each kind of place answers. */
    record Rule(String name, String write, String read, Expect writeOne, Expect writeRows,
            Expect writeWhole, Expect bodyOne, Expect readOne) {
        Expect expected(Kind kind) {
            switch (kind) {
                case WRITE_ONE: return writeOne;
                case WRITE_ROWS:
                case TX_QUERY:
                    return writeRows;
                case WRITE_WHOLE: return writeWhole;
                case SCRIPT:
                    // statement by statement: a script of none runs nothing
                    return name.equals("no statement") ? Expect.RUNS : writeWhole;
                case BODY_ONE: return bodyOne;
                default: return readOne;
            }
        }

        /** A rule every writer refuses with one message, and every reader as a write. */
        static Rule writerRule(String name, String sql, String fragment) {
            Expect r = Expect.refused(fragment);
            return new Rule(name, sql, sql, r, r, r, r, Expect.readOnly());
        }

        /** A rule every place refuses with one message. */
        static Rule everywhere(String name, String write, String read, String fragment) {
            Expect r = Expect.refused(fragment);
            return new Rule(name, write, read, r, r, r, r, r);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final String SEVERAL = "more than one statement";

    static final List<Rule> RULES = List.of(
            // the drifts: cut texts, three ATTACH messages, the driver's "Query returns results"
            new Rule("several statements",
                    "INSERT INTO t(v) VALUES ('several 1'); INSERT INTO t(v) VALUES ('several 2')",
                    "SELECT 1 AS a; SELECT 2 AS b", Expect.refused(SEVERAL),
                    Expect.refused(SEVERAL), Expect.RUNS, Expect.refused(SEVERAL),
                    Expect.refused(SEVERAL)),
            Rule.writerRule("ATTACH", "ATTACH DATABASE ':memory:' AS other", "ATTACH is refused"),
            new Rule("a statement that returns rows", "PRAGMA foreign_keys", "PRAGMA foreign_keys",
                    Expect.refused("returns rows, which"), Expect.RUNS, Expect.RUNS, Expect.RUNS,
                    Expect.RUNS),
            Rule.everywhere("a NUL", "INSERT INTO t(v) VALUES ('nul 1');\0"
                    + "INSERT INTO t(v) VALUES ('nul 2')", "SELECT 1;\0SELECT 2", "a NUL"),
            Rule.everywhere("a lone surrogate", "INSERT INTO t(v) VALUES ('lone \uD800')",
                    "SELECT 'lone \uDC00'", "lone UTF-16 surrogate"),
            // the rest of the rules
            Rule.writerRule("transaction control", "COMMIT", "transaction control (COMMIT)"),
            Rule.writerRule("an owned pragma", "PRAGMA main.busy_timeout = 0",
                    "is refused on the writer"),
            Rule.writerRule("a process-wide pragma", "pragma SOFT_HEAP_LIMIT(1000000)",
                    "process-wide"),
            Rule.writerRule("a connection setting in SQL", "PRAGMA \"cache_size\" = 77",
                    "DatabaseOptions"),
            Rule.everywhere("an unknown pragma", "PRAGMA no_such_pragma = 1",
                    "PRAGMA no_such_pragma", "pragma table does not place"),
            Rule.everywhere("the driver's command", "backup to x.db", "backup to x.db",
                    "the driver's backup command"),
            Rule.writerRule("VACUUM INTO", "VACUUM INTO 'copy.db'", "VACUUM INTO is refused"),
            Rule.everywhere("no statement", " ; -- nothing", ";;", "without a statement"),
            new Rule("a plain statement", "INSERT INTO t(v) VALUES ('plain')",
                    "SELECT count(*) FROM t", Expect.RUNS, Expect.RUNS, Expect.RUNS, Expect.RUNS,
                    Expect.RUNS));

    enum Backend { LOCAL, CLUSTER }

    static Path dir;
    static Lanes lanes;
    static Database local;
    static Database cluster;

    @BeforeAll
    static void open() throws Exception {
        dir = Files.createTempDirectory("entry-policy");
        lanes = Sandbox.runtime();
        local = Sandbox.openWithTable(lanes, dir, "local.db", DatabaseOptions.DEFAULTS);
        Path nodes = Files.createDirectories(dir.resolve("cluster"));
        cluster = lanes.openCluster(new SqliteClusterEngine(nodes), "matrix",
                DatabaseOptions.DEFAULTS);
        cluster.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)");
    }

    @AfterAll
    static void close() {
        if (lanes != null) {
            lanes.close();
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Rule rule : RULES) {
            for (Backend backend : Backend.values()) {
                for (Entry entry : Entry.values()) {
                    if (backend == Backend.LOCAL || entry.onCluster) {
                        all.add(Arguments.of(rule, backend, entry));
                    }
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}: {1} {2}")
    @MethodSource("cases")
    void eachRuleHasOneAnswerAtEveryEntryPointOnBothBackends(Rule rule, Backend backend,
            Entry entry) throws Exception {
        Database db = backend == Backend.LOCAL ? local : cluster;
        // a cluster runs a script's statements as writes, which return no rows there
        Expect expect = backend == Backend.CLUSTER && entry.kind == Kind.SCRIPT
                && rule.name.equals("a statement that returns rows") ? rule.writeOne
                : rule.expected(entry.kind);
        String sql = entry.kind.readsText() ? rule.read : rule.write;
        long before = rows(db);
        Throwable t = catchThrowable(() -> run(db, entry, sql));
        if (expect.type == null) {
            assertThat(t).as("%s at %s", rule, entry).isNull();
            if (rule.name.equals("several statements") && !entry.kind.readsText()) {
                assertThat(rows(db) - before).as("the whole text ran").isEqualTo(2);
            }
        } else {
            LanesException e = Sandbox.lanesFailure(t);
            assertThat(e).as("%s at %s: %s", rule, entry, t).isInstanceOf(expect.type);
            assertThat(e.getMessage()).as("%s at %s", rule, entry).contains(expect.fragment)
                    .contains(db == local ? "local.db" : "matrix");
            if (e instanceof InvalidRequestException) {
                // a body's transaction ends rolled back when its statement was refused
                assertThat(e.outcome()).isIn(WriteOutcome.NOT_STARTED, entry.body
                        ? WriteOutcome.ROLLED_BACK : WriteOutcome.NOT_STARTED);
                assertThat(e.getMessage()).contains("nothing ran");
            }
            assertThat(rows(db)).as("nothing ran: %s at %s", rule, entry).isEqualTo(before);
        }
        assertThat(db.isTransactionOpen()).isFalse();
        Sandbox.assertHealthy(db);
    }

    /**
     * Regression: a batch in a read-only data-source transaction failed with a bare {@code
     * NullPointerException}. A batch may neither write there nor return rows: refused, typed.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(Backend.class)
    void aBatchInAReadOnlyDataSourceTransactionIsRefusedTyped(Backend backend) throws Exception {
        Database db = backend == Backend.LOCAL ? local : cluster;
        long before = rows(db);
        for (String sql : List.of("INSERT INTO t(v) VALUES ('batch')", "SELECT 1")) {
            try (Connection c = db.dataSource().getConnection()) {
                c.setReadOnly(true);
                c.setAutoCommit(false);
                java.sql.Statement s = c.createStatement();
                s.addBatch(sql);
                Throwable t = catchThrowable(s::executeBatch);
                assertThat(t).as(sql).isInstanceOf(SQLException.class);
                LanesException e = Sandbox.lanesFailure(t);
                assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
                assertThat(e.getMessage()).contains("statement 0 of the batch");
                c.rollback();
            }
        }
        assertThat(rows(db)).isEqualTo(before);
    }

    private static long rows(Database db) {
        return Sandbox.scalar(db, "SELECT count(*) FROM t");
    }

    private static void run(Database db, Entry entry, String sql) throws Exception {
        switch (entry) {
            case DB_EXECUTE -> db.execute(sql);
            case DB_EXECUTE_BATCH -> db.executeBatch(List.of(Statement.of(sql)));
            case DB_EXECUTE_SCRIPT -> db.executeScript(sql);
            case WRITE_BODY_EXECUTE -> db.write(c -> c.createStatement().execute(sql));
            case WRITE_BODY_EXECUTE_UPDATE -> db.write(c -> c.createStatement()
                    .executeUpdate(sql));
            case WRITE_BODY_PREPARE -> db.write(c -> c.prepareStatement(sql).execute());
            case MAINTENANCE_BODY -> db.maintenance(c -> c.createStatement().execute(sql));
            case TX_EXECUTE -> {
                try (Transaction tx = db.begin()) {
                    tx.execute(sql);
                    tx.commit();
                }
            }
            case TX_QUERY -> {
                try (Transaction tx = db.begin()) {
                    tx.query(sql);
                    tx.commit();
                }
            }
            case DB_QUERY -> db.query(sql);
            case DB_STREAM -> db.stream(sql, new Object[0], row -> { });
            case READ_BODY_EXECUTE -> db.read(c -> c.createStatement().execute(sql));
            default -> dataSource(db, entry, sql);
        }
    }

    private static void dataSource(Database db, Entry entry, String sql) throws SQLException {
        try (Connection c = db.dataSource().getConnection()) {
            switch (entry) {
                case DATA_SOURCE_AUTO_COMMIT -> c.createStatement().execute(sql);
                case DATA_SOURCE_PREPARED_AUTO_COMMIT -> c.prepareStatement(sql).execute();
                case DATA_SOURCE_TRANSACTION -> {
                    c.setAutoCommit(false);
                    try {
                        c.createStatement().execute(sql);
                        c.commit();
                    } finally {
                        if (!c.getAutoCommit()) {
                            c.rollback();
                        }
                    }
                }
                case DATA_SOURCE_BATCH -> {
                    java.sql.Statement s = c.createStatement();
                    s.addBatch(sql);
                    s.executeBatch();
                }
                case DATA_SOURCE_READ_ONLY -> {
                    c.setReadOnly(true);
                    c.setAutoCommit(false);
                    try (ResultSet rs = c.createStatement().executeQuery(sql)) {
                        rs.next();
                    } finally {
                        c.rollback();
                    }
                }
                default -> throw new IllegalArgumentException(entry.name());
            }
        }
    }
}
