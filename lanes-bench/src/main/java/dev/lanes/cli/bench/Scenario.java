package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.lanes.Synchronous;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The workloads {@code lanes bench} can run, chosen with {@code --scenario}. Each has the thread
 * count, synchronous levels and measured duration it runs at unless {@code --threads}, {@code
 * --synchronous} or {@code --duration} say otherwise, and the unit its throughput is counted in.
 * All but {@link #SOAK} compare Lanes with a baseline; the soak judges Lanes alone, over time.
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
            "db.dataSource() against HikariCP and raw JDBC"),
    /**
     * 1,000 and 10,000 virtual-thread clients writing (through {@code db.dataSource()} and {@code
     * db.execute}) and running read-then-write transactions, against HikariCP on virtual threads
     * ({@link VirtualThreadScenario}); needs JDK 21 or later, else it runs nothing.
     */
    VT(VirtualThreadScenario.FEW, List.of(Synchronous.NORMAL), "ops/s",
            "virtual-thread clients"),
    /**
     * Single-row inserts on a 3-node dqlite cluster the bench starts, against one commit per
     * write through the client on pooled sessions; the level does not apply there.
     */
    DQLITE(64, List.of(Synchronous.NORMAL), "writes/s", "single-row inserts on a dqlite cluster"),
    /**
     * Tenants owned across 3 fleet node processes (lanes-fleet) under kill -9, SIGSTOP, etcd
     * failures, a node added and a rolling restart: failover and move times, lost writes.
     */
    FLEET(32, List.of(Synchronous.NORMAL), "writes/s", "tenants across a fleet, under chaos"),
    /**
     * A long mixed workload over many databases in one runtime, sampled every few seconds; fails
     * when something grows without bound. Runs once, without a baseline.
     */
    SOAK(8, List.of(Synchronous.NORMAL), "requests/s", "nothing grows without bound");

    /** How long a comparison run is measured when {@code --duration} is not given. */
    static final Duration DEFAULT_DURATION = Duration.ofSeconds(5);
    /** How long a soak runs when {@code --duration} is not given. */
    static final Duration DEFAULT_SOAK_DURATION = Duration.ofMinutes(10);

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

    /** How long its runs are measured when {@code --duration} is not given. */
    Duration defaultDuration() {
        return this == SOAK ? DEFAULT_SOAK_DURATION : DEFAULT_DURATION;
    }

    /** Whether it compares Lanes with a baseline (every scenario but the soak). */
    boolean compares() {
        return this != SOAK;
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
