package dev.lanes.replication;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The child process of {@link LitestreamCrashIT}: opens its database in {@link
 * CheckpointMode#EXTERNAL} mode, creates the table, prints {@value #READY}, waits for a line on
 * stdin (the test sends it once Litestream replicates the database), then writes two-row
 * requests ({@link Requests#write}) from {@value #WRITERS} threads, paced to a combined rate or
 * as fast as they can, each also running {@link #WORK} in its transaction, until it is killed.
 * Around each write it prints one flushed line: {@code "start <id>"} before the write is handed
 * to Lanes, {@code "ack <id>"} after it returned. The lines are printed under one lock, so their
 * order is their real-time order: an {@code ack} line before a {@code start} line means that
 * write committed before the other began.
 *
 * <p>Arguments: the database path, the combined rate in requests per second (0: unpaced).
 * Logging goes to stderr; stdout carries only these lines.
 */
public final class ReplicationCrashChild {
    static final String READY = "ready";
    static final String START = "start ";
    static final String ACK = "ack ";
    static final int WRITERS = 8;
    /**
     * CPU work inside each request's transaction (a fraction of a millisecond), so that the
     * writer lane spends much of its time inside a transaction and the kill is likely to land in
     * one, without adding WAL to replicate.
     */
    static final String WORK = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
            + "WHERE i < 1000) SELECT sum(i) FROM n";

    private ReplicationCrashChild() {}

    public static void main(String[] args) throws java.io.IOException {
        Path path = Path.of(args[0]);
        int rate = Integer.parseInt(args[1]);
        long slotNanos = rate == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) * WRITERS / rate;
        PrintStream out = System.out;
        Lanes lanes = Lanes.builder().name("crash-child").build();
        Database db = lanes.open(path,
                DatabaseOptions.builder().checkpointMode(CheckpointMode.EXTERNAL).build());
        db.execute(Requests.SCHEMA);
        print(out, READY);
        if (new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                java.nio.charset.StandardCharsets.UTF_8)).readLine() == null) {
            return; // the test went away
        }
        AtomicLong ids = new AtomicLong();
        for (int t = 0; t < WRITERS; t++) {
            Thread writer = new Thread(() -> {
                long slot = System.nanoTime();
                while (true) {
                    if (slotNanos > 0) {
                        slot = Math.max(slot + slotNanos, System.nanoTime() - slotNanos);
                        long wait = slot - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait); // pacing, not ordering
                        }
                    }
                    long id = ids.incrementAndGet();
                    print(out, START + id);
                    db.write(c -> {
                        Requests.write(c, id);
                        try (var s = c.prepareStatement(WORK); var rs = s.executeQuery()) {
                            rs.next(); // keeps the transaction open a while, writing nothing
                        }
                        return null;
                    });
                    print(out, ACK + id);
                }
            }, "crash-writer-" + t);
            writer.start();
        }
    }

    private static void print(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
