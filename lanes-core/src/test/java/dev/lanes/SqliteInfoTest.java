package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What a runtime reports of the SQLite and the driver under it ({@link SqliteInfo}). */
class SqliteInfoTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void theRuntimeReportsTheSqliteAndTheDriverItRunsOn() throws Exception {
        String sqlite = TestLanes.sqliteVersion();
        runtime.openWithTable("a.db").execute("INSERT INTO t(v) VALUES ('x')");
        SqliteInfo info = runtime.lanes().diagnostics().sqlite();

        assertThat(info).isEqualTo(SqliteInfo.current());
        assertThat(info.sqliteVersion()).isEqualTo(sqlite);
        assertThat(info.driverVersion())
                .isEqualTo(System.getProperty("lanes.test.sqlite-jdbc", "3.54.1.0"));
        String[] v = sqlite.split("\\.");
        boolean before3513 = Integer.parseInt(v[1]) < 51
                || (Integer.parseInt(v[1]) == 51 && Integer.parseInt(v[2]) < 3);
        assertThat(info.walResetMitigation())
                .as("on with the WAL-reset bug (before 3.51.3, these drivers' SQLites)")
                .isEqualTo(before3513);
    }
}
