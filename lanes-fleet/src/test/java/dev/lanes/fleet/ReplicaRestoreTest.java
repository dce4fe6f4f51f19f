package dev.lanes.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import dev.lanes.fleet.internal.LitestreamLayout;
import dev.lanes.fleet.internal.LitestreamReplicator;
import dev.lanes.fleet.internal.ReplicaCorruptException;
import dev.lanes.fleet.internal.ReplicaRestore;
import dev.lanes.fleet.internal.S3Client;
import dev.lanes.fleet.testing.LocalEtcd;
import dev.lanes.fleet.testing.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process restore on real replicas (Litestream 0.3 shipping to s3proxy): it rebuilds what
 * {@code litestream restore} rebuilds from a snapshot and several WAL segments and indexes, says
 * when there is nothing to restore, fails whole on a damaged segment, and the replicas of a
 * tenant's older epochs go once a newer one is recorded.
 */
@Tag("slow")
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReplicaRestoreTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    @TempDir static Path dir;
    static Engines engines;
    static S3Client s3;
    static ReplicaRestore restore;

    @BeforeAll
    static void engines() {
        engines = Engines.start(dir, LocalEtcd.Timing.TUNED);
        s3 = new S3Client(engines.store.objectStore());
        restore = new ReplicaRestore(s3, engines.store.objectStore().prefix());
    }

    @AfterAll
    static void stop() {
        if (engines != null) {
            engines.close();
        }
    }

    @Test
    void aRestoreRebuildsWhatLitestreamRestoreDoesFromSeveralSegmentsAndIndexes()
            throws Exception {
        Path source = dir.resolve("multi.db");
        try (LitestreamReplicator replicator = replicator("multi");
                Connection c = open(source)) {
            firstSnapshot(replicator, c, "multi", source, 3);
            for (int round = 1; round <= 3; round++) { // one WAL segment each
                write(c, round * 100, 5, 16);
                awaitShipped(replicator, "multi");
            }
            // over Litestream's 1,000-page checkpoint threshold: the next WAL index begins
            write(c, 1_000, 1_500, 4_000);
            awaitShipped(replicator, "multi");
            write(c, 5_000, 5, 16);
            awaitShipped(replicator, "multi");
        }
        LitestreamLayout.Plan plan = plan("multi", 3).orElseThrow();
        assertThat(plan.wal()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(plan.wal().get(0).keys()).as("segments of the first WAL index")
                .hasSizeGreaterThanOrEqualTo(4);

        Path ours = dir.resolve("multi-ours.db");
        assertThat(restore.restore("multi", 3, ours)).isTrue();
        Path theirs = Replicas.restore(engines, "multi", 3, dir.resolve("multi-litestream.db"));
        assertThat(integrity(ours)).isEqualTo("ok");
        assertThat(contents(ours)).isEqualTo(contents(theirs));
        assertThat(rows(ours, "SELECT id FROM t ORDER BY id")).isEqualTo(
                rows(source, "SELECT id FROM t ORDER BY id"));
        assertThat(Files.mismatch(ours, theirs)).as("byte for byte").isEqualTo(-1);
        assertThat(siblings(ours)).containsExactly(ours.getFileName().toString());
    }

    @Test
    void aConfirmationAfterTheWalStartsOverSeesTheWriteInTheReplica() throws Exception {
        Path source = dir.resolve("rolled.db");
        try (LitestreamReplicator replicator = replicator("rolled");
                Connection c = open(source)) {
            firstSnapshot(replicator, c, "rolled", source, 1);
            // over Litestream's 1,000-page checkpoint threshold: its shadow WAL starts a new
            // index, and the older one stays on disk until the replica is past the new one
            write(c, 1_000, 1_500, 4_000);
            awaitShipped(replicator, "rolled");
            assertThat(restoredIds("rolled", 1, "rolled-1.db"))
                    .isEqualTo(rows(source, "SELECT id FROM t ORDER BY id"));
            write(c, 5_000, 5, 16);
            awaitShipped(replicator, "rolled");
            assertThat(restoredIds("rolled", 1, "rolled-2.db"))
                    .isEqualTo(rows(source, "SELECT id FROM t ORDER BY id"));
        }
        assertThat(plan("rolled", 1).orElseThrow().wal()).as("WAL indexes in the replica")
                .hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void periodicSnapshotsBoundTheRestoreToTheWalSinceTheLatestOne() throws Exception {
        Path source = dir.resolve("snapshots.db");
        String tenant = "snapshots";
        try (LitestreamReplicator replicator = replicator(tenant, Duration.ofSeconds(1));
                Connection c = open(source)) {
            firstSnapshot(replicator, c, tenant, source, 1);
            long deadline = System.nanoTime() + BOUND.toNanos();
            for (int round = 1; snapshotKeys(tenant, 1).size() < 3; round++) {
                assertThat(System.nanoTime()).as("three snapshots within %s", BOUND)
                        .isLessThan(deadline);
                write(c, 100 * round, 5, 64);
                awaitShipped(replicator, tenant);
            }
        }
        LitestreamLayout.Plan plan = plan(tenant, 1).orElseThrow();
        List<String> snapshots = snapshotKeys(tenant, 1);
        assertThat(snapshots).as("snapshots of the epoch's generation")
                .hasSizeGreaterThanOrEqualTo(3)
                .allMatch(k -> k.contains("/generations/" + plan.generation() + "/"));
        // the newest snapshot of an index the WAL has gone past (see LitestreamLayout): of three
        // or more, one taken after the generation's first
        assertThat(plan.snapshotKey()).as("a periodic snapshot").isIn(snapshots)
                .isNotEqualTo(snapshots.stream().min(java.util.Comparator.naturalOrder())
                        .orElseThrow());
        long walWritten = s3.list(restore.tenantPrefix(tenant) + "1/").stream()
                .filter(o -> o.key().contains("/generations/" + plan.generation() + "/wal/"))
                .count();
        assertThat(plan.objects() - 1L).as("WAL segments read of %s written", walWritten)
                .isLessThan(walWritten);

        Path ours = dir.resolve("snapshots-ours.db");
        assertThat(restore.restore(tenant, 1, ours)).isTrue();
        Path theirs = Replicas.restore(engines, tenant, 1, dir.resolve("snapshots-litestream.db"));
        assertThat(integrity(ours)).isEqualTo("ok");
        assertThat(rows(ours, "SELECT id FROM t ORDER BY id")).as("every committed row")
                .isEqualTo(rows(source, "SELECT id FROM t ORDER BY id"));
        assertThat(contents(ours)).isEqualTo(contents(theirs));
    }

    /** The snapshot keys of the tenant's epoch, in key (index) order. */
    private static List<String> snapshotKeys(String tenant, long epoch) throws Exception {
        return s3.list(restore.tenantPrefix(tenant) + epoch + "/").stream()
                .map(S3Client.Listed::key).filter(k -> k.endsWith(".snapshot.lz4")).sorted()
                .toList();
    }

    private static List<String> restoredIds(String tenant, long epoch, String file)
            throws Exception {
        Path copy = dir.resolve(file);
        assertThat(restore.restore(tenant, epoch, copy)).isTrue();
        return rows(copy, "SELECT id FROM t ORDER BY id");
    }

    @Test
    void anEpochWithoutAReplicaRestoresNothing() {
        Path target = dir.resolve("none.db");
        assertThat(restore.restore("none", 1, target)).isFalse();
        assertThat(target).doesNotExist();
    }

    @Test
    void aDamagedSegmentFailsTheRestoreAndLeavesNothing() throws Exception {
        Path source = dir.resolve("damaged.db");
        try (LitestreamReplicator replicator = replicator("damaged");
                Connection c = open(source)) {
            firstSnapshot(replicator, c, "damaged", source, 1);
            write(c, 100, 50, 200);
            awaitShipped(replicator, "damaged");
        }
        LitestreamLayout.Plan plan = plan("damaged", 1).orElseThrow();
        String last = plan.wal().get(plan.wal().size() - 1).keys().get(0);
        Path object = engines.store.dataDirectory().resolve(LocalObjectStore.BUCKET).resolve(last);
        byte[] bytes = Files.readAllBytes(object);
        for (int i = bytes.length / 2; i < bytes.length / 2 + 8; i++) {
            bytes[i] ^= 0x5a;
        }
        Files.write(object, bytes);

        Path target = dir.resolve("damaged-restored.db");
        assertThatThrownBy(() -> restore.restore("damaged", 1, target))
                .isInstanceOf(ReplicaCorruptException.class)
                .hasMessageContaining(last);
        assertThat(siblings(target)).isEmpty();
    }

    @Test
    void aRestoredDatabaseThatFailsSqlitesQuickCheckFailsTheRestoreAndLeavesNothing()
            throws Exception {
        Path source = dir.resolve("mixed.db");
        int root;
        int pageSize;
        try (LitestreamReplicator replicator = replicator("mixed");
                Connection c = open(source)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE u (k TEXT)");
                s.execute("CREATE INDEX u_k ON u (k)");
                s.execute("INSERT INTO u (k) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
                        + " SELECT i + 1 FROM n WHERE i < 200) SELECT printf('k%05d', i) FROM n");
                // u's pages go into the file the snapshot copies; the WAL after it writes t only
                s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                try (ResultSet rs = s.executeQuery(
                        "SELECT rootpage FROM sqlite_master WHERE name = 'u_k'")) {
                    root = rs.getInt(1);
                }
                try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
                    pageSize = rs.getInt(1);
                }
            }
            firstSnapshot(replicator, c, "mixed", source, 1);
            write(c, 100, 50, 200);
            awaitShipped(replicator, "mixed");
        }
        LitestreamLayout.Plan plan = plan("mixed", 1).orElseThrow();
        Path object = engines.store.dataDirectory().resolve(LocalObjectStore.BUCKET)
                .resolve(plan.snapshotKey());
        byte[] database;
        try (var in = new net.jpountz.lz4.LZ4FrameInputStream(Files.newInputStream(object))) {
            database = in.readAllBytes();
        }
        // the index's root page claims more cells than the page can hold: every frame of the
        // object still checks out, but the b-tree does not
        int header = (root - 1) * pageSize;
        database[header + 3] = (byte) 0x7f;
        database[header + 4] = (byte) 0xff;
        java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
        try (var out = new net.jpountz.lz4.LZ4FrameOutputStream(frame)) {
            out.write(database);
        }
        Files.write(object, frame.toByteArray());

        Path target = dir.resolve("mixed-restored.db");
        assertThatThrownBy(() -> restore.restore("mixed", 1, target))
                .isInstanceOf(ReplicaCorruptException.class)
                .hasMessageContaining("quick_check").hasMessageContaining(plan.snapshotKey());
        assertThat(siblings(target)).isEmpty();
    }

    @Test
    void aMoveDeletesTheOlderEpochsReplicaOnceTheNewOneIsRecorded() throws Exception {
        try (Fleet a = engines.node("a5", dir.resolve("a5")).fleetName("cleanup")
                        .durability(Durability.REPLICATED).autoRebalance(false).build();
                Fleet b = engines.node("b5", dir.resolve("b5")).fleetName("cleanup")
                        .durability(Durability.REPLICATED).autoRebalance(false).build()) {
            FleetTest.await(() -> a.members().size() == 2 && b.members().size() == 2,
                    "both nodes live");
            String tenant = FleetTest.tenantPlacedOn(a);
            Database db = a.database(tenant);
            db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            for (int i = 1; i <= 20; i++) {
                db.execute("INSERT INTO t (id) VALUES (?)", i);
            }
            long before = token(db);
            assertThat(a.move(tenant, "b5")).isTrue();
            Database there = b.database(tenant);
            there.execute("INSERT INTO t (id) VALUES (21)");
            long after = token(there);
            String prefix = restore.tenantPrefix(tenant);

            FleetTest.await(() -> epochs(prefix).equals(List.of(after)),
                    "only epoch " + after + " left under " + prefix + " (epoch " + before
                            + " deleted)");
            Path copy = dir.resolve("cleanup-restored.db");
            assertThat(restore.restore(tenant, after, copy)).isTrue();
            assertThat(integrity(copy)).isEqualTo("ok");
            assertThat(Replicas.ids(copy)).hasSize(21).contains(21L);
        }
    }

    private static LitestreamReplicator replicator(String name) {
        return replicator(name, Duration.ofHours(1));
    }

    private static LitestreamReplicator replicator(String name, Duration snapshotInterval) {
        return new LitestreamReplicator(engines.litestream, dir.resolve("litestream-" + name),
                engines.store.objectStore(), 1, Duration.ofMillis(100), snapshotInterval,
                Duration.ofDays(1), Duration.ofMillis(50), Duration.ofSeconds(1));
    }

    /** A few rows, then the tenant replicated as {@code epoch} until its replica holds them. */
    private static void firstSnapshot(LitestreamReplicator replicator, Connection c,
            String tenant, Path db, long epoch) throws Exception {
        write(c, 1, 10, 16);
        replicator.start(tenant, db, epoch);
        awaitShipped(replicator, tenant);
    }

    private static void awaitShipped(LitestreamReplicator replicator, String tenant)
            throws InterruptedException {
        assertThat(replicator.awaitCaughtUp(tenant, System.nanoTime(), BOUND))
                .as("replica of %s caught up", tenant).isTrue();
    }

    private static Connection open(Path db) throws Exception {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode = WAL");
            s.execute("PRAGMA wal_autocheckpoint = 0");
            s.execute("PRAGMA busy_timeout = 10000");
            s.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v BLOB)");
        }
        return c;
    }

    /** Rows {@code from..from+n-1}, each with {@code size} bytes, in one transaction. */
    private static void write(Connection c, int from, int n, int size) throws Exception {
        c.setAutoCommit(false);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
            for (int i = from; i < from + n; i++) {
                byte[] v = new byte[size];
                java.util.Arrays.fill(v, (byte) i);
                p.setInt(1, i);
                p.setBytes(2, v);
                p.executeUpdate();
            }
        }
        c.commit();
        c.setAutoCommit(true);
    }

    private static Optional<LitestreamLayout.Plan> plan(String tenant, long epoch) {
        String path = restore.tenantPrefix(tenant) + epoch + "/";
        try {
            return new LitestreamLayout(path, s3.list(path)).plan();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<Long> epochs(String prefix) {
        try {
            return s3.list(prefix).stream()
                    .map(o -> Long.parseLong(o.key().substring(prefix.length()).split("/")[0]))
                    .distinct().toList();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static long token(Database db) {
        return db.query("SELECT token FROM lanes_fleet_fence").get(0).getLong("token");
    }

    private static String integrity(Path db) throws Exception {
        return String.join("\n", rows(db, "PRAGMA integrity_check"));
    }

    /** Every table's rows, in rowid order. */
    private static List<String> contents(Path db) throws Exception {
        List<String> out = new ArrayList<>();
        for (String table : rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'"
                + " ORDER BY name")) {
            out.add("table " + table);
            out.addAll(rows(db, "SELECT * FROM \"" + table + "\" ORDER BY rowid"));
        }
        return out;
    }

    private static List<String> rows(Path db, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    row.append(i > 1 ? "|" : "").append(v instanceof byte[] b
                            ? java.util.HexFormat.of().formatHex(b) : String.valueOf(v));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    /** Files beside {@code file} whose names start with its name. */
    private static List<String> siblings(Path file) throws Exception {
        try (Stream<Path> s = Files.list(file.getParent())) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(file.getFileName().toString())).sorted().toList();
        }
    }
}
