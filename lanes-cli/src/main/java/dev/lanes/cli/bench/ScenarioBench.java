package dev.lanes.cli.bench;

/**
 * The runs of one {@link Scenario}: how many there are (so progress can be shown against a
 * total) and how to run them, each on fresh database files in the bench's scratch directory.
 */
interface ScenarioBench {

    /** Where a scenario hands what it measured, as soon as it is known. */
    interface Sink {
        /** A measured run begins now (its warm-up first). */
        void runStarting(String label);

        /** Long unmeasured work, such as creating databases, is going on. */
        void status(String text);

        /** A run finished. */
        void runFinished(RunResult run);

        /** Two runs of the scenario compared. */
        void compared(Comparison comparison);
    }

    Scenario scenario();

    /** What its runs compare, in one line: threads, systems, levels. */
    String description();

    /** How many measured runs {@link #run} makes. */
    int plannedRuns();

    /** Makes every run, handing each result to {@code sink}. */
    void run(Sink sink) throws Exception;
}
