package dev.lanes.cli.bench;

/**
 * The runs of one {@link Scenario}: how many comparisons it makes (so progress can be shown
 * against a total) and how to make them. A scenario says which configurations it compares and
 * how one run of each side is measured, on fresh database files in the bench's scratch
 * directory; how often and in which order the runs are made is the {@link Sink}'s to decide
 * ({@link BenchSuite}: {@code --repeat}, interleaved). The soak compares nothing: it runs once
 * per level and hands its samples and verdict to the sink as they come.
 */
interface ScenarioBench {

    /** Where a scenario hands its comparisons, and says what it is doing meanwhile. */
    interface Sink {
        /** A measured run begins now (its warm-up first); {@code label} says what runs. */
        void runStarting(String label);

        /** Long unmeasured work, such as creating databases, is going on. */
        void status(String text);

        /**
         * Compares Lanes with its baseline in one configuration: runs each side as many times as
         * the bench repeats, in the order the bench decides, hands every result and their ratios
         * on, and returns when all are done.
         */
        void compare(Side lanes, Side baseline) throws Exception;

        /** A soak's databases are open and its load begins now (after {@link #runStarting}). */
        void soakStarting(SoakResult.Setup setup);

        /** A soak took a sample: shown at once, since a soak runs for minutes. */
        void sampled(SoakSample sample);

        /** A soak ended, with every sample and its verdict. */
        void soaked(SoakResult result);
    }

    /** One system's measured run in one configuration. */
    @FunctionalInterface
    interface Side {
        /**
         * Measures one run: calls {@link Sink#runStarting} when its measured part begins, and
         * returns its result; {@code repetition} (from 1) is for naming the run's fresh files.
         */
        RunResult run(int repetition) throws Exception;
    }

    Scenario scenario();

    /** What its runs compare, in one line: threads, systems, levels. */
    String description();

    /** How many times {@link #run} calls {@link Sink#compare}. */
    int plannedComparisons();

    /** How many times {@link #run} calls {@link Sink#soaked}: none but in the soak. */
    default int plannedSoaks() {
        return 0;
    }

    /** Makes every comparison through {@code sink}. */
    void run(Sink sink) throws Exception;
}
