package dev.lanes;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link CorkCrashTest}: writes {@code pre} rows normally, corks, writes
 * {@code corked} rows, prints one line per acknowledged write ({@code pre <id>}, {@code corked
 * <id>}), then {@code ready}, and blocks until it is killed. Arguments: database path, number of
 * rows before the cork, number of rows while corked.
 */
public final class CorkCrashChild {
    private CorkCrashChild() {}

    public static void main(String[] args) throws IOException {
        Path path = Path.of(args[0]);
        int pre = Integer.parseInt(args[1]);
        int corked = Integer.parseInt(args[2]);
        PrintStream out = System.out;
        Lanes lanes = Lanes.builder().name("cork-crash").build();
        Database db = lanes.open(path);
        db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
        for (int id = 1; id <= pre; id++) {
            db.execute("INSERT INTO t(id, v) VALUES (?, 'pre')", id);
            out.println("pre " + id);
            out.flush();
        }
        db.cork();
        for (int id = pre + 1; id <= pre + corked; id++) {
            int row = id;
            db.write(c -> {
                try (var s = c.prepareStatement("INSERT INTO t(id, v) VALUES (?, ?)")) {
                    s.setInt(1, row);
                    s.setString(2, "corked-" + "x".repeat(2000));
                    return s.executeUpdate();
                }
            });
            out.println("corked " + id);
            out.flush();
        }
        out.println("ready");
        out.flush();
        // Hold the cork open until the parent kills this process.
        while (System.in.read() != -1) {
            // keep blocking
        }
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // keep waiting for the kill
            }
        }
    }
}
