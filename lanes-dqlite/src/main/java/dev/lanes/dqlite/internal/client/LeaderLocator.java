package dev.lanes.dqlite.internal.client;

import dev.lanes.dqlite.DqliteConnectionException;
import dev.lanes.dqlite.DqliteException;
import dev.lanes.dqlite.DqliteNoLeaderException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the leader and keeps the list of nodes to ask.
 *
 * <p>Discovery: each round asks the known nodes in turn (the last leader first, then the voters,
 * then the rest, then the seed addresses) which node leads. A node is accepted as leader only
 * when it names itself; a node that names another is a follower, and the client follows that hint
 * once within the round. A node that knows no leader, cannot be reached, or fails, is passed
 * over. After a round without a leader the client pauses ({@link Backoff}) and tries again, until
 * the leader timeout, then fails with {@link DqliteNoLeaderException}. Only requests that change
 * nothing are sent here (LEADER, CLIENT, CLUSTER, and the caller's {@link Setup}), so a failed
 * attempt is always safe to repeat.
 *
 * <p>Membership: every leader found is asked for its configuration (CLUSTER), which replaces the
 * list of nodes to ask; the seed addresses stay on it, last, so a client whose list went stale
 * still has them.
 *
 * <p>Concurrency: any number of threads may discover at once. {@code known} holds an immutable
 * list, replaced whole; {@code lastLeader} is a hint. Neither is guarded by a lock: two refreshes
 * that race both store a list some leader reported, and either is good to start from.
 */
public final class LeaderLocator {
    private static final Logger log = LoggerFactory.getLogger(LeaderLocator.class);

    private final ClientConfig config;
    private final List<String> seeds;
    private final Backoff backoff;
    private final AtomicReference<List<String>> known;
    private volatile String lastLeader;

    public LeaderLocator(List<String> seeds, ClientConfig config) {
        this.config = config;
        this.seeds = List.copyOf(seeds);
        this.backoff = new Backoff(config.backoffBase(), config.backoffMax(),
                () -> ThreadLocalRandom.current().nextDouble());
        this.known = new AtomicReference<>(this.seeds);
    }

    /** Work done on a fresh leader connection before it is handed out; must change nothing. */
    @FunctionalInterface
    public interface Setup<T> {
        T run(Connection leader);
    }

    /** A connection to the leader, registered, with what the setup returned. */
    public record Established<T>(Connection connection, long leaderId, String leaderAddress, T value) {}

    /** The addresses discovery asks, in order. */
    public List<String> knownNodes() {
        String leader = lastLeader;
        if (leader == null) {
            return known.get();
        }
        List<String> ordered = new ArrayList<>();
        ordered.add(leader);
        for (String address : known.get()) {
            if (!address.equals(leader)) {
                ordered.add(address);
            }
        }
        return List.copyOf(ordered);
    }

    /** Records the configuration a leader reported: voters first, then standbys, then spares. */
    public void remember(List<dev.lanes.dqlite.internal.wire.Responses.NodeInfo> members) {
        Set<String> ordered = new LinkedHashSet<>();
        for (int role = 0; role <= 2; role++) {
            for (var member : members) {
                if (member.role() == role || (role == 2 && (member.role() < 0 || member.role() > 2))) {
                    ordered.add(member.address());
                }
            }
        }
        ordered.addAll(seeds);
        known.set(List.copyOf(ordered));
    }

    /**
     * A registered connection to the leader on which {@code setup} ran, found before the leader
     * timeout.
     *
     * @throws DqliteNoLeaderException when no node named itself leader in time
     */
    public <T> Established<T> connect(Setup<T> setup) {
        return connect(setup, config.leaderTimeout());
    }

    /**
     * {@link #connect(Setup)}, looking for the leader for {@code leaderTimeout} instead of the
     * configured one.
     */
    public <T> Established<T> connect(Setup<T> setup, Duration leaderTimeout) {
        long deadline = System.nanoTime() + leaderTimeout.toNanos();
        Map<String, String> lastAnswers = new LinkedHashMap<>();
        for (int round = 0; ; round++) {
            for (String address : knownNodes()) {
                Established<T> found = attempt(address, setup, lastAnswers, true);
                if (found != null) {
                    return found;
                }
                if (System.nanoTime() - deadline >= 0) {
                    break;
                }
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw noLeader(lastAnswers, leaderTimeout);
            }
            long pause = Math.min(remaining, backoff.pauseNanos(round));
            log.debug("no leader in round {}: {}; next round in {} ms", round, lastAnswers,
                    TimeUnit.NANOSECONDS.toMillis(pause));
            try {
                TimeUnit.NANOSECONDS.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DqliteConnectionException(false, null,
                        "interrupted while looking for the dqlite leader; nothing was sent", e);
            }
        }
    }

    private <T> Established<T> attempt(String address, Setup<T> setup, Map<String, String> answers,
            boolean followHint) {
        Connection connection;
        try {
            connection = Connection.open(address, config);
        } catch (DqliteException e) {
            answers.put(address, e.getMessage());
            return null;
        }
        boolean handedOut = false;
        try {
            var leader = connection.leader();
            if (leader.address().isEmpty()) {
                answers.put(address, "knows no leader");
                return null;
            }
            if (!Addresses.same(leader.address(), address)) {
                answers.put(address, "follower; names " + leader.address() + " leader");
                connection.close();
                return followHint ? attempt(leader.address(), setup, answers, false) : null;
            }
            connection.client(config.clientId());
            remember(connection.cluster());
            T value = setup.run(connection);
            connection.setRequestTimeout(config.requestTimeout());
            lastLeader = leader.address();
            handedOut = true;
            log.debug("leader is {} (id {})", leader.address(), leader.id());
            return new Established<>(connection, leader.id(), leader.address(), value);
        } catch (DqliteException e) {
            answers.put(address, e.getMessage());
            return null;
        } finally {
            if (!handedOut) {
                connection.close();
            }
        }
    }

    private static DqliteNoLeaderException noLeader(Map<String, String> answers,
            Duration leaderTimeout) {
        StringBuilder text = new StringBuilder("no dqlite node named itself leader within ")
                .append(leaderTimeout.toMillis()).append(" ms; last answers:");
        if (answers.isEmpty()) {
            text.append(" none (no node was asked)");
        }
        answers.forEach((address, answer) -> text.append(" [").append(address).append(": ")
                .append(answer).append(']'));
        text.append("; nothing was run");
        return new DqliteNoLeaderException(text.toString());
    }
}
