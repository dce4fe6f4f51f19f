package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DatabaseOptions#diskReserveBytes()}: the builder's validation, the 64 MiB default, and
 * {@value DatabaseOptions#DISK_RESERVE_ENV}, which only a fresh JVM can have set: a child JVM
 * started with it reports what its {@link DatabaseOptions#DEFAULTS} hold.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DiskReserveOptionsTest {
    static final long DEFAULT_RESERVE = 64L * 1024 * 1024;

    @TempDir Path dir;

    @Test
    void theBuilderRejectsANegativeReserveNamingIt() {
        assertThatThrownBy(() -> DatabaseOptions.builder().diskReserveBytes(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("diskReserveBytes").hasMessageContaining("-1");
    }

    @Test
    void zeroIsAcceptedAndAValueSurvivesToBuilder() {
        assertThat(DatabaseOptions.builder().diskReserveBytes(0).build().diskReserveBytes()).isZero();
        DatabaseOptions o = DatabaseOptions.builder().diskReserveBytes(12345).build();
        assertThat(o.toBuilder().build().diskReserveBytes()).isEqualTo(12345);
    }

    @Test
    void theDefaultIs64MiBWhenTheEnvironmentSetsNothing() {
        Assumptions.assumeTrue(System.getenv(DatabaseOptions.DISK_RESERVE_ENV) == null,
                DatabaseOptions.DISK_RESERVE_ENV + " is set in this test's environment");
        assertThat(DatabaseOptions.DEFAULTS.diskReserveBytes()).isEqualTo(DEFAULT_RESERVE);
        assertThat(DatabaseOptions.builder().build().diskReserveBytes()).isEqualTo(DEFAULT_RESERVE);
    }

    @Tag("slow") // a child JVM per case
    @ParameterizedTest(name = "[{index}] env=''{0}''")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "12345      | DEFAULT=12345 EXPLICIT=7",
        "\" 2048 \" | DEFAULT=2048 EXPLICIT=7",
        "0          | DEFAULT=0 EXPLICIT=7",
        "\"\"       | DEFAULT=67108864 EXPLICIT=7"})
    void theEnvironmentVariableSetsTheDefaultAndAnExplicitValueStillWins(String env, String expected)
            throws Exception {
        assertThat(runChild(env)).isEqualTo(expected);
    }

    @Tag("slow") // a child JVM per case
    @ParameterizedTest(name = "[{index}] env=''{0}''")
    @CsvSource({"lots", "-5", "1.5"})
    void aBadEnvironmentValueFailsNamingTheVariableAndTheValue(String env) throws Exception {
        String out = runChild(env);

        assertThat(out).startsWith("ERROR ").contains(DatabaseOptions.DISK_RESERVE_ENV)
                .contains(env);
    }

    /** Runs {@link Child} with the variable set to {@code value} and returns its one line. */
    private String runChild(String value) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path err = Files.createTempFile(dir, "child", ".err");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Child.class.getName()).redirectError(err.toFile());
        pb.environment().put(DatabaseOptions.DISK_RESERVE_ENV, value);
        Process child = pb.start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .trim();
        boolean ended = child.waitFor(TestLanes.WAIT.toSeconds(), TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly();
        }
        assertThat(ended).as("the child ended").isTrue();
        assertThat(out).as("the child's report (stderr: %s)", Files.readString(err)).isNotEmpty();
        return out;
    }

    /**
     * The child JVM: prints {@code DEFAULT=<DEFAULTS.diskReserveBytes()> EXPLICIT=<a builder's
     * explicit 7>}, or {@code ERROR / <each exception of the cause chain>} when the options cannot be built.
     */
    public static final class Child {
        private Child() {}

        public static void main(String[] args) {
            try {
                long defaults = DatabaseOptions.DEFAULTS.diskReserveBytes();
                long explicit = DatabaseOptions.builder().diskReserveBytes(7).build()
                        .diskReserveBytes();
                System.out.println("DEFAULT=" + defaults + " EXPLICIT=" + explicit);
            } catch (Throwable t) {
                StringBuilder chain = new StringBuilder("ERROR");
                for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
                    chain.append(" / ").append(c);
                }
                System.out.println(chain.toString().replace('\n', ' '));
            }
            System.out.flush();
        }
    }
}
