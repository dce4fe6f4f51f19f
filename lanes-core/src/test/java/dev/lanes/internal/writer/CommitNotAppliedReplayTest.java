package dev.lanes.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.WriteFailedException;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.notify.CommitObserver;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.sql.text.StatementShape;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The rule a cluster connection relies on: a {@code COMMIT} proven not applied ({@link
 * LaneConnection.CommitNotApplied}) makes the group's writes run again in a fresh transaction,
 * bounded as replays are, instead of failing them. Driven on a connection without SQLite that
 * records what the group did and applies a transaction only when its commit succeeds.
 */
class CommitNotAppliedReplayTest {
    private final List<String> poisons = new ArrayList<>();
    private final WriteTelemetry telemetry = new WriteTelemetry(
            PartialLaneSetup.forTelemetry("db", Duration.ofSeconds(10), Clock.SYSTEM));
    private final LaneTransaction transaction = new LaneTransaction("db", Duration.ofSeconds(1),
            new DiskReserve("db", Path.of("db"), 0, Clock.SYSTEM, MetricsReporter.NONE), poisons::add,
            null, telemetry);
    private final GroupCommit groupCommit = new GroupCommit(transaction,
            new Cork(transaction, telemetry,
                    new LaneState(PartialLaneSetup.forTelemetry("db", Duration.ofSeconds(10), Clock.SYSTEM), null)), telemetry, Clock.SYSTEM);

    /** Applies a transaction's statements when its commit succeeds; fails chosen commits. */
    private static final class Recording implements LaneConnection {
        final List<String> applied = new ArrayList<>();
        final List<String> pending = new ArrayList<>();
        int begins;
        int commits;
        /** How many commits, from the first, are proven not applied. */
        int notApplied;

        @Override
        public void beginImmediate() {
            begins++;
            pending.clear();
        }

        @Override
        public void commit() throws SQLException {
            commits++;
            if (commits <= notApplied) {
                pending.clear();
                throw new CommitNotApplied("the leader was lost; the group id was not found",
                        null);
            }
            applied.addAll(pending);
            pending.clear();
        }

        @Override
        public boolean rolledBackAfterFailedCommit(SQLException failure) {
            return failure instanceof CommitNotApplied;
        }

        @Override
        public boolean rollbackVerified() {
            pending.clear();
            return true;
        }

        @Override
        public void savepoint() {}

        @Override
        public void releaseSavepoint() {}

        @Override
        public void rollBackToSavepoint() {}

        @Override
        public Watch watch() {
            return new Watch() {
                @Override
                public boolean ended() {
                    return false;
                }

                @Override
                public boolean committed() {
                    return false;
                }

                @Override
                public boolean firstEndWasCommit() {
                    return false;
                }
            };
        }

        @Override
        public Object run(GroupWrite request) {
            String sql = request instanceof WriteRequest.StatementWrite
                    ? ((WriteRequest.StatementWrite) request).sql() : "body";
            pending.add(sql);
            return 1;
        }

        @Override
        public void beforeCommit(dev.lanes.spi.CommitFence fence) {
            throw new AssertionError("no commit fence is set");
        }

        @Override
        public long changesSinceBegin() {
            return pending.size();
        }

        @Override
        public Set<String> takeChangedTables() {
            return new HashSet<>();
        }

        @Override
        public void trackTables(boolean track) {}
    }

    private static GroupWrite statement(String sql) {
        return new WriteRequest.StatementWrite(StatementShape.of(sql), new Object[0],
                Returns.COUNT, 0);
    }

    @Test
    void aCommitProvenNotAppliedRunsTheGroupAgainAndItsWritesCommitOnce() {
        Recording c = new Recording();
        c.notApplied = 1;
        List<GroupWrite> group = List.of(statement("a"), statement("b"));

        groupCommit.runToEnd(group, c, CommitObserver.NONE);

        assertThat(c.begins).isEqualTo(2);
        assertThat(c.applied).containsExactly("a", "b");
        for (GroupWrite r : group) {
            assertThat(r.stages.recorded()).isTrue();
            assertThat(r.stages.failure()).isNull();
            assertThat(r.stages.runs).isEqualTo(2);
        }
        assertThat(telemetry.counters.sum(WriterCounters.REPLAYS)).isEqualTo(2);
        assertThat(poisons).isEmpty();
    }

    @Test
    void aWriteThatIsNotReplayableFailsRolledBackWhileItsNeighbourRunsAgain() {
        Recording c = new Recording();
        c.notApplied = 1;
        GroupWrite once = new WriteRequest.BodyWrite(
                WriteOptions.builder().replayable(false).build(), conn -> 1, 0);
        GroupWrite again = statement("b");

        groupCommit.runToEnd(List.of(once, again), c, CommitObserver.NONE);

        assertThat(once.stages.failure()).isInstanceOf(WriteFailedException.class);
        assertThat(once.stages.failure().outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(once.stages.failure().getMessage()).contains("did not apply", "not replayable");
        assertThat(again.stages.failure()).isNull();
        assertThat(c.applied).containsExactly("b");
        assertThat(poisons).isEmpty();
    }

    @Test
    void aSecondCommitProvenNotAppliedFailsTheWritesRolledBackAndNeverRunsThemAThirdTime() {
        Recording c = new Recording();
        c.notApplied = 2;
        List<GroupWrite> group = List.of(statement("a"), statement("b"));

        groupCommit.runToEnd(group, c, CommitObserver.NONE);

        assertThat(c.begins).isEqualTo(2);
        assertThat(c.applied).isEmpty();
        for (GroupWrite r : group) {
            assertThat(r.stages.runs).isEqualTo(2);
            assertThat(r.stages.failure().outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(r.stages.failure().getMessage()).contains("already ran twice");
        }
        assertThat(poisons).isEmpty();
    }
}
