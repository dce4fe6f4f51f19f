package dev.lanes.cli.inspect;

import dev.lanes.DatabaseFiles;
import dev.lanes.LeaseStatus;
import dev.lanes.SqliteInfo;
import dev.lanes.cli.SqliteFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * Reads the facts of an {@link Inspection} from a database file, beside whoever owns it.
 *
 * <p>It opens one plain sqlite-jdbc connection with {@code SQLITE_OPEN_READONLY}: no Lanes
 * runtime, no lease, no writes (not even the identity table), so it works while a Lanes runtime
 * in another process, or in this one, holds the database. In WAL mode a reader never blocks the
 * writer, and the owner never blocks it; {@code quick_check} reads one snapshot. The lease is
 * probed with {@link DatabaseFiles#lease}, which never takes it. A missing file is an error
 * rather than a new empty database.
 */
public final class DatabaseInspector {
    private static final String IDENTITY_TABLE = "_lanes_identity";
    // quick_check stops after this many problems; a person reads the first few anyway
    private static final int MAX_PROBLEMS = 20;
    private static final int BUSY_TIMEOUT_MS = 5000;

    private DatabaseInspector() {}

    /**
     * Inspects {@code database}.
     *
     * @throws NoSuchFileException when there is no such file
     * @throws SQLException when SQLite cannot read it (not a database, say)
     */
    public static Inspection inspect(Path database) throws IOException, SQLException {
        Path file = database.toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such database file");
        }
        long fileBytes = Files.size(file);
        Path wal = SqliteFiles.beside(file, SqliteFiles.WAL);
        long walBytes = Files.exists(wal) ? Files.size(wal) : 0;
        LeaseStatus lease = DatabaseFiles.lease(file);

        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        SqliteInfo sqlite = SqliteInfo.current();
        try (Connection c = config.createConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement()) {
            return new Inspection(
                    file.toString(),
                    fileBytes,
                    walBytes,
                    longOf(s, "PRAGMA page_size"),
                    longOf(s, "PRAGMA page_count"),
                    longOf(s, "PRAGMA freelist_count"),
                    stringOf(s, "PRAGMA journal_mode"),
                    identity(s),
                    lease,
                    quickCheck(s),
                    stringOf(s, "SELECT sqlite_version()"),
                    sqlite.driverVersion(),
                    sqlite.walResetMitigation());
        }
    }

    private static String identity(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                + " AND name = '" + IDENTITY_TABLE + "'")) {
            if (!rs.next() || rs.getInt(1) == 0) {
                return null;
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT uuid FROM " + IDENTITY_TABLE + " WHERE id = 1")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static List<String> quickCheck(Statement s) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("PRAGMA quick_check(" + MAX_PROBLEMS + ")")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    private static long longOf(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String stringOf(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
