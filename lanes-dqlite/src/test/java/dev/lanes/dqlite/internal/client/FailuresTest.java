package dev.lanes.dqlite.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.dqlite.DqliteBusyException;
import dev.lanes.dqlite.DqliteConstraintException;
import dev.lanes.dqlite.DqliteLeadershipLostException;
import dev.lanes.dqlite.DqliteNotLeaderException;
import dev.lanes.dqlite.DqliteServerException;
import dev.lanes.dqlite.internal.wire.RequestType;
import org.junit.jupiter.api.Test;

/** The mapping of numeric failure codes to exceptions and outcomes (see DqliteCodes). */
class FailuresTest {
    private static DqliteServerException sql(long code) {
        return Failures.exception(RequestType.EXEC_SQL, code, "text", "n:1", true);
    }

    @Test
    void notLeaderNeverRanWhateverTheRequest() {
        for (RequestType type : RequestType.values()) {
            DqliteServerException e = Failures.exception(type, 10250, "not leader", "n:1", false);
            assertThat(e).isInstanceOf(DqliteNotLeaderException.class);
            assertThat(e.mayHaveRun()).isFalse();
        }
    }

    @Test
    void leadershipLostMayHaveRunWhateverItsText() {
        DqliteServerException e = sql(10506);
        assertThat(e).isInstanceOf(DqliteLeadershipLostException.class);
        assertThat(e.mayHaveRun()).isTrue();
        assertThat(e.getMessage()).contains("may have been committed");
    }

    @Test
    void theIoFamilyAbortAndRowMayHaveRun() {
        for (long code : new long[] {10, 778, 266, 4, 100}) {
            assertThat(sql(code).mayHaveRun()).as("code %d", code).isTrue();
        }
    }

    @Test
    void sqliteFailingAStatementAtomicallyDidNotRun() {
        assertThat(sql(5)).isInstanceOf(DqliteBusyException.class);
        assertThat(sql(517)).isInstanceOf(DqliteBusyException.class);
        assertThat(sql(19)).isInstanceOf(DqliteConstraintException.class);
        assertThat(sql(1555)).isInstanceOf(DqliteConstraintException.class);
        assertThat(sql(2067)).isInstanceOf(DqliteConstraintException.class);
        assertThat(sql(787)).isInstanceOf(DqliteConstraintException.class);
        for (long code : new long[] {1, 5, 12, 13, 19, 25, 516, 1001, 1005, 1555, 2067}) {
            DqliteServerException e = sql(code);
            assertThat(e.mayHaveRun()).as("code %d", code).isFalse();
            assertThat(e.code()).isEqualTo(code);
        }
        assertThat(sql(1555).primaryCode()).isEqualTo(19);
    }

    @Test
    void aFailureOfMultiStatementSqlMayHaveRunTheStatementsBeforeIt() {
        DqliteServerException e = Failures.exception(RequestType.EXEC_SQL, 1555, "x", "n:1", false);
        assertThat(e).isInstanceOf(DqliteConstraintException.class);
        assertThat(e.mayHaveRun()).isTrue();
        assertThat(Failures.exception(RequestType.EXEC_SQL, 10250, "x", "n:1", false).mayHaveRun()).isFalse();
    }

    @Test
    void requestsThatChangeNothingNeverMayHaveRun() {
        for (RequestType type : new RequestType[] {RequestType.LEADER, RequestType.CLIENT, RequestType.OPEN,
            RequestType.PREPARE, RequestType.FINALIZE, RequestType.CLUSTER}) {
            assertThat(Failures.exception(type, 10506, "x", "n:1", true).mayHaveRun()).isFalse();
            assertThat(Failures.exception(type, 10, "x", "n:1", true).mayHaveRun()).isFalse();
        }
    }

    @Test
    void aMembershipChangeIsCertainlyRefusedOnlyWhenNotLeaderOrBusy() {
        for (RequestType type : new RequestType[] {RequestType.ADD, RequestType.ASSIGN, RequestType.REMOVE}) {
            assertThat(Failures.exception(type, 10250, "x", "n:1", true).mayHaveRun()).isFalse();
            assertThat(Failures.exception(type, 5, "x", "n:1", true).mayHaveRun()).isFalse();
            assertThat(Failures.exception(type, 1, "x", "n:1", true).mayHaveRun()).isTrue();
            assertThat(Failures.exception(type, 10506, "x", "n:1", true).mayHaveRun()).isTrue();
        }
    }
}
