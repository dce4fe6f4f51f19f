package dev.lanes.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.Statement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fixture code of the sandbox tests: a runtime, a database with a table, and the check that a
 * database came through an attack healthy. Every wait is bounded by {@link #WAIT}.
 */
final class Sandbox {
    static final Duration WAIT = Duration.ofSeconds(30);

    private Sandbox() {}

    static Lanes runtime() {
        return Lanes.builder().name("sandbox").maxThreads(8).build();
    }

    /** Opens {@code dir/name} and creates {@code t(id INTEGER PRIMARY KEY, v)}. */
    static Database openWithTable(Lanes lanes, Path dir, String name, DatabaseOptions options) {
        Database db = lanes.open(dir.resolve(name), options);
        db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v)");
        return db;
    }

    static long scalar(Database db, String sql, Object... args) {
        return ((Number) db.query(sql, args).get(0).get(0)).longValue();
    }

    /**
     * A normal write commits and a read sees it, and {@code PRAGMA integrity_check} says ok:
     * whatever the database went through, it is in working order.
     */
    static void assertHealthy(Database db) {
        String marker = "healthy-" + UUID.randomUUID();
        db.execute("INSERT INTO t(v) VALUES (?)", marker);
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v = ?", marker)).isEqualTo(1);
        List<Row> check = db.query("PRAGMA integrity_check");
        assertThat(check).hasSize(1);
        assertThat(check.get(0).get(0)).isEqualTo("ok");
    }

    /** The Lanes failure behind what an entry point threw (a JDBC one wraps it). */
    static LanesException lanesFailure(Throwable t) {
        Throwable e = t;
        while (e != null && !(e instanceof LanesException)) {
            e = e.getCause();
        }
        assertThat(e).as("a typed failure behind %s", t).isNotNull();
        return (LanesException) e;
    }

    /** The failure of a future that must fail within {@link #WAIT}. */
    static Throwable failureOf(CompletableFuture<?> future) throws InterruptedException {
        try {
            Object value = future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a failure, got " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the request did not end within " + WAIT, e);
        }
    }

    /** The typed failure of a future that must fail within {@link #WAIT}. */
    static LanesException lanesFailureOf(CompletableFuture<?> future) throws InterruptedException {
        Throwable t = failureOf(future);
        assertThat(t).isInstanceOf(LanesException.class);
        return (LanesException) t;
    }

    /**
     * Runs {@code sql} on the writer of {@code db} through the path named {@code how}: {@code
     * db.execute}, a write body's {@code execute}, {@code executeUpdate}, {@code
     * prepareStatement} or {@code addBatch}, a maintenance body, {@code db.executeScript} (after a
     * {@code SELECT 1}), {@code db.executeBatch} (after a no-op statement), an interactive
     * transaction's {@code execute} or {@code query} (then closed uncommitted).
     */
    static void runOnWriter(Database db, String how, String sql) {
        switch (how) {
            case "db.execute":
                db.execute(sql);
                break;
            case "write body, execute":
                db.write(c -> c.createStatement().execute(sql));
                break;
            case "write body, executeUpdate":
                db.write(c -> c.createStatement().executeUpdate(sql));
                break;
            case "write body, prepareStatement":
                db.write(c -> c.prepareStatement(sql).execute());
                break;
            case "write body, addBatch":
                db.write(c -> {
                    java.sql.Statement s = c.createStatement();
                    s.addBatch(sql);
                    return s.executeBatch();
                });
                break;
            case "maintenance body":
                db.maintenance(c -> c.createStatement().execute(sql));
                break;
            case "db.executeScript":
                db.executeScript("SELECT 1; " + sql);
                break;
            case "db.executeBatch":
                db.executeBatch(List.of(Statement.of("UPDATE t SET v = v WHERE 0"),
                        Statement.of(sql)));
                break;
            case "tx.execute":
                try (dev.lanes.Transaction tx = db.begin()) {
                    tx.execute(sql);
                }
                break;
            case "tx.query":
                try (dev.lanes.Transaction tx = db.begin()) {
                    tx.query(sql);
                }
                break;
            default:
                throw new IllegalArgumentException(how);
        }
    }
}
