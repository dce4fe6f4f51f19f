package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import dev.lanes.cli.SqliteFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ManyDatabasesTest {
    private static final ScenarioBench.Sink QUIET = new ScenarioBench.Sink() {
        @Override
        public void status(String line) {}

        @Override
        public void runStarting(String label) {}

        @Override
        public void compare(ScenarioBench.Side lanes, ScenarioBench.Side baseline) {}

        @Override
        public void soakStarting(SoakResult.Setup setup) {}

        @Override
        public void sampled(SoakSample sample) {}

        @Override
        public void soaked(SoakResult result) {}
    };

    @TempDir
    Path dir;

    private final DatabaseOptions options = DatabaseOptions.builder()
            .synchronous(Synchronous.FULL).build();

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aCopyOfTheTemplateHoldsWhatCreatingTheDatabaseInLanesMade() throws Exception {
        Path created = Files.createDirectories(dir.resolve("created"));
        Path copied = Files.createDirectories(dir.resolve("copied"));
        try (Lanes lanes = Lanes.builder().name("created").build()) {
            ManyDatabases.create(QUIET, "created", lanes, created, 1, i -> options);
        }
        try (Lanes lanes = Lanes.builder().name("copied").build()) {
            List<Database> copies = ManyDatabases.copies(QUIET, "copied", lanes,
                    dir.resolve("work"), copied, 3, 2, options);
            assertThat(copies).hasSize(3);
            // the runtime sees each copy's rows, also of the one not connected in set-up, and
            // writes to one land in that one only
            for (Database db : copies) {
                assertThat(db.query("SELECT count(*) AS n FROM kv").get(0).getLong("n"))
                        .isEqualTo(ManyDatabases.KV_ROWS);
            }
            copies.get(1).execute("INSERT INTO events(payload) VALUES ('x')");
            assertThat(copies.get(1).query("SELECT count(*) AS n FROM events").get(0)
                    .getLong("n")).isEqualTo(1);
            assertThat(copies.get(0).query("SELECT count(*) AS n FROM events").get(0)
                    .getLong("n")).isZero();
        }
        assertThat(Files.exists(dir.resolve("work/template.db"))).as("template deleted").isFalse();

        Snapshot original = Snapshot.of(ManyDatabases.file(created, 0));
        assertThat(original.journalMode).isEqualTo("wal");
        assertThat(original.kv).hasSize(ManyDatabases.KV_ROWS);
        assertThat(original.tables).anyMatch(t -> t.contains("_lanes_identity"));
        for (int i : new int[] {0, 2}) {
            Snapshot copy = Snapshot.of(ManyDatabases.file(copied, i));
            assertThat(copy.journalMode).isEqualTo(original.journalMode);
            assertThat(copy.pageSize).isEqualTo(original.pageSize);
            assertThat(copy.userVersion).isEqualTo(original.userVersion);
            assertThat(copy.applicationId).isEqualTo(original.applicationId);
            assertThat(copy.tables).containsExactlyInAnyOrderElementsOf(original.tables);
            assertThat(copy.kv).containsExactlyElementsOf(original.kv);
            assertThat(copy.events).isEqualTo(original.events).isZero();
            assertThat(copy.identities).isEqualTo(original.identities).isEqualTo(1);
        }
        // the baseline reads the files as they are, on plain connections of its own settings
        try (Connection c = BaselineConnections.dataSource(ManyDatabases.file(copied, 2),
                        Synchronous.FULL).getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT v FROM kv WHERE id = 7")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("value-7");
        }
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void theClosedTemplateLeavesNothingBesideItThatACopyWouldMiss() throws Exception {
        Path template = ManyDatabases.template(dir.resolve("work"), options);
        try (Stream<Path> files = Files.list(template.getParent())) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .noneMatch(name -> name.startsWith("template.db-"));
        }
        assertThat(Snapshot.of(template).kv).hasSize(ManyDatabases.KV_ROWS);
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void theBaselineStartsWithoutTheEmptyWalFilesLanesKeptButNoFrameIsLost() throws Exception {
        Path tenants = Files.createDirectories(dir.resolve("tenants"));
        // a budget of two connections: the third open evicts the least recently used database
        try (Lanes lanes = Lanes.builder().name("kept").maxOpenConnections(2).build()) {
            List<Database> dbs = ManyDatabases.copies(QUIET, "kept", lanes, dir.resolve("work"),
                    tenants, 3, 0, options);
            dbs.get(0).execute("INSERT INTO events(payload) VALUES ('kept')");
            assertThat(dbs.get(0).query("SELECT count(*) AS n FROM events").get(0).getLong("n"))
                    .isEqualTo(1);
            // database 0 holds its writer and a reader; this read passes the cap and evicts it
            // with its reader open, so its -wal (emptied into the file) and -shm stay
            assertThat(dbs.get(1).query("SELECT v FROM kv WHERE id = 3")).hasSize(1);
        }
        Path wal0 = SqliteFiles.beside(ManyDatabases.file(tenants, 0), SqliteFiles.WAL);
        assertThat(wal0).as("kept by the eviction").exists();
        assertThat(Files.size(wal0)).isZero();
        // a -wal that holds frames holds rows the file lacks: it must stay, with its -shm
        Path db2 = ManyDatabases.file(tenants, 2);
        Files.write(SqliteFiles.beside(db2, SqliteFiles.WAL), new byte[] {1, 2, 3});
        Files.write(SqliteFiles.beside(db2, SqliteFiles.SHM), new byte[] {4});
        long emptyBefore;
        try (Stream<Path> files = Files.list(tenants)) {
            emptyBefore = files.filter(f -> f.toString().endsWith(SqliteFiles.WAL))
                    .filter(f -> f.toFile().length() == 0).count();
        }

        int removed = ManyDatabases.removeEmptyWals(tenants, 3);

        assertThat(removed).isEqualTo(emptyBefore).isPositive();
        for (int i : new int[] {0, 1}) {
            Path db = ManyDatabases.file(tenants, i);
            assertThat(SqliteFiles.beside(db, SqliteFiles.WAL)).doesNotExist();
            assertThat(SqliteFiles.beside(db, SqliteFiles.SHM)).doesNotExist();
        }
        assertThat(Files.readAllBytes(SqliteFiles.beside(db2, SqliteFiles.WAL)))
                .containsExactly(1, 2, 3);
        assertThat(SqliteFiles.beside(db2, SqliteFiles.SHM)).exists();
        // nothing committed was lost: the insert reached the file before its WAL was emptied
        Snapshot first = Snapshot.of(ManyDatabases.file(tenants, 0));
        assertThat(first.events).isEqualTo(1);
        assertThat(first.kv).hasSize(ManyDatabases.KV_ROWS);
    }

    /** What a database file holds, read on a plain read-only connection. */
    private static final class Snapshot {
        String journalMode;
        long pageSize;
        long userVersion;
        long applicationId;
        final List<String> tables = new ArrayList<>();
        final List<String> kv = new ArrayList<>();
        long events;
        long identities;

        static Snapshot of(Path file) throws SQLException {
            Snapshot s = new Snapshot();
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement st = c.createStatement()) {
                s.journalMode = text(st, "PRAGMA journal_mode");
                s.pageSize = number(st, "PRAGMA page_size");
                s.userVersion = number(st, "PRAGMA user_version");
                s.applicationId = number(st, "PRAGMA application_id");
                try (ResultSet rs = st.executeQuery(
                        "SELECT type, name, tbl_name, sql FROM sqlite_schema")) {
                    while (rs.next()) {
                        s.tables.add(rs.getString(1) + " " + rs.getString(2) + " "
                                + rs.getString(3) + " " + rs.getString(4));
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT id, v, n FROM kv ORDER BY id")) {
                    while (rs.next()) {
                        s.kv.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getLong(3));
                    }
                }
                s.events = number(st, "SELECT count(*) FROM events");
                s.identities = number(st, "SELECT count(*) FROM _lanes_identity");
            }
            return s;
        }

        private static String text(Statement st, String sql) throws SQLException {
            try (ResultSet rs = st.executeQuery(sql)) {
                rs.next();
                return rs.getString(1);
            }
        }

        private static long number(Statement st, String sql) throws SQLException {
            try (ResultSet rs = st.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
