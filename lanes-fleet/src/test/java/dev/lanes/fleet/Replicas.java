package dev.lanes.fleet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads what the object store holds, independently of the fleet: {@code litestream restore} of
 * one tenant's epoch into a file, read with sqlite-jdbc.
 */
final class Replicas {
    private Replicas() {}

    /** Restores the tenant's epoch {@code epoch} into {@code out}. */
    static Path restore(Engines engines, String tenant, long epoch, Path out)
            throws IOException, InterruptedException {
        ObjectStore s = engines.store.objectStore();
        Path config = Files.createTempFile("replica-", ".yml");
        Path name = out.resolveSibling("source-" + tenant + ".db").toAbsolutePath();
        Files.writeString(config, String.join("\n",
                "access-key-id: " + s.accessKeyId(),
                "secret-access-key: " + s.secretAccessKey(),
                "dbs:",
                "  - path: " + name,
                "    replicas:",
                "      - type: s3",
                "        bucket: " + s.bucket(),
                "        path: " + s.prefix() + "tenants/" + tenant + "/" + epoch,
                "        region: " + s.region(),
                "        endpoint: " + s.endpoint(),
                "        force-path-style: true",
                ""), StandardCharsets.UTF_8);
        Path log = Files.createTempFile("restore-", ".log");
        try {
            Process p = new ProcessBuilder(engines.litestream.toString(), "restore", "-config",
                    config.toString(), "-o", out.toString(), name.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("litestream restore took over 60 s");
            }
            if (p.exitValue() != 0) {
                throw new AssertionError("litestream restore failed: " + Files.readString(log));
            }
            return out;
        } finally {
            Files.deleteIfExists(config);
            Files.deleteIfExists(log);
        }
    }

    /** The ids of table {@code t} in a database file. */
    static List<Long> ids(Path db) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
