package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code extension(Path)} with a real loadable extension: {@code src/test/c/halfext.c}
 * (it registers {@code half(x)}), built at test time with gcc against libsqlite3-dev by {@code
 * scripts/build-test-extension.sh}, which installs them with apt-get when it runs as root. Where
 * they are missing and cannot be installed the test is skipped, saying why.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionSetupExtensionTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    /** Builds the extension into the test's directory; skips the test when it cannot. */
    private Path buildExtension() throws IOException, InterruptedException {
        Path library = runtime.path("halfext.so");
        Process build = new ProcessBuilder("bash", "scripts/build-test-extension.sh",
                "src/test/c/halfext.c", library.toString()).redirectErrorStream(true).start();
        String output = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(build.waitFor(240, TimeUnit.SECONDS)).as("the build ends").isTrue();
        Assumptions.assumeTrue(build.exitValue() != 2, "no extension to load: " + output.trim());
        assertThat(build.exitValue()).as("the extension builds: " + output).isZero();
        return library;
    }

    @Test
    void anExtensionIsLoadedOnTheWriterAndEveryReaderWhileSqlCannotLoadOne() throws Exception {
        Path library = buildExtension();
        Database db = runtime.open("ext.db", DatabaseOptions.builder().readers(2)
                .extension(library).build());
        db.execute("CREATE TABLE t(x INTEGER, h REAL GENERATED ALWAYS AS (half(x)))");
        db.execute("INSERT INTO t(x) VALUES (7)");

        assertThat(db.query("SELECT half(x) AS h, h AS g FROM t").get(0).getDouble("h"))
                .isEqualTo(3.5);
        double onWriter = db.write(c -> {
            try (var s = c.createStatement(); var rs = s.executeQuery("SELECT half(9)")) {
                rs.next();
                return rs.getDouble(1);
            }
        });
        assertThat(onWriter).isEqualTo(4.5);

        // Loading was on for Lanes' own call only: SQL's load_extension() stays refused.
        LanesException fromQuery = catchThrowableOfType(LanesException.class,
                () -> db.query("SELECT load_extension(?)", library.toString()));
        assertThat(fromQuery).hasMessageContaining("not authorized");
        LanesException fromWrite = catchThrowableOfType(LanesException.class,
                () -> db.write(c -> {
                    try (var s = c.prepareStatement("SELECT load_extension(?)")) {
                        s.setString(1, library.toString());
                        s.executeQuery().close();
                    }
                    return null;
                }));
        assertThat(fromWrite).hasStackTraceContaining("not authorized");
        assertThat(db.state()).isEqualTo(DatabaseState.RUNNING);
    }

    @Test
    void anExtensionThatDoesNotLoadFailsTheOpenNamingIt() throws SQLException {
        Path missing = runtime.path("no-such-extension.so");
        Database db = runtime.open("noext.db", DatabaseOptions.builder().extension(missing)
                .build());
        Throwable e = catchThrowableOfType(java.util.concurrent.CompletionException.class,
                () -> db.whenReady().join()).getCause();
        assertThat(e).isInstanceOf(DatabaseDeadException.class)
                .hasMessageContaining("no-such-extension.so").hasMessageContaining("did not load");
    }
}
