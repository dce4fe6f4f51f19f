package dev.lanes.types;

import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.Row;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real runtime and database for the type tests, with a table {@code v} whose columns cover
 * SQLite's affinities: {@code x} without a declared type (values stay as bound), {@code t TEXT},
 * {@code i INTEGER}, {@code r REAL}, {@code n NUMERIC}, {@code ts TIMESTAMP} (NUMERIC affinity, a
 * common declaration for dates) and {@code b BOOLEAN} (NUMERIC too).
 */
abstract class TypesFixture {
    static final List<String> COLUMNS = List.of("x", "t", "i", "r", "n", "ts", "b");

    @TempDir Path dir;
    Lanes lanes;
    Database db;

    @BeforeEach
    void openDatabase() {
        lanes = Lanes.builder().name("test").maxThreads(4).build();
        db = lanes.open(dir.resolve("types.db"));
        db.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, x, t TEXT, i INTEGER, r REAL, "
                + "n NUMERIC, ts TIMESTAMP, b BOOLEAN)");
    }

    @AfterEach
    void closeRuntime() {
        lanes.close();
    }

    /** Binds {@code value} into {@code column} of a new row and reads that row back. */
    Row stored(String column, Object value) {
        db.execute("INSERT INTO v(" + column + ") VALUES (?)", value);
        long id = db.query("SELECT max(id) AS id FROM v").get(0).getLong("id");
        return db.query("SELECT " + column + ", typeof(" + column + ") AS type FROM v WHERE id = ?",
                id).get(0);
    }

    /** The value SQLite computes for {@code expression} (with its arguments), as a row. */
    Row select(String expression, Object... args) {
        return db.query("SELECT " + expression + " AS v", args).get(0);
    }
}
