package dev.lanes;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child process of {@link CrashSafetyTest}: writes requests of two rows each from 16
 * threads, forever, and prints {@code "ack <id>"} for every request whose write returned (one
 * line, flushed) until it is killed. Arguments: database path, {@link Synchronous} level.
 */
public final class CrashChild {
    /** Prefix of an acknowledgement line; anything else on stdout (a logger) is not an ack. */
    static final String ACK = "ack ";

    private CrashChild() {}

    public static void main(String[] args) {
        Path path = Path.of(args[0]);
        Synchronous synchronous = Synchronous.valueOf(args[1]);
        PrintStream out = System.out;
        Lanes lanes = Lanes.builder().name("crash").build();
        Database db = lanes.open(path, DatabaseOptions.builder().synchronous(synchronous).build());
        db.execute("CREATE TABLE IF NOT EXISTS req(id INTEGER, part INTEGER, "
                + "payload TEXT, PRIMARY KEY (id, part))");
        AtomicLong ids = new AtomicLong();
        for (int t = 0; t < 16; t++) {
            Thread writer = new Thread(() -> {
                while (true) {
                    long id = ids.incrementAndGet();
                    db.write(c -> {
                        try (var s = c.prepareStatement("INSERT INTO req VALUES (?, ?, ?)")) {
                            for (int part = 1; part <= 2; part++) {
                                s.setLong(1, id);
                                s.setInt(2, part);
                                s.setString(3, "payload-" + id + "-" + part + "-" + "x".repeat(200));
                                s.executeUpdate();
                            }
                        }
                        return null;
                    });
                    synchronized (out) {
                        out.println(ACK + id);
                        out.flush();
                    }
                }
            }, "crash-writer-" + t);
            writer.start();
        }
    }
}
