package dev.lanes.dqlite;

import dev.lanes.dqlite.testing.LocalCluster;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A short smoke run of commit rates on a 3-node loopback cluster (not a test, not a benchmark of
 * record): single-row commits one at a time, then transactions of 100 and 1,000 rows through a
 * prepared statement. Run from the module directory after {@code mvn test-compile}:
 *
 * <pre>
 * mvn -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) dev.lanes.dqlite.DqliteSmokeBench [seconds]
 * </pre>
 */
public final class DqliteSmokeBench {
    private DqliteSmokeBench() {}

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        try (LocalCluster cluster = TestCluster.start(3);
                DqliteSession session = cluster.client().connect("bench")) {
            session.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            single(session, "EXEC_SQL", seconds, () -> session.exec("INSERT INTO t(v) VALUES (?)", "x"));
            try (DqliteStatement insert = session.prepare("INSERT INTO t(v) VALUES (?)")) {
                single(session, "prepared EXEC", seconds, () -> session.exec(insert, "x"));
                for (int size : new int[] {100, 1000}) {
                    batched(session, insert, size, seconds);
                }
            }
        }
    }

    private static void single(DqliteSession session, String label, long seconds, Runnable commit) {
        long[] latencies = new long[1 << 20];
        int n = 0;
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end && n < latencies.length) {
            long t = System.nanoTime();
            commit.run();
            latencies[n++] = System.nanoTime() - t;
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        System.out.printf("single-row commits (%s): %d in %.1f s = %.0f/s, p50 %.2f ms, p99 %.2f ms%n",
                label, n, elapsed, n / elapsed, sorted[n / 2] / 1e6, sorted[(int) (n * 0.99)] / 1e6);
    }

    private static void batched(DqliteSession session, DqliteStatement insert, int size, long seconds) {
        long rows = 0;
        int transactions = 0;
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            session.exec("BEGIN");
            for (int k = 0; k < size; k++) {
                session.exec(insert, "x");
            }
            session.exec("COMMIT");
            rows += size;
            transactions++;
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.out.printf("%d rows per transaction: %d transactions in %.1f s = %.0f rows/s%n",
                size, transactions, elapsed, rows / elapsed);
    }
}
