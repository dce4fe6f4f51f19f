package dev.lanes.cli.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs a {@link Workload} on {@code threads} threads (platform threads, unless made with another
 * {@link ThreadFactory}, such as {@link VirtualThreads#factory()}), each repeating its {@link
 * Operation} as fast as the system answers, for a warm-up and then a measured window; optionally
 * with one more <em>background</em> thread running another workload alongside (the concurrent
 * writer of the read scenario), whose successes are counted but whose latencies are not.
 *
 * <p>Timing: the threads start and open their operations first, then meet at a barrier, so
 * neither thread start-up nor connection opening is measured. The last one to arrive fixes the
 * window ({@code warmup} from now, then {@code duration}) before any is released; every thread
 * stops by itself once the window has ended, so the calling thread only joins them and never
 * sleeps to keep time. A request belongs to the window its completion falls into, the usual rule
 * for throughput: {@code requests / duration} is then the rate of answers under full load.
 *
 * <p>CPU: the process CPU time is sampled when the window starts and when it ends, by the first
 * measuring thread to begin a request after its start and the first to see it over (no thread
 * wakes just to sample), so the figure is the window's give or take one request at each end, and
 * excludes the warm-up. {@link Measurement#cpuWallNanos()} is the time between the samples.
 *
 * <p>Concurrency: each thread owns its latency recorders, error tally and counters; the calling
 * thread reads them only after {@link Thread#join()}, which makes them visible. The window is set
 * by the barrier's action, which happens before the barrier releases any thread. Each CPU sample
 * is set at most once, by compare-and-set from null; the calling thread reads both after the
 * joins.
 */
final class WorkloadRunner {
    private final Duration warmup;
    private final Duration duration;
    private final ThreadFactory threads;

    /** A runner on platform threads. */
    WorkloadRunner(Duration warmup, Duration duration) {
        this(warmup, duration, Thread::new);
    }

    /** A runner whose threads {@code threads} makes (unstarted; the runner names them). */
    WorkloadRunner(Duration warmup, Duration duration, ThreadFactory threads) {
        this.warmup = Objects.requireNonNull(warmup, "warmup");
        this.duration = Objects.requireNonNull(duration, "duration");
        this.threads = Objects.requireNonNull(threads, "threads");
    }

    /**
     * Told the measured window once it is fixed, before any thread is released: what a scenario
     * measures beside the requests (events of the runtime) belongs to the run when it falls into
     * the window, the rule requests follow.
     */
    @FunctionalInterface
    interface WindowListener {
        /** The window is {@code (start, end]}, in {@link System#nanoTime()} instants. */
        void measuring(long start, long end);
    }

    /** Runs {@code workload} on {@code threads} threads. */
    Measurement run(String name, Workload workload, int threads) throws Exception {
        return run(name, workload, threads, (Workload) null);
    }

    /** Runs {@code workload} on {@code threads} threads, telling {@code listener} the window. */
    Measurement run(String name, Workload workload, int threads, WindowListener listener)
            throws Exception {
        return run(name, workload, threads, null, listener);
    }

    /**
     * Runs {@code workload} on {@code threads} threads and, when {@code background} is not null,
     * one background thread beside them.
     *
     * @throws IllegalStateException when a thread could not open its operation or died of an
     *     {@link Error}: the run is void
     */
    Measurement run(String name, Workload workload, int threads, Workload background)
            throws Exception {
        return run(name, workload, threads, background, null);
    }

    private Measurement run(String name, Workload workload, int threads, Workload background,
            WindowListener listener) throws Exception {
        int all = threads + (background == null ? 0 : 1);
        // loads the management beans and initialises the classes every client first needs
        // inside the window (the sample's, the latency recorder's) now: the first sample would
        // otherwise spend part of the window doing it, on a measuring thread, and many threads
        // loading or initialising one class at once wait for one another (pinned, when they are
        // virtual threads)
        new CpuSample();
        new LatencyRecorder();
        AtomicReference<Window> window = new AtomicReference<>();
        CyclicBarrier start = new CyclicBarrier(all, () -> {
            Window w = Window.startingNow(warmup, duration);
            window.set(w);
            if (listener != null) {
                listener.measuring(w.start, w.end);
            }
        });
        List<Worker> workers = new ArrayList<>(all);
        List<Thread> running = new ArrayList<>(all);
        try {
            for (int i = 0; i < all; i++) {
                boolean measured = i < threads;
                Worker worker = new Worker(measured ? workload : background, i, measured, start,
                        window);
                Thread thread = this.threads.newThread(worker);
                thread.setName(
                        "bench-" + name + "-" + (measured ? String.valueOf(i) : "background"));
                thread.start();
                workers.add(worker);
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
        return measurement(name, workers, threads, background != null, window.get());
    }

    /** What the workers measured, the background thread's count apart. */
    private Measurement measurement(String name, List<Worker> workers, int threads,
            boolean background, Window w) {
        LatencyRecorder latency = new LatencyRecorder();
        Map<String, LatencyRecorder> byKind = new HashMap<>();
        ErrorTally errors = new ErrorTally();
        long acknowledged = 0;
        int served = 0;
        long backgroundOperations = background ? 0 : -1;
        Throwable firstCrash = firstCrash(workers);
        if (firstCrash != null) {
            throw new IllegalStateException(
                    name + ": a bench thread failed, the run is void: " + firstCrash, firstCrash);
        }
        for (int i = 0; i < workers.size(); i++) {
            Worker worker = workers.get(i);
            if (i < threads) {
                worker.byKind.forEach((kind, recorder) -> {
                    latency.add(recorder);
                    byKind.computeIfAbsent(kind, k -> new LatencyRecorder()).add(recorder);
                });
                errors.add(worker.errors);
                acknowledged += worker.acknowledged;
                served += worker.inWindow > 0 ? 1 : 0;
            } else {
                backgroundOperations = worker.inWindow;
            }
        }
        CpuSample first = w == null ? null : w.cpuAtStart.get();
        CpuSample last = w == null ? null : w.cpuAtEnd.get();
        return new Measurement(duration.toNanos() / 1e9, latency, byKind, errors, acknowledged,
                backgroundOperations, cpuNanos(first, last),
                known(first, last) ? last.wallNanos - first.wallNanos : 0,
                w == null ? null : w.startedAt, served);
    }

    private static boolean known(CpuSample first, CpuSample last) {
        return first != null && last != null && first.cpuNanos >= 0 && last.cpuNanos >= 0;
    }

    /** The process CPU time between the window's two samples, or unavailable. */
    private static long cpuNanos(CpuSample first, CpuSample last) {
        return known(first, last) ? last.cpuNanos - first.cpuNanos : ProcessCpu.UNAVAILABLE;
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** The process CPU time at one instant of {@link System#nanoTime()}. */
    private static final class CpuSample {
        final long wallNanos = System.nanoTime();
        final long cpuNanos = ProcessCpu.nanos();
    }

    /**
     * The measured window, in {@link System#nanoTime()} instants: {@code (start, end]}, and the
     * process CPU time sampled at its ends, each once.
     */
    private static final class Window {
        final long start;
        final long end;
        /** The wall-clock instant of {@link #start}, for events stamped on that clock (JFR's). */
        final Instant startedAt;
        final AtomicReference<CpuSample> cpuAtStart = new AtomicReference<>();
        final AtomicReference<CpuSample> cpuAtEnd = new AtomicReference<>();

        private Window(long start, long end, Instant startedAt) {
            this.start = start;
            this.end = end;
            this.startedAt = startedAt;
        }

        static Window startingNow(Duration warmup, Duration duration) {
            Instant now = Instant.now();
            long start = System.nanoTime() + warmup.toNanos();
            return new Window(start, start + duration.toNanos(), now.plus(warmup));
        }

        boolean contains(long instant) {
            return instant - start > 0 && instant - end <= 0;
        }

        boolean isOver(long instant) {
            return instant - end >= 0;
        }

        boolean hasStarted(long instant) {
            return instant - start > 0;
        }

        /** Takes the CPU sample {@code at} holds, unless a thread took it already. */
        static void sampleOnce(AtomicReference<CpuSample> at) {
            if (at.get() == null) {
                at.compareAndSet(null, new CpuSample());
            }
        }
    }

    /** One thread's loop and its private tallies. */
    /**
     * The failure that voids a run: a worker's own failure rather than the broken start barrier
     * it caused in the others (null when none failed).
     */
    private static Throwable firstCrash(List<Worker> workers) {
        Throwable broken = null;
        for (Worker worker : workers) {
            if (worker.crash instanceof java.util.concurrent.BrokenBarrierException) {
                broken = broken == null ? worker.crash : broken;
            } else if (worker.crash != null) {
                return worker.crash;
            }
        }
        return broken;
    }

    private static final class Worker implements Runnable {
        // linked when the class is initialised, on the calling thread, not by many threads at
        // once at their first request
        private static final Function<String, LatencyRecorder> NEW_RECORDER =
                kind -> new LatencyRecorder();

        private final Workload workload;
        private final int index;
        private final boolean measured;
        private final CyclicBarrier start;
        private final AtomicReference<Window> window;
        final Map<String, LatencyRecorder> byKind = new HashMap<>();
        final ErrorTally errors = new ErrorTally();
        long acknowledged;
        long inWindow;
        Throwable crash;

        Worker(Workload workload, int index, boolean measured, CyclicBarrier start,
                AtomicReference<Window> window) {
            this.workload = workload;
            this.index = index;
            this.measured = measured;
            this.start = start;
            this.window = window;
        }

        @Override
        public void run() {
            Operation operation = null;
            try {
                try {
                    operation = workload.open(index);
                } catch (Exception | Error e) {
                    crash = e;
                }
                // arrive even after a failed open: the others must not wait for this thread
                // forever; the run is void anyway (see run())
                start.await();
                if (crash == null) {
                    loop(operation, window.get(), measured);
                }
            } catch (Throwable t) {
                // only a broken start or an Error gets here, and neither is a result
                crash = t;
            } finally {
                closeQuietly(operation);
            }
        }

        private void loop(Operation operation, Window w, boolean samplesCpu) {
            String lastKind = null;
            LatencyRecorder lastRecorder = null;
            // once this thread saw the window start, it stops looking (a local, not a volatile)
            boolean started = !samplesCpu;
            while (true) {
                long begin = System.nanoTime();
                if (w.isOver(begin)) {
                    if (samplesCpu) {
                        Window.sampleOnce(w.cpuAtStart); // a window no request began in
                        Window.sampleOnce(w.cpuAtEnd);
                    }
                    return;
                }
                if (!started && w.hasStarted(begin)) {
                    started = true;
                    Window.sampleOnce(w.cpuAtStart);
                }
                String kind = null;
                Exception failure = null;
                try {
                    kind = operation.run();
                    acknowledged++;
                } catch (Exception e) {
                    // failures are results (SQLITE_BUSY is what a baseline is known for),
                    // counted by kind; the thread goes on
                    failure = e;
                }
                long end = System.nanoTime();
                if (!w.contains(end)) {
                    continue;
                }
                if (failure != null) {
                    errors.count(failure);
                    continue;
                }
                inWindow++;
                if (kind == null) {
                    kind = "request";
                }
                // kinds are constants: an identity check spares a map lookup per request
                if (kind != lastKind) {
                    lastKind = kind;
                    lastRecorder = byKind.computeIfAbsent(kind, NEW_RECORDER);
                }
                lastRecorder.record(end - begin);
            }
        }

        private void closeQuietly(Operation operation) {
            if (operation == null) {
                return;
            }
            try {
                operation.close();
            } catch (Exception e) {
                if (crash == null) {
                    crash = e;
                }
            }
        }
    }
}
