package dev.lanes.sandbox;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ResultTooLargeException;
import dev.lanes.Row;
import java.nio.file.Path;
import java.util.List;

/**
 * Child JVM of {@link ResultBombTest}, run with a small heap: queries ten million rows through
 * {@code db.query}, with a small {@code maxResultBytes} ({@code limited}) or with none ({@code
 * unlimited}: {@code Long.MAX_VALUE}), and prints what happened, one line per step, then whether the database still
 * takes a write and a read.
 */
public final class ResultBombChild {
    static final String TEN_MILLION_ROWS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
            + "SELECT x + 1 FROM c LIMIT 10000000) SELECT x, 'row number ' || x FROM c";

    private ResultBombChild() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        boolean limited = args[1].equals("limited");
        DatabaseOptions options = limited
                ? DatabaseOptions.builder().maxResultBytes(8L * 1024 * 1024).build()
                : DatabaseOptions.builder().maxResultBytes(Long.MAX_VALUE).build();
        try (Lanes lanes = Lanes.builder().name("bomb").maxThreads(2).build()) {
            Database db = lanes.open(dir.resolve(args[1] + ".db"), options);
            db.execute("CREATE TABLE IF NOT EXISTS t(v)");
            try {
                List<Row> rows = db.query(TEN_MILLION_ROWS);
                System.out.println("ROWS " + rows.size());
            } catch (ResultTooLargeException e) {
                System.out.println("RESULT_TOO_LARGE " + e.getMessage());
            } catch (LanesException e) {
                System.out.println("FAILED " + e.getClass().getSimpleName() + " " + causes(e));
            }
            db.execute("INSERT INTO t(v) VALUES (1)");
            long n = ((Number) db.query("SELECT count(*) FROM t").get(0).get(0)).longValue();
            System.out.println("HEALTHY " + n + " heap " + Runtime.getRuntime().maxMemory());
        } catch (OutOfMemoryError e) {
            System.out.println("OUT_OF_MEMORY outside any request");
            System.exit(3);
        }
    }

    private static String causes(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getClass().getSimpleName()).append(' ');
        }
        return b.toString().trim();
    }
}
