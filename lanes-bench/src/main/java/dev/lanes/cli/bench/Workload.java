package dev.lanes.cli.bench;

/**
 * What the threads of a run do: each thread opens its own {@link Operation} before the run
 * starts (so opening connections is never measured) and repeats it until the run ends.
 */
@FunctionalInterface
interface Workload {
    /**
     * Opens the operation of thread {@code thread} (0-based), on that thread.
     *
     * @throws Exception when it cannot be opened: the run is then void
     */
    Operation open(int thread) throws Exception;
}
