package dev.lanes.internal.reader;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.LogCapture;
import dev.lanes.TestRuntime;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A read that holds its snapshot longer than {@code maxReadDuration} is logged, since a long
 * reader keeps checkpoints from resetting the WAL. On a manual clock: the read holds its snapshot
 * while the test moves time past the bound, so a fast read is never slow by accident.
 */
@Timeout(30)
class LongReadWarningTest {
    final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();

    @Test
    void aReadHoldingItsSnapshotPastMaxReadDurationIsLogged() {
        try (LogCapture logged = LogCapture.of(LogNames.READS)) {
            Database db = runtime.open("long.db", DatabaseOptions.builder()
                    .maxReadDuration(Duration.ofMillis(50)).build());
            db.execute("CREATE TABLE t(v)");

            db.query("SELECT count(*) FROM t"); // fast: nothing logged
            assertThat(logged.messages(Level.WARN)).isEmpty();

            db.read(c -> {
                try (var s = c.createStatement();
                        var rs = s.executeQuery("SELECT count(*) FROM t")) {
                    rs.next();
                    clock.advance(Duration.ofMillis(120)); // holds the snapshot past the bound
                    return rs.getLong(1);
                }
            });
            assertThat(logged.messages(Level.WARN)).singleElement().asString()
                    .contains("long.db").contains("held its snapshot")
                    .contains("maxReadDuration 50 ms");
        }
    }

    /**
     * A streamed JDBC result set holds its reader from its first page to its end: it is logged
     * when it ends past {@code maxReadDuration}, though each of its pages was fast.
     */
    @Test
    void aStreamedResultSetHoldingItsReaderPastMaxReadDurationIsLoggedWhenItEnds()
            throws Exception {
        try (LogCapture logged = LogCapture.of(LogNames.READS)) {
            Database db = runtime.open("stream.db", DatabaseOptions.builder()
                    .maxReadDuration(Duration.ofMillis(50)).build());
            db.execute("CREATE TABLE t(v)");
            db.execute("INSERT INTO t(v) WITH RECURSIVE c(x) AS (VALUES(1) UNION ALL "
                    + "SELECT x + 1 FROM c WHERE x < 100) SELECT x FROM c");
            try (java.sql.Connection c = db.dataSource().getConnection();
                    java.sql.Statement s = c.createStatement()) {
                s.setFetchSize(10);
                try (java.sql.ResultSet rs = s.executeQuery("SELECT v FROM t")) {
                    assertThat(rs.next()).isTrue();
                    clock.advance(Duration.ofMillis(120)); // the stream holds its reader
                    assertThat(logged.messages(Level.WARN)).as("its first page was fast")
                            .isEmpty();
                    int rows = 1;
                    while (rs.next()) {
                        rows++;
                    }
                    assertThat(rows).isEqualTo(100);
                }
            }
            assertThat(logged.messages(Level.WARN)).singleElement().asString()
                    .contains("stream.db").contains("held its snapshot")
                    .contains("maxReadDuration 50 ms");
        }
    }
}
