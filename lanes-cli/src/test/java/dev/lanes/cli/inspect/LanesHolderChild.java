package dev.lanes.cli.inspect;

import dev.lanes.Database;
import dev.lanes.Lanes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The owner process of {@link InspectCommandTest}: opens the database given as its argument
 * through a Lanes runtime, writes a row, prints {@code READY} and holds the database until a line
 * (or the end) arrives on standard input.
 */
public final class LanesHolderChild {
    private LanesHolderChild() {}

    public static void main(String[] args) throws Exception {
        try (Lanes lanes = Lanes.builder().name("holder").maxThreads(2).build()) {
            Database db = lanes.open(Path.of(args[0]));
            db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
            db.execute("INSERT INTO t(v) VALUES ('from-child')");
            System.out.println("READY");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}
