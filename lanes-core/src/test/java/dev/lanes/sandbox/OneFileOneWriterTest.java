package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static dev.lanes.sandbox.Sandbox.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseLockedException;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.WriteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One database file has one writer, whatever name it is opened by: another name of an open file
 * (a hard link in another directory) meets the database already open, and a name the driver
 * would take apart never opens another file as an alias.
 */
@Timeout(60)
class OneFileOneWriterTest {
    @TempDir Path dir;
    Lanes lanes;
    Database db;
    Path original;
    Path link;

    @BeforeEach
    void start() throws Exception {
        lanes = Sandbox.runtime();
        original = dir.resolve("a").resolve("original.db");
        Files.createDirectories(original.getParent());
        db = openWithTable(lanes, original.getParent(), "original.db", DatabaseOptions.DEFAULTS);
        db.execute("INSERT INTO t(v) VALUES ('kept')");
        link = dir.resolve("b").resolve("other-name.db");
        Files.createDirectories(link.getParent());
        Files.createLink(link, original);
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    @Test
    void aHardLinkOpenedInTheSameRuntimeIsTheDatabaseAlreadyOpen() {
        Database again = lanes.open(link);

        assertThat(again).isSameAs(db);
        again.execute("INSERT INTO t(v) VALUES ('through the link')");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(2);
        assertThat(Files.exists(link.resolveSibling("other-name.db-wal"))).isFalse();
        assertHealthy(db);
    }

    @Test
    void aHardLinkOpenedInAnotherRuntimeIsRefusedAsLockedNamingTheOpenName() {
        try (Lanes other = Lanes.builder().name("other").build()) {
            DatabaseLockedException e = catchThrowableOfType(DatabaseLockedException.class,
                    () -> other.open(link).execute("INSERT INTO t(v) VALUES ('second writer')"));

            assertThat(e).isNotNull();
            assertThat(e.getMessage()).contains("under another name", original.getFileName()
                    .toString(), "'sandbox'", "hard link");
        }
        assertThat(Files.exists(link.resolveSibling("other-name.db-wal"))).isFalse();
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);
        assertHealthy(db);
    }

    @Test
    void onceTheDatabaseClosedTheOtherNameOpensIt() {
        db.close();
        try (Lanes other = Lanes.builder().name("other").build()) {
            Database byLink = other.open(link);
            assertThat(scalar(byLink, "SELECT count(*) FROM t")).isEqualTo(1);
        }
    }

    // ------------------------------------------------------------------ names the driver reads

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"original.db?cache_size=77", "original.db?mode=memory",
            "original.db?journal_mode=DELETE&cache_size=1", "other.db?a=1&b=2", ":memory:",
            "file::memory:", "file:original.db"})
    void aNameTheDriverWouldReadAsSettingsOrAUriIsRefusedNamingItAndOpensNothing(String name)
            throws Exception {
        Path asked = original.resolveSibling(name);
        for (Lanes runtime : new Lanes[] {lanes, Lanes.builder().name("other").build()}) {
            try (Lanes ignored = runtime == lanes ? null : runtime) {
                InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                        () -> runtime.open(asked).execute("INSERT INTO t(v) VALUES ('alias')"));

                assertThat(e).isNotNull();
                assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
                assertThat(e.getMessage()).contains("cannot open " + asked);
            }
        }
        try (var files = Files.list(original.getParent())) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .allMatch(f -> f.startsWith("original.db") && !f.contains("?")
                            || f.equals(".lanes-lock"));
        }
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);
        assertThat(scalar(db, "PRAGMA cache_size")).isNotEqualTo(77);
        assertHealthy(db);
    }

    @Test
    void aBackupToANameTheDriverWouldReadAsSettingsIsRefusedAndWritesNothing() throws Exception {
        Path target = dir.resolve("copy.db?cache_size=1");

        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.backup(target));

        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains(target.toString(), "'?'");
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsOnly("a", "b");
        }
    }
}
