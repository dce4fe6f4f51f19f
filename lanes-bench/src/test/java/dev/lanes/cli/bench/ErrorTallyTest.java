package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.lanes.OverloadedException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

class ErrorTallyTest {
    @Test
    void namesAFailureByWhatAPersonActsOn() {
        SQLiteException busy = new SQLiteException("database is locked", SQLiteErrorCode.SQLITE_BUSY);

        assertThat(ErrorTally.kindOf(busy)).isEqualTo("SQLITE_BUSY");
        assertThat(ErrorTally.kindOf(new OverloadedException("queue full"))).isEqualTo("OVERLOADED");
        assertThat(ErrorTally.kindOf(new WriteFailedException(WriteOutcome.ROLLED_BACK, "failed", busy)))
                .isEqualTo("WRITE_FAILED/SQLITE_BUSY");
        assertThat(ErrorTally.kindOf(new SQLTransientConnectionException("pool timeout")))
                .isEqualTo("SQLTransientConnectionException");
    }

    @Test
    void mergedTalliesAddUpByKind() {
        ErrorTally one = new ErrorTally();
        ErrorTally other = new ErrorTally();
        one.count(new OverloadedException("a"));
        other.count(new OverloadedException("b"));
        other.count(new IllegalStateException("c"));

        one.add(other);

        assertThat(one.counts()).containsExactly(
                entry("IllegalStateException", 1L),
                entry("OVERLOADED", 2L));
    }
}
