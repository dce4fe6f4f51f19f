package dev.lanes.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.Lanes;
import java.nio.file.Path;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Flyway's baseline for a database that holds only Lanes' identity table, and its failures. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LanesFlywayTest {
    @TempDir Path dir;
    private final Lanes lanes = Lanes.builder().name("flyway").build();

    @AfterEach
    void close() {
        lanes.close();
    }

    private static FluentConfiguration on(Database db) {
        return LanesFlyway.baselineFresh(Flyway.configure().dataSource(db.dataSource()));
    }

    @Test
    void aFreshDatabaseIsBaselinedAtZeroAndOneWithATableIsLeftToFlyway() {
        Database fresh = lanes.open(dir.resolve("fresh.db"));
        FluentConfiguration baselined = on(fresh);
        assertThat(baselined.isBaselineOnMigrate()).as("opened by the check itself").isTrue();
        assertThat(baselined.getBaselineVersion().getVersion()).isEqualTo("0");

        Database used = lanes.open(dir.resolve("used.db"));
        used.execute("CREATE TABLE app(v)");
        assertThat(on(used).isBaselineOnMigrate()).isFalse();
    }

    @Test
    void aDatabaseWhoseTablesCannotBeReadFailsWithTheCauseNotWithFlywaysNonEmptySchema() {
        Database db = lanes.open(dir.resolve("closed.db"));
        db.close();
        IllegalStateException e = catchThrowableOfType(IllegalStateException.class, () -> on(db));
        assertThat(e).as("refused, not left to Flyway").isNotNull();
        assertThat(e.getMessage()).contains("closed.db").contains("Flyway did not run");
        assertThat(e).hasCauseInstanceOf(RuntimeException.class);
    }
}
