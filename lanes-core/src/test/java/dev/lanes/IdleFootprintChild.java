package dev.lanes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * The child JVM of {@link IdleFootprintTest}, and the measuring program behind its figure: the
 * heap one idle database costs, that is, a database open in a runtime that holds no SQLite
 * connection for it. It opens {@code warm-up} databases (so that classes, lambdas and the
 * runtime's own caches exist before the baseline), takes a class histogram of the live heap,
 * opens {@code count} more databases in the same runtime, lets them go idle, takes a second
 * histogram, and prints the growth per database: the total, then one line per class, largest
 * first.
 *
 * <p>Two kinds of idle: {@code opened} (never used: open returned, nothing ran) and {@code used}
 * (one write and one query each, on a runtime whose connection budget is so small that every
 * database but the last few has had its connections evicted, then past {@code idleRelease}, so
 * that no idle check is pending). The few databases that still hold connections add their
 * sqlite-jdbc objects to the figure, spread over {@code count}.
 *
 * <p>The histogram is HotSpot's {@code GC.class_histogram} (a full GC first), through the
 * DiagnosticCommand MBean; a JVM without it prints {@code UNSUPPORTED} and exits 0. Run by hand:
 * {@code java -cp <test class path> dev.lanes.IdleFootprintChild <dir> 20000 used 30}.
 */
public final class IdleFootprintChild {
    /** The connection budget: small, so that almost every database is evicted. */
    static final int BUDGET = 4;
    /** Databases opened (and used alike) before the baseline histogram. */
    static final int WARM_UP = 200;
    /** Short, so that the used databases' idle checks have all fired before the sample. */
    static final Duration IDLE_RELEASE = Duration.ofMillis(500);

    /** Histograms taken per measurement; see {@link #liveHistogram(Path)}. */
    static final int SAMPLES = 3;

    /** The histogram's last line: instances and bytes of every class. */
    private static final Pattern TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)");
    private static final Pattern ROW =
            Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    private IdleFootprintChild() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        boolean used = args[2].equals("used");
        int rows = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        String before = histogram();
        if (before == null) {
            System.out.println("UNSUPPORTED no GC.class_histogram diagnostic command");
            return;
        }
        Files.createDirectories(dir);
        DatabaseOptions options = DatabaseOptions.builder().idleRelease(IDLE_RELEASE).build();
        List<Database> open = new ArrayList<>(WARM_UP + count);
        try (Lanes lanes = Lanes.builder().name("footprint").maxThreads(2)
                .maxOpenConnections(BUDGET).build()) {
            for (int i = 0; i < WARM_UP; i++) {
                open.add(open(lanes, dir.resolve("warm-" + i + ".db"), options, used));
            }
            settle(lanes, used);
            Path baseline = liveHistogram(dir.resolve("baseline.histogram"));
            for (int i = 0; i < count; i++) {
                open.add(open(lanes, dir.resolve("tenant-" + i + ".db"), options, used));
            }
            settle(lanes, used);
            Path after = liveHistogram(dir.resolve("after.histogram"));
            report(parse(Files.readString(baseline)), parse(Files.readString(after)), count, rows,
                    lanes.diagnostics().openConnections());
        }
    }

    private static Database open(Lanes lanes, Path file, DatabaseOptions options, boolean used) {
        Database db = lanes.open(file, options);
        if (used) {
            db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
            db.execute("INSERT INTO t(v) VALUES (?)", "x");
            if (db.query("SELECT v FROM t").size() != 1) {
                throw new IllegalStateException(file + ": the row is missing");
            }
        }
        return db;
    }

    /** Waits until the pool ran everything queued, and the idle checks of used databases fired. */
    private static void settle(Lanes lanes, boolean used) throws InterruptedException {
        if (used) {
            Thread.sleep(IDLE_RELEASE.toMillis() * 3);
        }
        for (int quiet = 0; quiet < 3; ) {
            RuntimeDiagnostics d = lanes.diagnostics();
            boolean idle = d.busyThreads() == 0 && d.runnableForeground() == 0
                    && d.runnableBackground() == 0;
            quiet = idle ? quiet + 1 : 0;
            Thread.sleep(50);
        }
    }

    /**
     * Writes the smallest of {@link #SAMPLES} histograms to {@code file}. HotSpot skips the full
     * GC before a histogram when a thread holds the GC locker (a thread inside a JNI critical
     * section), and prints "pre-dump GC was skipped" to the log only; that histogram then counts
     * garbage too. Garbage only ever adds to a histogram, so the smallest one is the live heap.
     *
     * <p>The histograms are kept in files, not on the heap: a parsed histogram (a map entry, a
     * class name and a row per loaded class, some thousands of them) kept across the next one
     * would be counted in it, a few hundred bytes per database.
     */
    static Path liveHistogram(Path file) throws IOException {
        long smallest = Long.MAX_VALUE;
        for (int i = 0; i < SAMPLES; i++) {
            String sample = histogram();
            Matcher total = TOTAL.matcher(sample);
            if (!total.find()) {
                throw new IllegalStateException("a histogram without its Total line:\n" + sample);
            }
            long bytes = Long.parseLong(total.group(1));
            if (bytes < smallest) {
                smallest = bytes;
                Files.writeString(file, sample);
            }
        }
        return file;
    }

    /** The live heap's class histogram (after a full GC), or null without the command. */
    static String histogram() {
        try {
            return (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram", new Object[] {new String[0]},
                    new String[] {String[].class.getName()});
        } catch (Exception | LinkageError e) {
            return null;
        }
    }

    /**
     * Instances and bytes by class name, without the garbage collector's fillers: from JDK 21,
     * G1 fills the unused space it leaves in its regions with {@code jdk.internal.vm.FillerObject}
     * and arrays of {@code jdk.internal.vm.FillerElement}, which a class histogram lists although
     * nothing refers to them (on JDK 25 here, about 50 B per database of free space counted as
     * live).
     */
    static Map<String, long[]> parse(String histogram) {
        Map<String, long[]> classes = new HashMap<>();
        for (String line : histogram.split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.find() && !m.group(3).contains("jdk.internal.vm.Filler")) {
                long[] row = {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
                classes.merge(m.group(3), row, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
            }
        }
        return classes;
    }

    private static void report(Map<String, long[]> before, Map<String, long[]> after, int count,
            int rows, int openConnections) {
        List<Map.Entry<String, long[]>> growth = new ArrayList<>();
        long total = 0;
        long lanes = 0;
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long[] d = {e.getValue()[0] - b[0], e.getValue()[1] - b[1]};
            total += d[1];
            if (e.getKey().startsWith("dev.lanes.")) {
                lanes += d[1];
            }
            growth.add(Map.entry(e.getKey(), d));
        }
        growth.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));
        System.out.printf("TOTAL %.1f bytes per database (%d databases, %d connections open)%n",
                (double) total / count, count, openConnections);
        System.out.printf("LANES %.1f bytes per database in dev.lanes classes%n",
                (double) lanes / count);
        for (int i = 0; i < Math.min(rows, growth.size()); i++) {
            long[] d = growth.get(i).getValue();
            System.out.printf("CLASS %8.1f B %6.2f instances  %s%n", (double) d[1] / count,
                    (double) d[0] / count, growth.get(i).getKey());
        }
    }
}
