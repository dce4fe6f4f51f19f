package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the write workload against one {@link BenchSystem}: {@code threads} platform threads, each
 * inserting one row at a time as fast as the system acknowledges it, for a warm-up and then a
 * measured window.
 *
 * <p>Timing: the threads start first and meet at a barrier, so thread start-up is not measured.
 * The last one to arrive fixes the window ({@code warmup} from now, then {@code duration}) before
 * any is released; every thread then stops by itself once the window has ended, so the calling
 * thread only joins them and never sleeps to keep time. A request belongs to the window its
 * completion falls into, the usual rule for throughput: {@code writes / duration} is then the rate
 * of acknowledgements while the system was under full load.
 *
 * <p>Concurrency: each writer thread owns its latency recorder, error tally and counter; the
 * calling thread reads them only after {@link Thread#join()}, which makes them visible. The window
 * is set by the barrier's action, which happens before the barrier releases any thread.
 */
final class WorkloadRunner {
    // about 100 bytes of text per row, as the bench promises
    private static final int PAYLOAD_CHARS = 100;

    private final int threads;
    private final Duration warmup;
    private final Duration duration;

    WorkloadRunner(int threads, Duration warmup, Duration duration) {
        this.threads = threads;
        this.warmup = warmup;
        this.duration = duration;
    }

    /** Runs the workload, then checks the table against the acknowledged writes. */
    RunResult run(BenchSystem system, Synchronous synchronous) throws Exception {
        AtomicReference<Window> window = new AtomicReference<>();
        CyclicBarrier start =
                new CyclicBarrier(threads, () -> window.set(Window.startingNow(warmup, duration)));
        List<Writer> writers = new ArrayList<>(threads);
        List<Thread> running = new ArrayList<>(threads);
        try {
            for (int i = 0; i < threads; i++) {
                Writer writer = new Writer(system, payload(i), start, window);
                Thread thread = new Thread(writer, "bench-" + system.name() + "-" + i);
                thread.start();
                writers.add(writer);
                running.add(thread);
            }
        } catch (RuntimeException | Error e) {
            // typically "unable to create native thread" for a huge --threads: the threads
            // already waiting at the barrier would wait forever, so break it and let them end
            start.reset();
            joinAll(running);
            throw e;
        }
        joinAll(running);

        LatencyRecorder latency = new LatencyRecorder();
        ErrorTally errors = new ErrorTally();
        long acknowledged = 0;
        for (Writer writer : writers) {
            if (writer.crash != null) {
                throw new IllegalStateException(
                        system.name() + ": a writer thread died, the run is void", writer.crash);
            }
            latency.add(writer.latency);
            errors.add(writer.errors);
            acknowledged += writer.acknowledged;
        }
        long rows = system.countRows();
        return RunResult.of(
                synchronous, system.name(), threads, duration, latency, errors, acknowledged, rows);
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** A fixed payload per thread: its content does not matter, only its size. */
    private static String payload(int thread) {
        Random random = new Random(thread);
        StringBuilder s = new StringBuilder(PAYLOAD_CHARS);
        for (int i = 0; i < PAYLOAD_CHARS; i++) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }

    /** The measured window, in {@link System#nanoTime()} instants: {@code (start, end]}. */
    private static final class Window {
        final long start;
        final long end;

        private Window(long start, long end) {
            this.start = start;
            this.end = end;
        }

        static Window startingNow(Duration warmup, Duration duration) {
            long start = System.nanoTime() + warmup.toNanos();
            return new Window(start, start + duration.toNanos());
        }

        boolean contains(long instant) {
            return instant - start > 0 && instant - end <= 0;
        }

        boolean isOver(long instant) {
            return instant - end >= 0;
        }
    }

    /** One writer thread's loop and its private tallies. */
    private static final class Writer implements Runnable {
        private final BenchSystem system;
        private final String payload;
        private final CyclicBarrier start;
        private final AtomicReference<Window> window;
        final LatencyRecorder latency = new LatencyRecorder();
        final ErrorTally errors = new ErrorTally();
        long acknowledged;
        Throwable crash;

        Writer(BenchSystem system, String payload, CyclicBarrier start, AtomicReference<Window> window) {
            this.system = system;
            this.payload = payload;
            this.start = start;
            this.window = window;
        }

        @Override
        public void run() {
            try {
                start.await();
                Window w = window.get();
                while (true) {
                    long begin = System.nanoTime();
                    if (w.isOver(begin)) {
                        return;
                    }
                    Exception failure = null;
                    try {
                        system.insert(payload);
                        acknowledged++;
                    } catch (Exception e) {
                        // failures are results (SQLITE_BUSY is what the baseline is known for),
                        // counted by kind; the thread goes on writing
                        failure = e;
                    }
                    long end = System.nanoTime();
                    if (w.contains(end)) {
                        if (failure == null) {
                            latency.record(end - begin);
                        } else {
                            errors.count(failure);
                        }
                    }
                }
            } catch (Throwable t) {
                // only a broken start or an Error gets here, and neither is a result: it voids
                // the run (see run())
                crash = t;
            }
        }
    }
}
