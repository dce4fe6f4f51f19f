package dev.lanes.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Counts the JDK's {@value #EVENT} events over one run, through the JDK's own flight recorder
 * ({@code jdk.jfr}): a virtual thread that blocked while pinned to its carrier thread (inside
 * native code, or, before JDK 24, inside {@code synchronized}), so that the carrier could run
 * nothing else meanwhile. The event is enabled with a threshold of 0 ms, not its default of 20
 * ms, so every such block counts, however short. A recording holds only this event; it is
 * dumped to a file in the bench's scratch directory and read back once the run is over, and only
 * the events that began within the measured window are counted. A block inside class loading
 * ({@code ClassLoader.loadClass} on the event's stack: the first use of a class, whichever
 * library it is in, can wait for the class loader pinned, once) is not counted: what is counted
 * is a virtual thread that blocks pinned in what the system under test does.
 *
 * <p>Not thread-safe: the bench's one thread starts, counts and closes it.
 */
final class PinnedEvents implements AutoCloseable {
    /** The JFR event counted. */
    static final String EVENT = "jdk.VirtualThreadPinned";

    private final Recording recording;
    private final Path dump;

    private PinnedEvents(Recording recording, Path dump) {
        this.recording = recording;
        this.dump = dump;
    }

    /** Starts recording {@value #EVENT} now; {@code dump} is where it is written when counted. */
    static PinnedEvents start(Path dump) {
        Recording recording = new Recording();
        try {
            recording.setName("lanes-bench-pinned");
            recording.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
            recording.setToDisk(true);
            recording.start();
            return new PinnedEvents(recording, dump);
        } catch (RuntimeException e) {
            recording.close();
            throw e;
        }
    }

    /** Stops recording and counts the events that began in {@code [from, to]}. */
    long countWithin(Instant from, Instant to) throws IOException {
        recording.stop();
        recording.dump(dump);
        long count = 0;
        try (RecordingFile file = new RecordingFile(dump)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                Instant start = event.getStartTime();
                if (event.getEventType().getName().equals(EVENT) && !start.isBefore(from)
                        && !start.isAfter(to) && !inClassLoading(event)) {
                    count++;
                }
            }
        } finally {
            Files.deleteIfExists(dump);
        }
        return count;
    }

    /** Whether the event's virtual thread blocked while loading a class. */
    static boolean inClassLoading(RecordedEvent event) {
        RecordedStackTrace stack = event.getStackTrace();
        if (stack == null) {
            return false;
        }
        for (RecordedFrame frame : stack.getFrames()) {
            RecordedMethod method = frame.getMethod();
            if (method != null && method.getName().equals("loadClass")
                    && method.getType().getName().equals(ClassLoader.class.getName())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        recording.close();
    }
}
