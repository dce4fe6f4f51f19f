package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.ResultTooLargeException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the default options, a query whose rows never end stops typed once they reach 64 MiB,
 * pointing to {@code db.stream}, instead of taking the heap: the memory one query may take is
 * bounded without any option set.
 */
@Timeout(60)
class DefaultResultBoundTest {
    /** Rows of 1 MiB each, without end. */
    static final String ENDLESS_MEBIBYTES = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
            + "SELECT x + 1 FROM c) SELECT x, zeroblob(1048576) FROM c";

    @TempDir Path dir;
    Lanes lanes;
    Database db;

    @BeforeEach
    void start() {
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "bound.db", DatabaseOptions.DEFAULTS);
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    @Test
    void aRunawayQueryWithTheDefaultOptionsEndsTypedAt64MiBPointingToStream() {
        ResultTooLargeException e = catchThrowableOfType(ResultTooLargeException.class,
                () -> db.query(ENDLESS_MEBIBYTES));

        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("maxResultBytes (67108864 bytes) at row 64",
                "db.stream");
        assertHealthy(db);
    }

    @Test
    void theSameRowsStreamPastTheBoundOneAtATime() {
        AtomicLong bytes = new AtomicLong();
        long rows = db.stream(ENDLESS_MEBIBYTES + " LIMIT 100", new Object[0],
                row -> bytes.addAndGet(((byte[]) row.get(1)).length));

        assertThat(rows).isEqualTo(100);
        assertThat(bytes.get()).isEqualTo(100L * 1024 * 1024);
    }
}
