package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanes.Synchronous;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SqliteCLoopTest {
    @TempDir Path dir;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theCLoopCommitsEveryRowItCountsAndMeasuresOnlyTheWindow() throws Exception {
        SqliteCLoop loop = SqliteCLoop.build(dir.resolve("build"));
        assumeTrue(loop.unavailable() == null, () -> "SQLite's C loop is left out: "
                + loop.unavailable());
        assertThat(loop.sqliteVersion()).matches("3\\.\\d+\\.\\d+.*");

        RunResult run = loop.run(dir.resolve("loop.db"), Synchronous.NORMAL,
                Duration.ofMillis(200), Duration.ofMillis(300));

        assertThat(run.system()).isEqualTo(SqliteCLoop.SYSTEM);
        assertThat(run.synchronous()).isEqualTo(Synchronous.NORMAL);
        assertThat(run.operations()).isPositive();
        assertThat(run.consistency().found()).as("rows in the file")
                .isEqualTo(run.consistency().acknowledged());
        // the warm-up's commits are in the file, but not in the measured window
        assertThat(run.consistency().acknowledged()).isGreaterThan(run.operations());
        assertThat(run.seconds()).isEqualTo(0.3);
        assertThat(Files.list(dir).map(p -> p.getFileName().toString()))
                .as("the latencies file is removed").noneMatch(n -> n.endsWith(".latencies"));
    }

    @Test
    void aMissingCompilerIsReportedWithWhatToInstall() {
        SqliteCLoop loop = SqliteCLoop.build(dir.resolve("x"), "no-such-gcc-" + System.nanoTime());
        assertThat(loop.unavailable()).contains("install gcc and libsqlite3-dev");
        assertThat(loop.sqliteVersion()).isNull();
    }
}
