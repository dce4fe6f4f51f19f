package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.lanes.Synchronous;
import java.util.List;
import java.util.Locale;

/**
 * The workloads {@code lanes bench} can run, chosen with {@code --scenario}. Each has the thread
 * count and synchronous levels it runs at unless {@code --threads} or {@code --synchronous} say
 * otherwise, and the unit its throughput is counted in.
 */
enum Scenario {
    /** Single-row inserts from many writers (against HikariCP) and from one (against raw JDBC). */
    WRITE(64, List.of(Synchronous.NORMAL, Synchronous.FULL), "writes/s",
            "single-row inserts"),
    /** Point reads by primary key, alone and beside a writer, against raw JDBC connections. */
    READ(8, List.of(Synchronous.NORMAL), "reads/s", "point reads by primary key"),
    /** A counter read and then updated in one transaction, against HikariCP with plain BEGIN. */
    RTW(16, List.of(Synchronous.NORMAL), "tx/s", "read-then-write transactions"),
    /** Many tenant databases in one runtime, with a hot set, reads and writes mixed. */
    TENANTS(16, List.of(Synchronous.NORMAL), "ops/s", "many tenant databases"),
    /**
     * The same JDBC code on {@code db.dataSource()} and on HikariCP or raw sqlite-jdbc: inserts,
     * Spring transactions, point reads ({@link JdbcScenario}; its parts have their own threads).
     */
    JDBC(JdbcScenario.INSERT_THREADS, List.of(Synchronous.NORMAL, Synchronous.FULL), "ops/s",
            "db.dataSource() against HikariCP and raw JDBC");

    private final int defaultThreads;
    private final List<Synchronous> defaultSynchronous;
    private final String unit;
    private final String title;

    Scenario(int defaultThreads, List<Synchronous> defaultSynchronous, String unit, String title) {
        this.defaultThreads = defaultThreads;
        this.defaultSynchronous = defaultSynchronous;
        this.unit = unit;
        this.title = title;
    }

    /** The name on the command line and in the JSON: {@code write}, {@code read}… */
    @JsonValue
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The threads of the scenario's concurrent runs when {@code --threads} is not given. */
    int defaultThreads() {
        return defaultThreads;
    }

    /** The levels the scenario runs at when {@code --synchronous} is not given. */
    List<Synchronous> defaultSynchronous() {
        return defaultSynchronous;
    }

    /** What its throughput counts, per second: {@code writes/s}, {@code tx/s}… */
    String unit() {
        return unit;
    }

    /** A few words on what it measures. */
    String title() {
        return title;
    }
}
