package dev.lanes.bench;

import dev.lanes.Database;
import dev.lanes.Lanes;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The Lanes side every benchmark shares: a runtime with one database, in a temporary directory
 * removed at the end of the trial. Each benchmark's state extends it and opens it in its own
 * {@code @Setup}, naming the directory and the rows to preload.
 */
public abstract class LanesFixture {
    Path dir;
    Lanes lanes;
    Database db;

    void open(String name, int rows) {
        dir = BenchSupport.tempDir(name);
        lanes = Lanes.create();
        db = BenchSupport.openLanes(lanes, dir.resolve("lanes.db"), rows);
    }

    @TearDown(Level.Trial)
    public void close() {
        BenchSupport.close(db);
        BenchSupport.close(lanes);
        BenchSupport.delete(dir);
    }
}
