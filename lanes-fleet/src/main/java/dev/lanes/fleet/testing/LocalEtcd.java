package dev.lanes.fleet.testing;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.maintenance.StatusResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A real etcd cluster of separate member processes on 127.0.0.1, for tests and the bench (not
 * for production): Debian's etcd 3.4 ({@link Tools#etcd()}), each member with its own free
 * client and peer ports and data directory under the work directory.
 *
 * <p>Members are killed ({@code kill -9}), paused (SIGSTOP) and resumed by PID, and restarted
 * on their data directories. {@link #close()} kills every member it started and leaves their
 * logs; a JVM shutdown hook kills any member left behind.
 *
 * <p>Concurrency: a cluster is driven from one thread at a time.
 */
public final class LocalEtcd implements AutoCloseable {
    /**
     * Raft timing of the members: etcd's defaults (heartbeat 100 ms, election 1,000 ms; the
     * shortest lease TTL is then 2 s) or tuned for one machine's loopback network.
     *
     * @param heartbeatMillis {@code --heartbeat-interval}
     * @param electionMillis {@code --election-timeout}
     */
    public record Timing(int heartbeatMillis, int electionMillis) {
        /** etcd's defaults. */
        public static final Timing DEFAULT = new Timing(100, 1000);
        /** For a local network: heartbeat 50 ms, election 500 ms (a TTL of 1 s is then kept). */
        public static final Timing TUNED = new Timing(50, 500);
    }

    /** One member. */
    public static final class Member {
        private final String name;
        private final int clientPort;
        private final int peerPort;
        private Child process;

        Member(String name, int clientPort, int peerPort) {
            this.name = name;
            this.clientPort = clientPort;
            this.peerPort = peerPort;
        }

        /** Its client URL. */
        public String endpoint() {
            return "http://127.0.0.1:" + clientPort;
        }

        /** Its name ({@code m1}, {@code m2}, ...). */
        public String name() {
            return name;
        }

        /** Its process. */
        public Child process() {
            return process;
        }

        @Override
        public String toString() {
            return "etcd " + name + " (" + endpoint() + ")";
        }
    }

    private final Path dir;
    private final Path binary;
    private final Timing timing;
    private final List<Member> members = new ArrayList<>();

    private LocalEtcd(Path dir, Path binary, Timing timing) {
        this.dir = dir;
        this.binary = binary;
        this.timing = timing;
    }

    /**
     * Starts {@code size} members under {@code dir} and waits until the cluster takes a write (at
     * most 90 s: an overloaded machine delays its elections).
     *
     * @throws Tools.Unavailable when etcd is not installed and cannot be
     */
    public static LocalEtcd start(Path dir, int size, Timing timing) throws Tools.Unavailable {
        LocalEtcd etcd = new LocalEtcd(dir, Tools.etcd(), timing);
        try {
            for (int i = 1; i <= size; i++) {
                etcd.members.add(new Member("m" + i, Child.freePort(), Child.freePort()));
            }
            for (Member m : etcd.members) {
                etcd.launch(m);
            }
            etcd.awaitWritable(Duration.ofSeconds(90));
            return etcd;
        } catch (RuntimeException e) {
            etcd.close();
            throw e;
        }
    }

    /** The members, in order. */
    public List<Member> members() {
        return List.copyOf(members);
    }

    /** Every member's client URL. */
    public List<String> endpoints() {
        return members.stream().map(Member::endpoint).toList();
    }

    /** The timing the members run with. */
    public Timing timing() {
        return timing;
    }

    /** {@code kill -9} of a member. */
    public void kill(Member m) {
        m.process.kill();
    }

    /** Starts a killed member again on its data directory. */
    public void restart(Member m) {
        if (m.process != null && m.process.alive()) {
            throw new IllegalStateException(m + " still runs");
        }
        launch(m);
    }

    /**
     * The member that leads now, asked of the live members (at most 10 s until one answers
     * with a leader).
     */
    public Member leader() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            for (Member m : members) {
                if (m.process == null || !m.process.alive()) {
                    continue;
                }
                try (Client c = Client.builder().endpoints(m.endpoint()).build()) {
                    StatusResponse s = c.getMaintenanceClient().statusMember(m.endpoint())
                            .get(2, TimeUnit.SECONDS);
                    if (s.getLeader() != 0) {
                        for (Member other : members) {
                            if (memberId(c, other) == s.getLeader()) {
                                return other;
                            }
                        }
                    }
                } catch (Exception e) {
                    // that member does not answer: ask the next
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no etcd member names a leader");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static long memberId(Client c, Member m) {
        try {
            return c.getMaintenanceClient().statusMember(m.endpoint()).get(2, TimeUnit.SECONDS)
                    .getHeader().getMemberId();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Waits until a put succeeds, at most for {@code bound}. */
    public void awaitWritable(Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        ByteSequence key = ByteSequence.from("/local-etcd/ready", StandardCharsets.UTF_8);
        Exception last = null;
        try (Client c = Client.builder().endpoints(endpoints().toArray(String[]::new)).build()) {
            while (System.nanoTime() < deadline) {
                try {
                    c.getKVClient().put(key, key).get(2, TimeUnit.SECONDS);
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for etcd", e);
                } catch (Exception e) {
                    last = e;
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
            }
        }
        throw new IllegalStateException("etcd took no write within " + bound + " (" + last
                + "); logs:\n" + members.stream().map(m -> m + ":\n" + m.process.logTail(15))
                        .collect(Collectors.joining("\n")));
    }

    private void launch(Member m) {
        String cluster = members.stream()
                .map(o -> o.name + "=http://127.0.0.1:" + o.peerPort)
                .collect(Collectors.joining(","));
        String peer = "http://127.0.0.1:" + m.peerPort;
        List<String> command = List.of(binary.toString(),
                "--name", m.name,
                "--data-dir", dir.resolve(m.name).toString(),
                "--listen-client-urls", m.endpoint(),
                "--advertise-client-urls", m.endpoint(),
                "--listen-peer-urls", peer,
                "--initial-advertise-peer-urls", peer,
                "--initial-cluster", cluster,
                "--initial-cluster-state", "new",
                "--initial-cluster-token", "lanes-fleet",
                "--heartbeat-interval", Integer.toString(timing.heartbeatMillis()),
                "--election-timeout", Integer.toString(timing.electionMillis()),
                "--log-level", "warn");
        m.process = Child.start("etcd " + m.name, command, dir.resolve(m.name + ".log"));
    }

    /** Kills every member; their logs stay under the work directory. */
    @Override
    public void close() {
        for (Member m : members) {
            if (m.process != null && m.process.alive()) {
                m.process.kill();
            }
        }
    }
}
