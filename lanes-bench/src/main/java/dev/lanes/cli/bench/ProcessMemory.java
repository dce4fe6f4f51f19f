package dev.lanes.cli.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The memory this process uses, for the tenants scenario's footprint: the Java heap in use after
 * a full collection, and the resident set size as Linux reports it in {@code /proc/self/status}
 * ({@code VmRSS}), which also counts SQLite's native page caches and thread stacks.
 */
final class ProcessMemory {
    private static final Path STATUS = Path.of("/proc/self/status");

    private ProcessMemory() {}

    /**
     * Used heap after asking for a full collection (twice, so that objects freed by finalization
     * or reference processing in the first are gone too). {@code System.gc()} is a request; with
     * the JDK's collectors and no {@code -XX:+DisableExplicitGC} it is honoured.
     */
    static long heapUsedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The heap the JVM has committed now: what it holds from the OS for the heap. */
    static long heapCommitted() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    }

    /** The resident set size in bytes, or -1 when this system has no {@code /proc/self/status}. */
    static long residentSetBytes() {
        try {
            return parseVmRss(Files.readAllLines(STATUS));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The {@code VmRSS} line of a {@code /proc/<pid>/status} text, in bytes; -1 without one. */
    static long parseVmRss(List<String> statusLines) {
        for (String line : statusLines) {
            if (line.startsWith("VmRSS:")) {
                // "VmRSS:	  123456 kB": the kernel always reports kB (KiB)
                String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                return Long.parseLong(parts[0]) * 1024;
            }
        }
        return -1;
    }

    /** The soft limit on open files from /proc/self/limits, or -1 when it cannot be read. */
    static long maxOpenFiles() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] parts = line.substring("Max open files".length()).trim().split("\\s+");
                    return parts[0].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(parts[0]);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux, or an unexpected format: no limit known
        }
        return -1;
    }

    /** The descriptors this process has open, from /proc/self/fd, or -1 when it cannot be read. */
    static long openFiles() {
        try (java.util.stream.Stream<java.nio.file.Path> fds =
                java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }
}
