package dev.lanes;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link StreamTest}: fills a table with {@code rows} rows of about 200 bytes
 * (far more than its heap would hold as a list) and streams them back, printing the count and
 * the sum of the ids. Run with {@code -Xmx64m}; an accumulated result would fail with an
 * OutOfMemoryError.
 */
public final class StreamChild {
    private StreamChild() {}

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        long rows = Long.parseLong(args[1]);
        try (Lanes lanes = Lanes.builder().name("stream-child").maxThreads(2).build()) {
            Database db = lanes.open(file);
            db.execute("CREATE TABLE big(id INTEGER PRIMARY KEY, pad TEXT)");
            db.execute("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?)"
                    + " INSERT INTO big SELECT i, hex(randomblob(100)) FROM s", rows);
            AtomicLong sum = new AtomicLong();
            long n = db.stream("SELECT id, pad FROM big ORDER BY id", null, row -> {
                if (row.getString("pad").length() != 200) {
                    throw new IllegalStateException("row " + row.getLong("id"));
                }
                sum.addAndGet(row.getLong("id"));
            });
            System.out.println("STREAMED " + n + " rows, sum " + sum.get()
                    + ", max heap " + Runtime.getRuntime().maxMemory());
        }
    }
}
