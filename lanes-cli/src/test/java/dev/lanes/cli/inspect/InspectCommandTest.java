package dev.lanes.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.Database;
import dev.lanes.DatabaseFiles;
import dev.lanes.Lanes;
import dev.lanes.LeaseStatus;
import dev.lanes.SqliteInfo;
import dev.lanes.cli.LanesCommand;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

// a guard against a hung child process, not a speed assertion
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class InspectCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void inspectsADatabaseThatALanesRuntimeOfThisJvmHoldsAndLeavesItsLeaseHeld() throws Exception {
        Path file = dir.resolve("app.db");
        try (Lanes lanes = Lanes.builder().name("owner").maxThreads(2).build()) {
            Database db = lanes.open(file);
            db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            db.execute("INSERT INTO t(v) VALUES ('x')");

            JsonNode inspection = inspectJson(file);

            assertThat(inspection.get("lease").get("held").asBoolean()).isTrue();
            if (inspection.get("lease").get("probe").asText().equals("proc-locks")) {
                assertThat(inspection.get("lease").get("holderPid").asLong())
                        .isEqualTo(ProcessHandle.current().pid());
            }
            assertThat(inspection.get("journalMode").asText()).isEqualTo("wal");
            assertThat(inspection.get("identity").asText()).matches("[0-9a-f-]{36}");
            assertThat(inspection.get("pageCount").asLong()).isPositive();
            assertThat(inspection.get("pageSize").asLong()).isPositive();
            assertThat(inspection.get("walBytes").asLong()).isPositive();
            assertThat(inspection.get("quickCheck").get(0).asText()).isEqualTo("ok");
            assertThat(inspection.get("ok").asBoolean()).isTrue();
            SqliteInfo sqlite = lanes.diagnostics().sqlite();
            assertThat(inspection.get("sqliteVersion").asText()).isEqualTo(sqlite.sqliteVersion());
            assertThat(inspection.get("sqliteJdbcVersion").asText())
                    .isEqualTo(sqlite.driverVersion());
            assertThat(inspection.get("walResetMitigation").asBoolean())
                    .isEqualTo(sqlite.walResetMitigation());
            // the probe dropped nothing: another process still finds the lease held, and the
            // owner goes on writing
            LeaseStatus slot = DatabaseFiles.lease(file);
            assertThat(runChild(LockProbeChild.class, slot.lockFile(),
                    Long.toString(slot.lockOffset()))).isEqualTo("HELD");
            db.execute("INSERT INTO t(v) VALUES ('y')");
            assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(2);
        }

        JsonNode afterClose = inspectJson(file);
        assertThat(afterClose.get("lease").get("held").asBoolean()).isFalse();
        assertThat(afterClose.get("lease").get("lockFileExists").asBoolean()).isTrue();
    }

    @Test
    void inspectsADatabaseThatAnotherProcessHolds() throws Exception {
        Path file = dir.resolve("other.db");
        Process owner = startJava(LanesHolderChild.class, file.toString());
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8))) {
            // the child says READY once it holds the database; readLine blocks until then
            assertThat(lines.readLine()).isEqualTo("READY");

            JsonNode inspection = inspectJson(file);

            assertThat(inspection.get("lease").get("held").asBoolean()).isTrue();
            if (inspection.get("lease").get("probe").asText().equals("proc-locks")) {
                assertThat(inspection.get("lease").get("holderPid").asLong()).isEqualTo(owner.pid());
            }
            assertThat(inspection.get("identity").isTextual()).isTrue();
            assertThat(inspection.get("ok").asBoolean()).isTrue();
        } finally {
            try (OutputStream stdin = owner.getOutputStream()) {
                stdin.write("stop\n".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(owner.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(owner.exitValue()).isZero();
        assertThat(inspectJson(file).get("lease").get("held").asBoolean()).isFalse();
    }

    @Test
    void aPlainSqliteFileHasNoIdentityNoLeaseAndIsLeftAsItWas() throws Exception {
        Path file = dir.resolve("plain.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t(v TEXT)");
            s.execute("INSERT INTO t VALUES ('a')");
        }
        long size = Files.size(file);
        FileTime modified = Files.getLastModifiedTime(file);

        JsonNode inspection = inspectJson(file);

        assertThat(inspection.get("identity").isNull()).isTrue();
        assertThat(inspection.get("journalMode").asText()).isEqualTo("delete");
        assertThat(inspection.get("walBytes").asLong()).isZero();
        assertThat(inspection.get("fileBytes").asLong()).isEqualTo(size);
        assertThat(inspection.get("lease").get("lockFileExists").asBoolean()).isFalse();
        assertThat(inspection.get("lease").get("held").asBoolean()).isFalse();
        // read-only: nothing written, no lock file or journal left behind
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(modified);
        assertThat(Files.exists(Path.of(DatabaseFiles.lease(file.toRealPath()).lockFile()))).isFalse();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("plain.db");
        }
    }

    @Test
    void textPrintsATableForPeople() throws Exception {
        Path file = dir.resolve("text.db");
        try (Lanes lanes = Lanes.builder().name("owner").maxThreads(2).build()) {
            lanes.open(file).execute("CREATE TABLE t(v TEXT)");

            int exit = run("inspect", "--text", file.toString());

            assertThat(exit).as(err.toString()).isZero();
            assertThat(out.toString()).contains("database         " + file.toAbsolutePath(),
                    "journal mode     wal", "lease            held", "quick_check      ok",
                    "SQLite           " + SqliteInfo.current().sqliteVersion() + " (sqlite-jdbc "
                            + SqliteInfo.current().driverVersion() + ")",
                    "WAL-reset bug    " + (SqliteInfo.current().walResetMitigation() ? "yes" : "no"));
        }
    }

    @Test
    void aMissingFileIsReportedAndNotCreated() {
        Path file = dir.resolve("missing.db");

        int exit = run("inspect", file.toString());

        assertThat(exit).isEqualTo(InspectCommand.UNREADABLE);
        assertThat(err.toString()).contains("no such database file", "missing.db");
        assertThat(Files.exists(file)).isFalse();
    }

    @Test
    void aFileThatIsNotADatabaseIsReported() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.db"), "not a database at all, just text "
                .repeat(200));

        int exit = run("inspect", file.toString());

        assertThat(exit).isEqualTo(InspectCommand.UNREADABLE);
        assertThat(err.toString()).contains("cannot read", "notes.db");
    }

    private JsonNode inspectJson(Path file) throws Exception {
        out.getBuffer().setLength(0);
        int exit = run("inspect", file.toString());
        assertThat(exit).as(err.toString()).isZero();
        return new ObjectMapper().readTree(out.toString());
    }

    private int run(String... args) {
        CommandLine line = LanesCommand.commandLine();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    private static Process startJava(Class<?> main, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String[] command = new String[4 + args.length];
        command[0] = java;
        command[1] = "-cp";
        command[2] = System.getProperty("java.class.path");
        command[3] = main.getName();
        System.arraycopy(args, 0, command, 4, args.length);
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String runChild(Class<?> main, String... args) throws Exception {
        Process child = startJava(main, args);
        String line;
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            line = lines.readLine();
        }
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return line;
    }
}
