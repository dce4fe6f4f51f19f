package dev.lanes.dqlite;

import dev.lanes.dqlite.internal.client.Addresses;
import dev.lanes.dqlite.internal.client.ClientConfig;
import dev.lanes.dqlite.internal.client.Connection;
import dev.lanes.dqlite.internal.client.LeaderLocator;
import dev.lanes.dqlite.internal.client.LeaderSession;
import dev.lanes.dqlite.internal.client.WireEvents;
import dev.lanes.dqlite.internal.lanes.EngineSession;
import dev.lanes.dqlite.internal.wire.Responses;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * A dqlite cluster, named by the addresses of some of its nodes, and the client's settings for
 * talking to it. It hands out {@link DqliteSession}s on the current leader and changes the
 * cluster's membership.
 *
 * <pre>{@code
 * DqliteCluster cluster = DqliteCluster.of("10.0.0.1:9001", "10.0.0.2:9001", "10.0.0.3:9001");
 * try (DqliteSession session = cluster.connect("app")) {
 *     session.exec("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
 *     session.exec("INSERT INTO t(v) VALUES (?)", "x");
 *     DqliteRows rows = session.query("SELECT id, v FROM t");
 * }
 * }</pre>
 *
 * <p>Leader discovery asks the known nodes which node leads and accepts a node only when it names
 * itself; it follows a follower's hint, refreshes the node list from the leader's configuration,
 * and retries with bounded exponential backoff and jitter until the leader timeout. Discovery
 * sends only requests that change nothing. Once a session exists, nothing is retried: a request
 * that fails reports through {@link DqliteException#mayHaveRun()} whether it may have taken
 * effect.
 *
 * <p>It is also a {@link ClusterEngine}, so that Lanes runs a {@code Database} on it:
 * {@code lanes.openCluster(DqliteCluster.of("127.0.0.1:9001", ...), "app", options)}.
 *
 * <p>Immutable settings; thread-safe. It holds no connection of its own: each session has its
 * own, and each membership call opens one for its duration.
 */
public final class DqliteCluster implements ClusterEngine {
    private final List<String> seeds;
    private final ClientConfig config;
    private final LeaderLocator locator;

    private DqliteCluster(Builder builder) {
        this.seeds = List.copyOf(builder.nodes);
        this.config = new ClientConfig(builder.connectTimeout, builder.requestTimeout,
                builder.leaderTimeout, builder.backoffBase, builder.backoffMax, builder.clientId,
                builder.maxMessageBytes, builder.events);
        this.locator = new LeaderLocator(seeds, config);
    }

    /**
     * A cluster reached through these nodes (at least one; {@code host:port} each), with the
     * default settings.
     *
     * @throws IllegalArgumentException for no address or an address that is not host:port
     */
    public static DqliteCluster of(String... nodes) {
        if (nodes.length == 0) {
            throw new IllegalArgumentException("a DqliteCluster needs at least one node address");
        }
        return builder().nodes(nodes).build();
    }

    /** A builder of the client's settings. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A session on the leader with {@code database} open (created if it does not exist).
     *
     * @throws DqliteNoLeaderException when no leader was found within {@link #leaderTimeout()}
     */
    public DqliteSession connect(String database) {
        return connect(database, config.leaderTimeout());
    }

    /**
     * {@link #connect(String)}, looking for the leader for {@code leaderTimeout} instead of
     * {@link #leaderTimeout()}.
     *
     * @throws DqliteNoLeaderException when no leader was found within {@code leaderTimeout}
     */
    public DqliteSession connect(String database, Duration leaderTimeout) {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(leaderTimeout, "leaderTimeout");
        if (database.isEmpty()) {
            throw new DqliteInvalidRequestException("the database name is empty");
        }
        LeaderLocator.Established<Integer> leader = locator.connect(c -> c.open(database),
                leaderTimeout);
        return new LeaderSession(leader.connection(), leader.value(), database, leader.leaderId());
    }

    /**
     * A session for Lanes ({@link ClusterEngine}): {@link #connect(String, Duration)}, its
     * failures classified for the SPI.
     */
    @Override
    public ClusterSession open(String database, Duration timeout) {
        try {
            return new EngineSession(connect(database, timeout));
        } catch (DqliteException e) {
            throw EngineSession.classify(e);
        }
    }

    @Override
    public String describe() {
        return toString();
    }

    /** The current leader, as it names itself. */
    public DqliteNode leader() {
        LeaderLocator.Established<Void> leader = locator.connect(c -> null);
        leader.connection().close();
        return new DqliteNode(leader.leaderId(), leader.leaderAddress(), DqliteRole.VOTER);
    }

    /** The members of the cluster as the leader's configuration lists them (CLUSTER). */
    public List<DqliteNode> members() {
        LeaderLocator.Established<List<Responses.NodeInfo>> leader =
                locator.connect(Connection::cluster);
        leader.connection().close();
        List<DqliteNode> members = new ArrayList<>();
        for (Responses.NodeInfo info : leader.value()) {
            members.add(new DqliteNode(info.id(), info.address(), DqliteRole.ofCode(info.role())));
        }
        return List.copyOf(members);
    }

    /**
     * The addresses leader discovery asks, in the order it asks them: the last leader, the
     * members the last leader listed, then the addresses this cluster was built with.
     */
    public List<String> knownNodes() {
        return locator.knownNodes();
    }

    /**
     * Adds a node to the configuration (ADD); it joins as a {@link DqliteRole#SPARE} until
     * {@link #assign assigned} a role. The node must be running.
     *
     * @param id the new node's Raft id, unique in the cluster (positive)
     */
    public void add(long id, String address) {
        Addresses.check(Objects.requireNonNull(address, "address"));
        long checked = positive(id);
        onLeader(c -> c.add(checked, address));
    }

    /** Gives a member a role (ASSIGN); a new voter first catches up with the log. */
    public void assign(long id, DqliteRole role) {
        Objects.requireNonNull(role, "role");
        long checked = positive(id);
        onLeader(c -> c.assign(checked, role));
    }

    /** Removes a member from the configuration (REMOVE). */
    public void remove(long id) {
        long checked = positive(id);
        onLeader(c -> c.remove(checked));
    }

    /** How long connecting to a node, and each discovery request to it, may take. */
    public Duration connectTimeout() {
        return config.connectTimeout();
    }

    /** How long each response message of a session's request may take. */
    public Duration requestTimeout() {
        return config.requestTimeout();
    }

    /** How long {@link #connect(String)} looks for the leader before it gives up. */
    public Duration leaderTimeout() {
        return config.leaderTimeout();
    }

    /** The addresses this cluster was built with. */
    public List<String> seeds() {
        return seeds;
    }

    /** A membership change, run once on a leader connection (never retried). */
    private void onLeader(Consumer<Connection> change) {
        LeaderLocator.Established<Void> leader = locator.connect(c -> null);
        try (Connection connection = leader.connection()) {
            change.accept(connection);
            try {
                locator.remember(connection.cluster());
            } catch (DqliteException e) {
                // the change succeeded; the node list is refreshed by the next discovery instead
            }
        }
    }

    private static long positive(long id) {
        if (id <= 0) {
            throw new DqliteInvalidRequestException("node id " + id + " is not positive");
        }
        return id;
    }

    @Override
    public String toString() {
        return "DqliteCluster" + seeds;
    }

    /**
     * The client's settings. Each setter rejects a bad value at once with {@link
     * IllegalArgumentException}; {@link #build()} checks the whole.
     */
    public static final class Builder {
        private final Set<String> nodes = new LinkedHashSet<>();
        private Duration connectTimeout = Duration.ofSeconds(1);
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration leaderTimeout = Duration.ofSeconds(10);
        private Duration backoffBase = Duration.ofMillis(20);
        private Duration backoffMax = Duration.ofSeconds(1);
        private long clientId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        private long maxMessageBytes = 256L * 1024 * 1024;
        private WireEvents events = WireEvents.NONE;

        private Builder() {}

        /** Adds nodes to reach the cluster through ({@code host:port}; duplicates are dropped). */
        public Builder nodes(String... addresses) {
            Objects.requireNonNull(addresses, "addresses");
            for (String address : addresses) {
                nodes.add(Addresses.check(Objects.requireNonNull(address, "address")));
            }
            return this;
        }

        /** Adds nodes to reach the cluster through. */
        public Builder nodes(List<String> addresses) {
            return nodes(addresses.toArray(String[]::new));
        }

        /**
         * How long a TCP connect and the handshake may take, and each request of leader
         * discovery (default 1 s). Keep it short: a frozen node costs discovery this much.
         */
        public Builder connectTimeout(Duration timeout) {
            connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        /**
         * How long each response message of a session's request may take (default 10 s); when it
         * passes, the connection is closed and the request may have run.
         */
        public Builder requestTimeout(Duration timeout) {
            requestTimeout = positive(timeout, "requestTimeout");
            return this;
        }

        /** How long {@code connect} and the membership calls look for a leader (default 10 s). */
        public Builder leaderTimeout(Duration timeout) {
            leaderTimeout = positive(timeout, "leaderTimeout");
            return this;
        }

        /**
         * The pause after a round of discovery found no leader: {@code base} doubled each round up
         * to {@code max}, with jitter (defaults 20 ms and 1 s).
         */
        public Builder backoff(Duration base, Duration max) {
            positive(base, "backoff base");
            positive(max, "backoff max");
            if (base.compareTo(max) > 0) {
                throw new IllegalArgumentException(
                        "backoff base " + base + " is longer than backoff max " + max);
            }
            backoffBase = base;
            backoffMax = max;
            return this;
        }

        /** The id the client registers with (CLIENT); default random. */
        public Builder clientId(long id) {
            if (id <= 0) {
                throw new IllegalArgumentException("clientId " + id + " is not positive");
            }
            clientId = id;
            return this;
        }

        /**
         * The largest message the client sends or accepts, in bytes (default 256 MiB, range 64 KiB
         * to 1 GiB). One row, or one statement's parameters, must fit one message.
         */
        public Builder maxMessageBytes(long bytes) {
            if (bytes < 64 * 1024 || bytes > 1024L * 1024 * 1024) {
                throw new IllegalArgumentException(
                        "maxMessageBytes " + bytes + " is outside 65536..1073741824");
            }
            maxMessageBytes = bytes;
            return this;
        }

        /** Observes the requests sent (tests use it to act at a precise point). */
        Builder events(WireEvents events) {
            this.events = Objects.requireNonNull(events, "events");
            return this;
        }

        /**
         * The cluster.
         *
         * @throws IllegalStateException when no node address was given
         */
        public DqliteCluster build() {
            if (nodes.isEmpty()) {
                throw new IllegalStateException("a DqliteCluster needs at least one node address");
            }
            return new DqliteCluster(this);
        }

        private static Duration positive(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " " + value + " is not positive");
            }
            return value;
        }
    }
}
