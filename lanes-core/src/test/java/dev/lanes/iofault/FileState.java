package dev.lanes.iofault;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the database file holds after a round, read without faults by a process that never ran
 * under libfiu: plain sqlite-jdbc first (it runs WAL recovery as any reader of a crashed database
 * would), then Lanes, which must still open the file and commit a write to it.
 *
 * @param integrity the rows of {@code PRAGMA integrity_check}, joined; {@code ok} when intact
 * @param requests the rows of table {@code req}, by request id
 * @param reopenFailure why Lanes could not open the file and commit a write to it, if it could not
 */
record FileState(String integrity, Map<Long, Rows> requests, Optional<String> reopenFailure) {

    /**
     * The rows one request left.
     *
     * @param declared how many rows the request writes (each of its rows says so)
     * @param parts the part numbers present
     */
    record Rows(int declared, Set<Integer> parts) {
        /** Whether every row of the request is there: parts 1 to {@code declared}, no other. */
        boolean complete() {
            if (parts.size() != declared) {
                return false;
            }
            for (int p = 1; p <= declared; p++) {
                if (!parts.contains(p)) {
                    return false;
                }
            }
            return true;
        }
    }

    static FileState read(Path file, Synchronous level) throws SQLException {
        String integrity;
        Map<Long, Rows> requests = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            StringBuilder check = new StringBuilder();
            try (ResultSet rs = c.createStatement().executeQuery("PRAGMA integrity_check")) {
                while (rs.next()) {
                    check.append(check.length() == 0 ? "" : "; ").append(rs.getString(1));
                }
            }
            integrity = check.toString();
            Map<Long, Integer> declared = new HashMap<>();
            Map<Long, Set<Integer>> parts = new HashMap<>();
            try (ResultSet rs = c.createStatement().executeQuery("SELECT id, part, parts FROM req")) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    parts.computeIfAbsent(id, k -> new TreeSet<>()).add(rs.getInt(2));
                    // rows of one request disagreeing on their count would make it incomplete
                    declared.merge(id, rs.getInt(3), (a, b) -> a.equals(b) ? a : -1);
                }
            }
            parts.forEach((id, p) -> requests.put(id, new Rows(declared.get(id), p)));
        }
        return new FileState(integrity, requests, reopenAndWrite(file, level));
    }

    /** Lanes opens the file again and commits one row to it (request id -1, never a child's). */
    private static Optional<String> reopenAndWrite(Path file, Synchronous level) {
        try (Lanes lanes = Lanes.builder().name("fiu-check").maxThreads(2).build()) {
            Database db = lanes.open(file, DatabaseOptions.builder().synchronous(level).build());
            db.execute(FaultChild.INSERT, -1, 1, 1, "check", 1);
            long n = db.query("SELECT count(*) AS n FROM req WHERE id = -1").get(0).getLong("n");
            db.close();
            return n == 1 ? Optional.empty() : Optional.of("the check row is there " + n + " times");
        } catch (RuntimeException e) {
            return Optional.of(e.toString());
        }
    }
}
