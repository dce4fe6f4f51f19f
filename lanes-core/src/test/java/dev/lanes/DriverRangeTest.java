package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * lanes-core on a real driver other than the one it declares, as an application that manages
 * the driver's version (Spring Boot's dependency management, say) runs it: a child JVM with
 * lanes-core's classes and that driver's jar, which the build fetched into {@code
 * target/sqlite-jdbc}. Below the supported range the open is refused with {@link
 * UnsupportedDriverException}, whose message says what to do; at its oldest end, whose SQLite
 * has the WAL-reset bug, the database works, one warning per process says so, and the runtime's
 * diagnostics show the mitigation. Neither ever fails with a linkage error.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DriverRangeTest {
    private static final String NEWEST = "3.54.1.0";

    @TempDir Path dir;

    private record Run(int exit, String out, String err) {}

    @Test
    void aDriverBelowTheRangeIsRefusedAtOpenWithTheLinesThatFixIt() throws Exception {
        String version = System.getProperty("lanes.test.sqlite-jdbc.unsupported");
        Run run = runOn(version);

        assertThat(run.out()).contains("REFUSED dev.lanes.UnsupportedDriverException "
                + "UNSUPPORTED_DRIVER NOT_STARTED");
        String message = run.out().lines().filter(l -> l.startsWith("MESSAGE ")).findFirst()
                .orElse("");
        assertThat(message)
                .contains("sqlite-jdbc " + version + " is on the class path")
                .contains("org.xerial:sqlite-jdbc 3.50.3.0 or later")
                .contains("<dependency><groupId>org.xerial</groupId><artifactId>sqlite-jdbc"
                        + "</artifactId><version>" + NEWEST + "</version></dependency>")
                .contains("<sqlite-jdbc.version>" + NEWEST + "</sqlite-jdbc.version>")
                .contains("implementation(\"org.xerial:sqlite-jdbc:" + NEWEST + "\")");
        assertThat(Files.exists(dir.resolve("a.db"))).as("nothing was opened").isFalse();
        assertNoLinkageError(run);
    }

    @Test
    void theOldestSupportedDriverRunsWithOneWarningAndTheMitigationShown() throws Exception {
        String version = System.getProperty("lanes.test.sqlite-jdbc.oldest");
        Run run = runOn(version);

        assertThat(run.out()).contains("OPENED", "ROWS 1", "CHECKPOINT true")
                .contains("SQLITE SqliteInfo[sqliteVersion=3.50.3, driverVersion=" + version
                        + ", walResetMitigation=true]");
        List<String> warnings = run.err().lines().filter(l -> l.contains("WAL-reset bug"))
                .collect(Collectors.toList());
        assertThat(warnings).as("one warning for the process, though two runtimes opened")
                .hasSize(1);
        assertThat(warnings.get(0)).startsWith("WARN")
                .contains("SQLite 3.50.3 (sqlite-jdbc " + version + ")")
                .contains("https://sqlite.org/wal.html#walresetbug")
                .contains("<sqlite-jdbc.version>" + NEWEST + "</sqlite-jdbc.version>");
        assertNoLinkageError(run);
    }

    private static void assertNoLinkageError(Run run) {
        assertThat(run.out() + run.err()).doesNotContain("NoSuchFieldError")
                .doesNotContain("NoSuchMethodError").doesNotContain("NoClassDefFoundError");
        assertThat(run.exit()).as(run.err()).isZero();
    }

    /** Runs {@link DriverRangeChild} with sqlite-jdbc {@code version} in place of the declared. */
    private Run runOn(String version) throws Exception {
        String jars = System.getProperty("lanes.test.sqlite-jdbc.dir");
        assumeThat(jars).as("run by Maven, which fetches the drivers (lanes-core's pom)")
                .isNotNull();
        Path jar = Path.of(jars, "sqlite-jdbc-" + version + ".jar");
        assertThat(jar).as("fetched by the build").exists();
        List<String> classPath = Stream.of(System.getProperty("java.class.path")
                .split(File.pathSeparator))
                .filter(e -> !Path.of(e).getFileName().toString().startsWith("sqlite-jdbc"))
                .collect(Collectors.toCollection(ArrayList::new));
        classPath.add(jar.toString());
        Path out = dir.resolve("child.out");
        Path err = dir.resolve("child.err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, classPath),
                DriverRangeChild.class.getName(), dir.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean ended = child.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Run run = new Run(ended ? child.exitValue() : -1,
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        assertThat(ended).as("the child ends; it printed:%n%s%n%s", run.out(), run.err())
                .isTrue();
        return run;
    }
}
