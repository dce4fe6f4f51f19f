package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchSuiteTest {

    @Test
    void lanesAndItsBaselineAlternateRepetitionByRepetitionOneConfigurationAtATime()
            throws Exception {
        RepeatedFixtures.ScriptedScenario write = RepeatedFixtures.write();
        RepeatedFixtures.ScriptedScenario tenants = RepeatedFixtures.tenants();

        RepeatedFixtures.run(new BenchListener() {}, write, tenants);

        assertThat(write.calls).containsExactly(
                "lanes/64 #1", "hikari/64 #1", "lanes/64 #2", "hikari/64 #2",
                "lanes/64 #3", "hikari/64 #3",
                "lanes/1 #1", "raw/1 #1", "lanes/1 #2", "raw/1 #2", "lanes/1 #3", "raw/1 #3");
        assertThat(tenants.calls).containsExactly(
                "lanes/16 #1", "raw/16 #1", "lanes/16 #2", "raw/16 #2", "lanes/16 #3", "raw/16 #3");
    }

    @Test
    void everyRepetitionIsReportedAsItFinishesAndEachSystemOnceItsRepetitionsAreDone()
            throws Exception {
        List<String> events = new ArrayList<>();
        BenchListener recorder = new BenchListener() {
            @Override
            public void benchStarting(int runs) {
                events.add("bench " + runs);
            }

            @Override
            public void runStarting(String label, Duration expected) {
                events.add("start " + label + " (" + ReportTable.human(expected) + ")");
            }

            @Override
            public void runFinished(RunResult run) {
                events.add("run " + run.system() + " #" + run.repetition());
            }

            @Override
            public void systemFinished(List<RunResult> repetitions) {
                events.add("done " + repetitions.get(0).system() + " x" + repetitions.size());
            }

            @Override
            public void scenarioFinished(Scenario scenario, List<Comparison> comparisons) {
                events.add("ratios " + scenario.id() + " " + comparisons.size());
            }
        };

        BenchReport report = RepeatedFixtures.run(recorder, RepeatedFixtures.tenants());

        assertThat(events).containsExactly(
                // 1 comparison, 2 sides, 3 repetitions
                "bench 6",
                "start tenants: lanes, 16 threads, NORMAL, repeat 1/3 (6s)", "run lanes #1",
                "start tenants: raw, 16 threads, NORMAL, repeat 1/3 (6s)", "run raw #1",
                "start tenants: lanes, 16 threads, NORMAL, repeat 2/3 (6s)", "run lanes #2",
                "start tenants: raw, 16 threads, NORMAL, repeat 2/3 (6s)", "run raw #2",
                "start tenants: lanes, 16 threads, NORMAL, repeat 3/3 (6s)", "run lanes #3",
                // Lanes' rows need not wait for the baseline's last run
                "done lanes x3",
                "start tenants: raw, 16 threads, NORMAL, repeat 3/3 (6s)", "run raw #3",
                "done raw x3",
                "ratios tenants 1");
        // every repetition's raw figures, in the order they ran, numbered
        assertThat(report.runs()).extracting(r -> r.system() + " #" + r.repetition())
                .containsExactly("lanes #1", "raw #1", "lanes #2", "raw #2", "lanes #3", "raw #3");
        assertThat(report.settings().repeat()).isEqualTo(3);
        assertThat(report.comparisons()).singleElement()
                .satisfies(c -> assertThat(c.repetitions()).isEqualTo(3));
    }

    @Test
    void progressCountsEveryRepetition() throws Exception {
        StringWriter err = new StringWriter();
        Progress progress = Progress.forConsole(false, new PrintWriter(new StringWriter()),
                new PrintWriter(err));

        RepeatedFixtures.run(progress.around(new BenchListener() {}), RepeatedFixtures.write());
        progress.close();

        String lines = err.toString();
        // 2 comparisons x 2 sides x 3 repetitions
        assertThat(lines).startsWith(String.format(
                "[1/12] write: lanes, 64 threads, NORMAL, repeat 1/3 (6s)%n"
                        + "[2/12] write: hikari, 64 threads, NORMAL, repeat 1/3 (6s)%n"
                        + "[3/12] write: lanes, 64 threads, NORMAL, repeat 2/3 (6s)%n"));
        assertThat(lines).contains("[12/12] write: raw, 1 thread, NORMAL, repeat 3/3 (6s)");
    }

    @Test
    void withoutRepeatTheLabelsAndTheTotalAreAsBefore() throws Exception {
        BenchOptions once = new BenchOptions(List.of(Scenario.WRITE), null, Duration.ofSeconds(5),
                Duration.ofSeconds(1), 1, null, 1000, null, null, null, null, null,
                BenchOptions.DEFAULT_SAMPLE_INTERVAL);
        RepeatedFixtures.ScriptedScenario write = new RepeatedFixtures.ScriptedScenario(
                Scenario.WRITE, "one of each");
        write.configuration(List.of(RepeatedFixtures.write().runsOfLanes().get(0)),
                List.of(ReportFixtures.run(Scenario.WRITE, "", "hikari", 64, 1, 1, 1, Map.of())));
        List<String> labels = new ArrayList<>();

        BenchSuite suite = new BenchSuite(once, List.of(write));
        BenchReport report = suite.run(ReportFixtures.environment(), new BenchListener() {
            @Override
            public void runStarting(String label, Duration expected) {
                labels.add(label);
            }
        });

        assertThat(suite.plannedRuns()).isEqualTo(2);
        assertThat(labels).containsExactly(
                "write: lanes, 64 threads, NORMAL", "write: hikari, 64 threads, NORMAL");
        assertThat(report.runs()).extracting(RunResult::repetition).containsExactly(1, 1);
    }
}
