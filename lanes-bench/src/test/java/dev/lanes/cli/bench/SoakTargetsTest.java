package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.CheckpointMode;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SoakTargetsTest {
    private static final long ROTATION = 30_000_000_000L;

    @Test
    void aThousandDatabasesCheckpointInEveryMode() {
        SoakTargets targets = new SoakTargets(1000, ROTATION);

        assertThat(targets.external()).containsExactly(1, 251, 501, 751);
        assertThat(targets.count(CheckpointMode.EXTERNAL)).isEqualTo(4);
        assertThat(targets.count(CheckpointMode.DEDICATED)).isEqualTo(250);
        assertThat(targets.count(CheckpointMode.AUTO)).isEqualTo(746);
        assertThat(targets.checkpointMode(0)).isEqualTo(CheckpointMode.DEDICATED);
        assertThat(targets.checkpointMode(2)).isEqualTo(CheckpointMode.AUTO);
        assertThat(targets.hotDatabases()).isEqualTo(100);
    }

    @Test
    void fewDatabasesStillHaveAnExternalOneAndAHotOne() {
        SoakTargets fifty = new SoakTargets(50, ROTATION);
        assertThat(fifty.external()).containsExactly(1);
        assertThat(fifty.hotDatabases()).isEqualTo(5);

        SoakTargets one = new SoakTargets(1, ROTATION);
        assertThat(one.external()).containsExactly(0);
        assertThat(one.pick(new SplittableRandom(1), 0)).isZero();
        assertThatThrownBy(() -> new SoakTargets(0, ROTATION))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void mostRequestsGoToTheHotWindowAndSomeToTheExternalDatabases() {
        SoakTargets targets = new SoakTargets(1000, ROTATION);
        int[] hits = draw(targets, 0, 100_000);

        // the window 0..99 holds external database 1 too
        assertThat(share(hits, 0, 100)).isBetween(0.80, 0.86);
        double external = 0;
        for (int e : targets.external()) {
            external += hits[e] / 100_000.0;
        }
        assertThat(external).isBetween(0.05, 0.07);
        // and every database is reached now and then
        assertThat(share(hits, 100, 1000)).isBetween(0.13, 0.19);
    }

    @Test
    void theHotWindowMovesOnEveryRotationAndWrapsAround() {
        SoakTargets targets = new SoakTargets(1000, ROTATION);

        assertThat(targets.hotStart(ROTATION - 1)).isZero();
        assertThat(targets.hotStart(ROTATION)).isEqualTo(100);
        assertThat(targets.hotStart(9 * ROTATION)).isEqualTo(900);
        assertThat(targets.hotStart(10 * ROTATION)).isZero();
        int[] hits = draw(targets, 3 * ROTATION, 100_000);
        assertThat(share(hits, 300, 400)).isGreaterThan(0.80);
        // the databases that were hot have gone quiet
        assertThat(share(hits, 0, 100)).isLessThan(0.03);
    }

    @Test
    void theRequestMixAddsUpToAHundredPercent() {
        Map<SoakLoad.Request, Integer> drawn = new EnumMap<>(SoakLoad.Request.class);
        for (int roll = 0; roll < 100; roll++) {
            drawn.merge(SoakLoad.Request.of(roll), 1, Integer::sum);
        }

        for (SoakLoad.Request r : SoakLoad.Request.values()) {
            assertThat(drawn.get(r)).as("%s", r).isEqualTo(r.percent());
        }
        assertThat(SoakLoad.Request.of(0)).isEqualTo(SoakLoad.Request.POINT_READ);
        assertThat(SoakLoad.Request.of(99)).isEqualTo(SoakLoad.Request.FAILING);
        assertThatThrownBy(() -> SoakLoad.Request.of(100))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBudgetIsSmallEnoughForEvictionsToHappen() {
        // three in ten databases' worth of connections, where each database may hold three
        assertThat(SoakScenario.connectionBudget(1000)).isEqualTo(300);
        assertThat(SoakScenario.connectionBudget(50)).isEqualTo(SoakScenario.MIN_BUDGET);
        assertThat(SoakScenario.connectionBudget(100_000)).isEqualTo(SoakScenario.MAX_BUDGET);
        for (int databases : new int[] {50, 1000, 100_000}) {
            assertThat(SoakScenario.connectionBudget(databases))
                    .isLessThan(databases * (1 + SoakScenario.READERS));
        }
    }

    private static int[] draw(SoakTargets targets, long elapsedNanos, int n) {
        SplittableRandom random = new SplittableRandom(42);
        int[] hits = new int[targets.databases()];
        for (int i = 0; i < n; i++) {
            hits[targets.pick(random, elapsedNanos)]++;
        }
        return hits;
    }

    private static double share(int[] hits, int from, int to) {
        long sum = 0;
        long all = 0;
        for (int i = 0; i < hits.length; i++) {
            all += hits[i];
            if (i >= from && i < to) {
                sum += hits[i];
            }
        }
        return sum / (double) all;
    }
}
