package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sqlite.Function;

/**
 * The checks of the connection settings: what {@code DatabaseOptions.builder()}
 * refuses at once (names, values, the pragmas Lanes owns, naming the option to use instead), what
 * SQLite refuses when a connection opens (an unknown pragma, a value it ignores), and how a second
 * open with other settings is told apart.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionSetupOptionsTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    static Stream<Arguments> ownedPragmas() {
        return Stream.of(
                Arguments.of("journal_mode", "WAL mode"),
                Arguments.of("synchronous", "synchronous(...)"),
                Arguments.of("SYNCHRONOUS", "synchronous(...)"),
                Arguments.of("busy_timeout", "busyTimeout(...)"),
                Arguments.of("locking_mode", "EXCLUSIVE would lock the readers out"),
                Arguments.of("query_only", "writes go through the writer lane"),
                Arguments.of("wal_checkpoint", "db.checkpoint()"),
                Arguments.of("soft_heap_limit", "Lanes.builder().sqliteSoftHeapLimit(...)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ownedPragmas")
    void aPragmaLanesOwnsIsRefusedNamingWhatToUseInstead(String pragma, String instead) {
        assertThat(ConnectionSetup.ownedPragmas()).contains(pragma.toLowerCase());
        assertThatThrownBy(() -> DatabaseOptions.builder().pragma(pragma, 1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pragma " + pragma)
                .hasMessageContaining(instead);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"DEDICATED", "EXTERNAL"})
    void walAutocheckpointIsRefusedWhenSomeoneElseOwnsCheckpoints(CheckpointMode mode) {
        DatabaseOptions.Builder b = DatabaseOptions.builder().pragma("wal_autocheckpoint", 500)
                .checkpointMode(mode);
        assertThatThrownBy(b::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wal_autocheckpoint")
                .hasMessageContaining("checkpointMode(...)")
                .hasMessageContaining(mode.name());
    }

    @Test
    void walAutocheckpointTunesSqlitesOwnCheckpointUnderAuto() {
        Database db = runtime.lanes().open(runtime.path("auto.db"), DatabaseOptions.builder()
                .checkpointMode(CheckpointMode.AUTO).pragma("wal_autocheckpoint", 500).build());
        long value = db.write(c -> pragma(c, "wal_autocheckpoint"));
        assertThat(value).isEqualTo(500);
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"cache_size; DROP TABLE x", "cache size", "1cache", "", "cache-size",
            "main.cache_size", "\"cache_size\"", "cache_size=1"})
    void aPragmaNameThatIsNotAnIdentifierIsRefused(String name) {
        assertThatThrownBy(() -> DatabaseOptions.builder().pragma(name, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SQLite identifier")
                .hasMessageContaining("'" + name + "'");
    }

    @Test
    void pragmaValuesMustBeIntegersBooleansOrText() {
        assertThatThrownBy(() -> DatabaseOptions.builder().pragma("cache_size", 1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cache_size").hasMessageContaining("truncate");
        assertThatThrownBy(() -> DatabaseOptions.builder().pragma("cache_size", new Object()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Object");
        assertThatThrownBy(() -> DatabaseOptions.builder().pragma("cache_size",
                new BigDecimal("1e30"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64-bit");
        assertThatThrownBy(() -> DatabaseOptions.builder().pragma("temp_store", "a\0b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NUL");
        assertThat(DatabaseOptions.builder().pragma("foreign_keys", true)
                .pragma("cache_size", new BigDecimal("-2000")).build().connectionSetup().pragmas())
                .extracting(ConnectionSetup.PragmaSetting::value).containsExactly(1L, -2000L);
    }

    @Test
    void aTextValueIsQuotedSoItCannotEndTheStatement() {
        // Would be a second statement if pasted: quoted, it is one odd value SQLite ignores, and
        // the read-back catches that it did not take.
        Database db = runtime.lanes().open(runtime.path("quoted.db"), DatabaseOptions.builder()
                .pragma("encoding", "UTF-8'; DROP TABLE t; --").build());
        CompletionException e = catchThrowableOfType(CompletionException.class,
                () -> db.whenReady().join());
        assertThat(e.getCause()).isInstanceOf(DatabaseDeadException.class)
                .hasMessageContaining("encoding").hasMessageContaining("DROP TABLE t");
    }

    @Test
    void functionsCollationsAndAggregatesAreCheckedAtTheSetter() {
        Supplier<Function> f = () -> new Function() {
            @Override
            protected void xFunc() {}
        };
        assertThatThrownBy(() -> DatabaseOptions.builder().function("x y", 1, f))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x y'");
        assertThatThrownBy(() -> DatabaseOptions.builder().function("f", 128, f))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nArgs");
        assertThatThrownBy(() -> DatabaseOptions.builder().function("f", 1, 0x80000, f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FLAG_DETERMINISTIC");
        assertThatThrownBy(() -> DatabaseOptions.builder().function("f", 1, f).function("F", 1, f))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> DatabaseOptions.builder().function("f", 1, (Supplier<Function>) null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> DatabaseOptions.builder().collation("c", Comparator.naturalOrder())
                .collation("C", Comparator.reverseOrder()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> DatabaseOptions.builder().onConnect(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("onConnect");
        // one name with another arity is another function, as in SQLite
        assertThat(DatabaseOptions.builder().function("f", 1, f).function("f", 2, f).build()
                .connectionSetup().functions()).hasSize(2);
    }

    @Test
    void anUnknownPragmaFailsTheOpenNamingIt() {
        Database db = runtime.lanes().open(runtime.path("unknown.db"), DatabaseOptions.builder()
                .pragma("cache_size", -4000).pragma("cach_size", -8000).build());
        CompletionException e = catchThrowableOfType(CompletionException.class,
                () -> db.whenReady().join());
        assertThat(e.getCause()).isInstanceOf(DatabaseDeadException.class)
                .hasMessageContaining("cach_size")
                .hasMessageContaining("knows no pragma");
        assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
        assertThatThrownBy(() -> db.execute("CREATE TABLE t(x)"))
                .isInstanceOf(DatabaseDeadException.class).hasMessageContaining("cach_size");
    }

    @Test
    void aValueSqliteIgnoresFailsTheOpenNamingPragmaAndValue() {
        // page_size must be a power of two: SQLite keeps 4096 and says nothing
        Database db = runtime.lanes().open(runtime.path("ignored.db"), DatabaseOptions.builder()
                .pragma("page_size", 1000).build());
        CompletionException e = catchThrowableOfType(CompletionException.class,
                () -> db.whenReady().join());
        assertThat(e.getCause()).isInstanceOf(DatabaseDeadException.class)
                .hasMessageContaining("page_size").hasMessageContaining("1000")
                .hasMessageContaining("4096");
    }

    @Test
    void equalSettingsAreEqualOptionsAndASecondOpenWithOtherOnesIsRefusedNamingThem() {
        Comparator<String> order = Comparator.reverseOrder();
        DatabaseOptions a = DatabaseOptions.builder().pragma("cache_size", -4000)
                .collation("rev", order).build();
        DatabaseOptions same = DatabaseOptions.builder().pragma("cache_size", -4000)
                .collation("rev", order).build();
        assertThat(a).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(a.toBuilder().build()).isEqualTo(a);
        assertThat(a.toBuilder().pragma("temp_store", "MEMORY").build().connectionSetup()
                .pragmas()).hasSize(2);
        assertThat(a.connectionSetup().pragmas()).as("toBuilder copied, never shared").hasSize(1);

        Database db = runtime.lanes().open(runtime.path("twice.db"), a);
        assertThat(runtime.lanes().open(runtime.path("twice.db"), same)).isSameAs(db);
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> runtime.lanes().open(runtime.path("twice.db"), DatabaseOptions.builder()
                        .pragma("cache_size", -8000).collation("rev", order).build()));
        assertThat(e).hasMessageContaining("pragma (open with")
                .hasMessageContaining("-4000").hasMessageContaining("-8000");
    }

    static long pragma(java.sql.Connection c, String name) throws SQLException {
        try (var s = c.createStatement(); var rs = s.executeQuery("PRAGMA " + name)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
