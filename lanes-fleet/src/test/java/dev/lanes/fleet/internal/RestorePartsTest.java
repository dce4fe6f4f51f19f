package dev.lanes.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restore's parts that need no store: which generation, snapshot and WAL segments a listing
 * gives (as {@code litestream restore} picks them), and the checks that keep a damaged or cut
 * WAL from being applied in part.
 */
class RestorePartsTest {
    private static final String P = "tenants/t/4/";
    private static final Instant T = Instant.parse("2026-12-06T10:00:00Z");

    @Test
    void theGenerationUpdatedLastIsRestoredFromItsLatestSnapshotOn() {
        List<S3Client.Listed> listing = List.of(
                o("generations/aaaa/snapshots/00000000.snapshot.lz4", 0),
                o("generations/aaaa/wal/00000000_00000000.wal.lz4", 50),
                o("generations/bbbb/snapshots/00000000.snapshot.lz4", 10),
                o("generations/bbbb/snapshots/00000002.snapshot.lz4", 20),
                o("generations/bbbb/wal/00000001_00000000.wal.lz4", 15),
                o("generations/bbbb/wal/00000002_00000000.wal.lz4", 20),
                o("generations/bbbb/wal/00000002_00001000.wal.lz4", 60),
                o("generations/bbbb/wal/00000003_00000000.wal.lz4", 70),
                o("generations/cccc/wal/00000000_00000000.wal.lz4", 90),
                o("generations/bbbb/", 0));
        LitestreamLayout.Plan plan = new LitestreamLayout(P, listing).plan().orElseThrow();
        assertThat(plan.generation()).isEqualTo("bbbb");
        assertThat(plan.snapshotIndex()).isEqualTo(2);
        assertThat(plan.snapshotKey()).isEqualTo(P + "generations/bbbb/snapshots/00000002.snapshot.lz4");
        assertThat(plan.wal()).containsExactly(
                new LitestreamLayout.WalIndex(2, List.of(
                        P + "generations/bbbb/wal/00000002_00000000.wal.lz4",
                        P + "generations/bbbb/wal/00000002_00001000.wal.lz4")),
                new LitestreamLayout.WalIndex(3, List.of(
                        P + "generations/bbbb/wal/00000003_00000000.wal.lz4")));
    }

    @Test
    void ofSeveralSnapshotsTheOneAtTheHighestIndexTheWalHasGonePastIsRestoredFrom() {
        // a snapshot every second: the store's one-second times tie, or even run backwards
        List<S3Client.Listed> listing = new java.util.ArrayList<>(List.of(
                o("generations/aaaa/snapshots/00000000.snapshot.lz4", 10),
                o("generations/aaaa/snapshots/00000001.snapshot.lz4", 11),
                o("generations/aaaa/snapshots/00000003.snapshot.lz4", 11),
                o("generations/aaaa/snapshots/00000002.snapshot.lz4", 12),
                o("generations/aaaa/wal/00000000_00000000.wal.lz4", 10),
                o("generations/aaaa/wal/00000000_00001000.wal.lz4", 10),
                o("generations/aaaa/wal/00000001_00000000.wal.lz4", 11),
                o("generations/aaaa/wal/00000002_00000000.wal.lz4", 11),
                o("generations/aaaa/wal/00000003_00000000.wal.lz4", 11),
                o("generations/aaaa/wal/00000003_00002000.wal.lz4", 12)));
        // index 3 is still being written: its snapshot may hold pages of frames the store lacks
        LitestreamLayout.Plan plan = new LitestreamLayout(P, listing).plan().orElseThrow();
        assertThat(plan.snapshotIndex()).isEqualTo(2);
        assertThat(plan.snapshotKey())
                .isEqualTo(P + "generations/aaaa/snapshots/00000002.snapshot.lz4");
        assertThat(plan.wal()).containsExactly(
                new LitestreamLayout.WalIndex(2, List.of(
                        P + "generations/aaaa/wal/00000002_00000000.wal.lz4")),
                new LitestreamLayout.WalIndex(3, List.of(
                        P + "generations/aaaa/wal/00000003_00000000.wal.lz4",
                        P + "generations/aaaa/wal/00000003_00002000.wal.lz4")));
        assertThat(plan.objects()).isEqualTo(4);

        // once the store holds WAL of a later index, every frame of index 3 is there
        listing.add(o("generations/aaaa/wal/00000004_00000000.wal.lz4", 13));
        plan = new LitestreamLayout(P, listing).plan().orElseThrow();
        assertThat(plan.snapshotIndex()).isEqualTo(3);
        assertThat(plan.objects()).isEqualTo(4);
    }

    @Test
    void aGenerationWhoseSnapshotsAreAllAtItsLastWalIndexIsRestoredFromTheNewest() {
        LitestreamLayout.Plan plan = new LitestreamLayout(P, List.of(
                o("generations/cccc/snapshots/00000005.snapshot.lz4", 10),
                o("generations/cccc/wal/00000005_00000000.wal.lz4", 10))).plan().orElseThrow();
        assertThat(plan.snapshotIndex()).isEqualTo(5);
        assertThat(plan.objects()).isEqualTo(2);
    }

    @Test
    void theLastWalSegmentOfAGenerationIsAtTheHighestOffsetOfItsHighestIndex() {
        LitestreamLayout layout = new LitestreamLayout(P, List.of(
                o("generations/bbbb/snapshots/00000001.snapshot.lz4", 10),
                o("generations/bbbb/wal/00000001_00000000.wal.lz4", 15),
                o("generations/bbbb/wal/00000002_00001000.wal.lz4", 20),
                o("generations/bbbb/wal/00000002_00000000.wal.lz4", 30),
                o("generations/cccc/wal/00000009_00000000.wal.lz4", 40)));
        assertThat(layout.lastSegment("bbbb")).get().satisfies(part -> {
            assertThat(part.key()).isEqualTo(P + "generations/bbbb/wal/00000002_00001000.wal.lz4");
            assertThat(part.index()).isEqualTo(2);
            assertThat(part.offset()).isEqualTo(0x1000);
        });
        assertThat(layout.lastSegment("dddd")).isEmpty();
    }

    @Test
    void aListingWithoutASnapshotGivesNothingToRestore() {
        assertThat(new LitestreamLayout(P, List.of(
                o("generations/aaaa/wal/00000000_00000000.wal.lz4", 0))).plan()).isEmpty();
        assertThat(new LitestreamLayout(P, List.of()).plan()).isEmpty();
    }

    @Test
    void aMissingWalIndexOrFirstSegmentFailsThePlan() {
        assertThatThrownBy(() -> new LitestreamLayout(P, List.of(
                o("generations/aaaa/snapshots/00000000.snapshot.lz4", 0),
                o("generations/aaaa/wal/00000000_00000000.wal.lz4", 1),
                o("generations/aaaa/wal/00000002_00000000.wal.lz4", 2))).plan())
                .isInstanceOf(ReplicaCorruptException.class).hasMessageContaining("lacks WAL index 1");
        assertThatThrownBy(() -> new LitestreamLayout(P, List.of(
                o("generations/aaaa/snapshots/00000000.snapshot.lz4", 0),
                o("generations/aaaa/wal/00000000_00001000.wal.lz4", 1))).plan())
                .isInstanceOf(ReplicaCorruptException.class).hasMessageContaining("offset 0");
    }

    @Test
    void aWholeWalPassesAndADamagedOrCutOneFails(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("w.db");
        byte[] wal;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode = WAL");
            s.execute("PRAGMA wal_autocheckpoint = 0");
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            s.execute("INSERT INTO t (v) VALUES ('a'), ('b')");
            s.execute("INSERT INTO t (v) VALUES (zeroblob(20000))");
            wal = Files.readAllBytes(dir.resolve("w.db-wal"));
        }
        int frames = SqliteFiles.checkWal(wal, 4096, "w");
        assertThat(frames).isGreaterThanOrEqualTo(2);

        byte[] damaged = wal.clone();
        damaged[damaged.length - 100] ^= 1;
        assertThatThrownBy(() -> SqliteFiles.checkWal(damaged, 4096, "w"))
                .isInstanceOf(ReplicaCorruptException.class).hasMessageContaining("checksum");
        byte[] cut = Arrays.copyOf(wal, wal.length - 10);
        assertThatThrownBy(() -> SqliteFiles.checkWal(cut, 4096, "w"))
                .isInstanceOf(ReplicaCorruptException.class).hasMessageContaining("whole frames");
        // the last transaction wrote several pages: without its last frame, it ends inside it
        byte[] lastFrameLost = Arrays.copyOf(wal, wal.length - 4096 - 24);
        assertThatThrownBy(() -> SqliteFiles.checkWal(lastFrameLost, 4096, "w"))
                .isInstanceOf(ReplicaCorruptException.class)
                .hasMessageContaining("inside a transaction");
        assertThatThrownBy(() -> SqliteFiles.checkDatabase(new byte[4096], "x"))
                .isInstanceOf(ReplicaCorruptException.class);
    }

    @Test
    void aDamagedLz4FrameFailsItsDecompression() {
        assertThatThrownBy(() -> ReplicaRestore.decompress(new byte[] {4, 34, 77, 24, 1, 2, 3},
                "k")).isInstanceOf(ReplicaCorruptException.class).hasMessageContaining("k");
    }

    private static S3Client.Listed o(String rel, int seconds) {
        return new S3Client.Listed(P + rel, T.plusSeconds(seconds), 1);
    }
}
