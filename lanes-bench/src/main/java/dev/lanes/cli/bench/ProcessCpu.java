package dev.lanes.cli.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The CPU time this process consumed, and what it comes to per acknowledged request and as a
 * share of the machine: the cost a throughput figure hides (a system can match another's rate
 * while burning twice its CPU, which on a shared server is throughput lost elsewhere). Every
 * thread of the process counts: the measured threads, the runtime's pool, the JIT and the GC,
 * since all of them are what serving the requests cost. Only this process counts: the dqlite
 * scenario's nodes, processes of their own, are not in it.
 *
 * <p>The figures are {@code null} when the JVM cannot tell the process CPU time (its {@code
 * com.sun.management.OperatingSystemMXBean} is missing or returns -1), or when nothing was
 * acknowledged; never 0 for "unknown".
 */
final class ProcessCpu {
    /** What {@link #nanos()} returns when the JVM cannot tell. */
    static final long UNAVAILABLE = -1;

    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

    private ProcessCpu() {}

    /** The CPU time this process has consumed so far, in nanoseconds, or {@link #UNAVAILABLE}. */
    static long nanos() {
        if (OS instanceof com.sun.management.OperatingSystemMXBean) {
            long nanos = ((com.sun.management.OperatingSystemMXBean) OS).getProcessCpuTime();
            return nanos < 0 ? UNAVAILABLE : nanos;
        }
        return UNAVAILABLE;
    }

    /**
     * Microseconds of process CPU time per acknowledged request: {@code cpuNanos / 1000 /
     * operations}; null when the CPU time is unknown (negative) or nothing was acknowledged.
     */
    static Double microsPerOperation(long cpuNanos, long operations) {
        if (cpuNanos < 0 || operations <= 0) {
            return null;
        }
        return cpuNanos / 1e3 / operations;
    }

    /**
     * The share of the machine's processors the process kept busy: CPU seconds over wall seconds
     * over processors, 1 for all of them all the time; null when the CPU time is unknown or no
     * time passed.
     */
    static Double utilisation(long cpuNanos, long wallNanos, int processors) {
        if (cpuNanos < 0 || wallNanos <= 0 || processors <= 0) {
            return null;
        }
        return cpuNanos / (double) wallNanos / processors;
    }
}
