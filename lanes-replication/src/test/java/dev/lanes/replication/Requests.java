package dev.lanes.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.sqlite.SQLiteConfig;

/**
 * The workload of the replication tests: a request writes two rows, {@code (id, 1)} and {@code
 * (id, 2)}, in one write, so a restore that holds one without the other has half-applied it.
 * Also the checks run on a database file outside Lanes (a restore, a crashed writer's file).
 */
final class Requests {
    static final String SCHEMA = "CREATE TABLE IF NOT EXISTS req(id INTEGER NOT NULL, "
            + "part INTEGER NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (id, part))";
    private static final String PAYLOAD = "x".repeat(48);

    private Requests() {}

    /** The body of one request: both rows, on the guarded connection Lanes hands the body. */
    static Void write(Connection c, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO req VALUES (?, ?, ?)")) {
            for (int part = 1; part <= 2; part++) {
                s.setLong(1, id);
                s.setInt(2, part);
                s.setString(3, id + "-" + part + "-" + PAYLOAD);
                s.executeUpdate();
            }
        }
        return null;
    }

    /** A cheap fingerprint of a database's requests: rows and the sum of their ids. */
    record State(long rows, long idSum) {
        static State of(Connection c) throws SQLException {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery(
                            "SELECT count(*), coalesce(sum(id), 0) FROM req")) {
                rs.next();
                return new State(rs.getLong(1), rs.getLong(2));
            }
        }
    }

    /** A read-only sqlite-jdbc connection to a file, outside Lanes. */
    static Connection openReadOnly(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    /** The fingerprint of a file, read outside Lanes; {@code null} when it cannot be read. */
    static State stateOf(Path file) {
        try (Connection c = openReadOnly(file)) {
            return State.of(c);
        } catch (SQLException e) {
            return null;
        }
    }

    /** Every request's parts, by id. */
    static Map<Long, Set<Integer>> parts(Connection c) throws SQLException {
        Map<Long, Set<Integer>> parts = new HashMap<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, part FROM req")) {
            while (rs.next()) {
                parts.computeIfAbsent(rs.getLong(1), k -> new HashSet<>()).add(rs.getInt(2));
            }
        }
        return parts;
    }

    static List<String> integrityCheck(Connection c) throws SQLException {
        List<String> out = new java.util.ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** No request has one row without the other. */
    static void assertNoneHalfApplied(Map<Long, Set<Integer>> parts, String where) {
        Set<Long> half = new TreeSet<>();
        parts.forEach((id, p) -> {
            if (!p.equals(Set.of(1, 2))) {
                half.add(id);
            }
        });
        assertThat(half).as("%s: requests with only one of their two rows", where).isEmpty();
    }

    /** Every acknowledged request is there, whole. */
    static void assertAllPresent(Map<Long, Set<Integer>> parts, Collection<Long> acked,
            String where) {
        Set<Long> missing = new TreeSet<>();
        for (long id : acked) {
            if (!Set.of(1, 2).equals(parts.get(id))) {
                missing.add(id);
            }
        }
        assertThat(missing).as("%s: acknowledged requests missing or incomplete (of %d acked)",
                where, acked.size()).isEmpty();
    }
}
