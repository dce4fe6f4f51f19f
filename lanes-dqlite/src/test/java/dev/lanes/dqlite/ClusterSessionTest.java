package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.dqlite.internal.client.Connection;
import dev.lanes.dqlite.internal.client.WireEvents;
import dev.lanes.dqlite.internal.wire.Protocol;
import dev.lanes.dqlite.internal.wire.RequestType;
import dev.lanes.dqlite.testing.LocalCluster;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sessions against a real 3-node dqlite cluster (separate processes on 127.0.0.1): every value
 * type, prepared statements, a result set of many batches, interactive transactions, 64
 * concurrent clients, and the server's refusals as typed errors with their outcomes. Each test
 * uses its own database.
 */
@Tag("slow")
@Timeout(60)
class ClusterSessionTest {
    private static LocalCluster cluster;
    private static DqliteCluster client;
    private static final AtomicInteger rowBatches = new AtomicInteger();

    @BeforeAll
    static void startCluster() {
        cluster = TestCluster.start(3);
        client = cluster.clientBuilder().events(new WireEvents() {
            @Override
            public void requestSent(String address, RequestType type) {}

            @Override
            public void responseReceived(String address, int responseType) {
                if (responseType == Protocol.RESPONSE_ROWS) {
                    rowBatches.incrementAndGet();
                }
            }
        }).build();
    }

    /**
     * A node other than the leader. Node 1 bootstraps and leads unless the machine stalls a node
     * past an election timeout, so the tests ask who leads rather than assume it.
     */
    private static String aFollowerOf(String leader) {
        return cluster.nodes().stream().map(n -> n.address()).filter(a -> !a.equals(leader)).findFirst()
                .orElseThrow();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyValueTypeRoundTripsThroughInsertSelectUpdateAndDelete() {
        try (DqliteSession session = client.connect("types")) {
            DqliteNode leader = client.leader();
            assertThat(session.node()).isEqualTo(leader.address());
            assertThat(session.nodeId()).isEqualTo(leader.id());
            session.exec("CREATE TABLE v(id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT, b BLOB,"
                    + " n TEXT, flag BOOLEAN, at DATETIME, day DATE)");
            byte[] blob = new byte[256];
            for (int k = 0; k < blob.length; k++) {
                blob[k] = (byte) k;
            }
            Instant at = Instant.parse("2024-02-29T23:59:58.123456789Z");
            DqliteResult inserted = session.exec("INSERT INTO v(i, f, s, b, n, flag, at, day)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", Long.MIN_VALUE, 3.25, "héllo ✓ \uD83D\uDE80", blob,
                    null, true, at, LocalDate.of(2024, 2, 29));
            assertThat(inserted).isEqualTo(new DqliteResult(1, 1));

            DqliteRows rows = session.query("SELECT * FROM v");
            assertThat(rows.columns()).containsExactly("id", "i", "f", "s", "b", "n", "flag", "at", "day");
            assertThat(rows.size()).isEqualTo(1);
            assertThat(rows.get(0, "id")).isEqualTo(1L);
            assertThat(rows.get(0, "i")).isEqualTo(Long.MIN_VALUE);
            assertThat(rows.get(0, "f")).isEqualTo(3.25);
            assertThat(rows.get(0, "s")).isEqualTo("héllo ✓ \uD83D\uDE80");
            assertThat((byte[]) rows.get(0, "b")).isEqualTo(blob);
            assertThat(rows.get(0, "n")).isNull();
            assertThat(rows.get(0, "flag")).isEqualTo(true);
            assertThat(((OffsetDateTime) rows.get(0, "at")).toInstant()).isEqualTo(at);
            assertThat(rows.get(0, "day")).isEqualTo(OffsetDateTime.of(2024, 2, 29, 0, 0, 0, 0, ZoneOffset.UTC));

            assertThat(session.exec("UPDATE v SET s = ?, flag = ?, at = ?, f = ? WHERE id = ?",
                    "changed", false, 1_700_000_000L, -0.5, 1L).rowsAffected()).isEqualTo(1);
            DqliteRows updated = session.query("SELECT s, flag, at, f, typeof(at) FROM v WHERE id = ?", 1);
            assertThat(updated.rows().get(0)).containsExactly("changed", false,
                    Instant.ofEpochSecond(1_700_000_000L), -0.5, "integer");

            assertThat(session.exec("DELETE FROM v WHERE id = ?", 1).rowsAffected()).isEqualTo(1);
            assertThat(session.query("SELECT count(*) FROM v").rows().get(0)).containsExactly(0L);
        }
    }

    @Test
    void aBlobLargerThanManyPagesRoundTrips() {
        try (DqliteSession session = client.connect("blobs")) {
            session.exec("CREATE TABLE b(id INTEGER PRIMARY KEY, data BLOB)");
            byte[] data = new byte[1 << 20];
            ThreadLocalRandom.current().nextBytes(data);
            session.exec("INSERT INTO b(data) VALUES (?)", (Object) data);
            DqliteRows rows = session.query("SELECT data, length(data) FROM b");
            assertThat((byte[]) rows.rows().get(0).get(0)).isEqualTo(data);
            assertThat(rows.rows().get(0).get(1)).isEqualTo((long) data.length);
        }
    }

    @Test
    void tenThousandRowsComeBackInOrderAcrossManyBatches() {
        try (DqliteSession session = client.connect("big")) {
            session.exec("CREATE TABLE big(n INTEGER PRIMARY KEY, s TEXT)");
            DqliteResult inserted = session.exec("INSERT INTO big(n, s) WITH RECURSIVE c(x) AS"
                    + " (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT x, 'row-' || x FROM c");
            assertThat(inserted.rowsAffected()).isEqualTo(10_000);
            int batchesBefore = rowBatches.get();

            DqliteRows rows = session.query("SELECT n, s FROM big ORDER BY n");

            // the server cuts a result set into batches of about one memory page (4 KiB)
            assertThat(rowBatches.get() - batchesBefore).isGreaterThan(10);
            assertThat(rows.size()).isEqualTo(10_000);
            for (int k = 0; k < rows.size(); k++) {
                assertThat(rows.rows().get(k)).containsExactly((long) k + 1, "row-" + (k + 1));
            }
            // the connection is clean after the stream: the next request gets its own answer
            assertThat(session.query("SELECT count(*) FROM big").rows().get(0)).containsExactly(10_000L);
        }
    }

    @Test
    void preparedStatementsRunRepeatedlyAndRefuseMisuse() {
        try (DqliteSession session = client.connect("prepared");
                DqliteSession other = client.connect("prepared")) {
            session.exec("CREATE TABLE p(k INTEGER PRIMARY KEY, v TEXT)");
            DqliteStatement insert = session.prepare("INSERT INTO p(k, v) VALUES (?, ?)");
            assertThat(insert.parameterCount()).isEqualTo(2);
            for (long k = 1; k <= 50; k++) {
                assertThat(session.exec(insert, k, "v" + k)).isEqualTo(new DqliteResult(k, 1));
            }
            try (DqliteStatement select = session.prepare("SELECT v FROM p WHERE k >= ? ORDER BY k")) {
                assertThat(session.query(select, 49L).rows()).containsExactly(List.of("v49"), List.of("v50"));
                assertThat(session.query(select, 50L).rows()).containsExactly(List.of("v50"));
            }
            assertThatThrownBy(() -> session.exec(insert, 51L))
                    .isInstanceOf(DqliteInvalidRequestException.class).hasMessageContaining("takes 2 parameters, 1 given");
            assertThatThrownBy(() -> other.exec(insert, 52L, "x"))
                    .isInstanceOf(DqliteInvalidRequestException.class).hasMessageContaining("another session");
            insert.close();
            insert.close();
            assertThatThrownBy(() -> session.exec(insert, 53L, "x"))
                    .isInstanceOf(DqliteInvalidRequestException.class).hasMessageContaining("closed");
            assertThat(session.query("SELECT count(*) FROM p").rows().get(0)).containsExactly(50L);
        }
    }

    @Test
    void anInteractiveTransactionBecomesVisibleOnlyAtCommit() {
        try (DqliteSession writer = client.connect("tx"); DqliteSession reader = client.connect("tx")) {
            writer.exec("CREATE TABLE t(v TEXT)");
            writer.exec("BEGIN");
            writer.exec("INSERT INTO t VALUES ('a')");
            writer.exec("INSERT INTO t VALUES ('b')");
            assertThat(writer.query("SELECT count(*) FROM t").rows().get(0)).containsExactly(2L);
            assertThat(reader.query("SELECT count(*) FROM t").rows().get(0)).containsExactly(0L);
            // another connection's write waits for no one: SQLite refuses it busy, before it runs
            DqliteBusyException busy = catchThrowableOfType(() -> reader.exec("INSERT INTO t VALUES ('x')"),
                    DqliteBusyException.class);
            assertThat(busy.code()).isEqualTo(5);
            assertThat(busy.mayHaveRun()).isFalse();
            writer.exec("COMMIT");
            assertThat(reader.query("SELECT v FROM t ORDER BY v").rows()).containsExactly(List.of("a"), List.of("b"));

            writer.exec("BEGIN");
            writer.exec("INSERT INTO t VALUES ('c')");
            writer.exec("ROLLBACK");
            assertThat(reader.query("SELECT count(*) FROM t").rows().get(0)).containsExactly(2L);
            assertThat(reader.isOpen()).isTrue();
        }
    }

    @Test
    void sixtyFourClientsEachOnItsOwnConnectionLandEveryRowExactlyOnce() throws Exception {
        try (DqliteSession setup = client.connect("many")) {
            setup.exec("CREATE TABLE m(client INTEGER, n INTEGER, PRIMARY KEY (client, n))");
        }
        int clients = 64;
        int rowsEach = 10;
        CyclicBarrier start = new CyclicBarrier(clients);
        AtomicInteger busyRefusals = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<CompletableFuture<String>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                long id = c;
                done.add(CompletableFuture.supplyAsync(() -> {
                    try (DqliteSession session = client.connect("many")) {
                        start.await(30, TimeUnit.SECONDS);
                        for (long n = 0; n < rowsEach; n++) {
                            while (true) {
                                try {
                                    session.exec("INSERT INTO m VALUES (?, ?)", id, n);
                                    break;
                                } catch (DqliteBusyException e) {
                                    // another connection held the write lock; the insert did not
                                    // run, so it is safe to send again
                                    assertThat(e.mayHaveRun()).isFalse();
                                    busyRefusals.incrementAndGet();
                                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 2_000_000));
                                }
                            }
                        }
                        return session.node();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            String leader = client.leader().address();
            for (CompletableFuture<String> future : done) {
                assertThat(future.get(50, TimeUnit.SECONDS)).isEqualTo(leader);
            }
        } finally {
            pool.shutdownNow();
        }
        try (DqliteSession session = client.connect("many")) {
            // no refused insert ran: a refused one that had run would collide on the primary key
            assertThat(session.query("SELECT count(*), count(DISTINCT client) FROM m").rows().get(0))
                    .containsExactly((long) clients * rowsEach, (long) clients);
        }
    }

    @Test
    void constraintAndSqlErrorsAreTypedDidNotRunAndKeepTheSession() {
        try (DqliteSession session = client.connect("errors")) {
            session.exec("CREATE TABLE e(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
            session.exec("INSERT INTO e VALUES (1, 'one')");

            DqliteConstraintException duplicate = catchThrowableOfType(
                    () -> session.exec("INSERT INTO e VALUES (1, 'again')"), DqliteConstraintException.class);
            assertThat(duplicate.code()).isEqualTo(DqliteCodes.CONSTRAINT_PRIMARYKEY);
            assertThat(duplicate.mayHaveRun()).isFalse();
            DqliteConstraintException notNull = catchThrowableOfType(
                    () -> session.exec("INSERT INTO e VALUES (2, NULL)"), DqliteConstraintException.class);
            assertThat(notNull.code()).isEqualTo(1299);

            DqliteServerException syntax = catchThrowableOfType(() -> session.exec("INSRT INTO e VALUES (3, 'x')"),
                    DqliteServerException.class);
            assertThat(syntax.code()).isEqualTo(DqliteCodes.ERROR);
            assertThat(syntax.mayHaveRun()).isFalse();
            assertThat(syntax.serverMessage()).contains("syntax error");
            assertThat(catchThrowableOfType(() -> session.query("SELECT * FROM missing"),
                    DqliteServerException.class).code()).isEqualTo(DqliteCodes.ERROR);

            assertThat(session.isOpen()).isTrue();
            assertThat(session.query("SELECT id, v FROM e").rows()).containsExactly(List.of(1L, "one"));
        }
    }

    @Test
    void theServersOtherRefusalsCarryTheirCodesAndOutcomes() {
        try (DqliteSession session = client.connect("refusals")) {
            session.exec("CREATE TABLE r(at DATETIME)");
            // exec of a statement that yields rows: it stepped once, so it may have run
            DqliteServerException row = catchThrowableOfType(() -> session.exec("SELECT 1"),
                    DqliteServerException.class);
            assertThat(row.code()).isEqualTo(DqliteCodes.ROW);
            assertThat(row.mayHaveRun()).isTrue();
            // libdqlite 1.11 binds no UNIXTIME parameter: refused before the statement ran
            DqliteServerException unixTime = catchThrowableOfType(
                    () -> session.exec("INSERT INTO r VALUES (?)", new UnixTime(1)), DqliteServerException.class);
            assertThat(unixTime.code()).isEqualTo(DqliteCodes.PARSE);
            assertThat(unixTime.mayHaveRun()).isFalse();
            // a statement that fails while stepping, at once and after rows in the same batch
            DqliteServerException overflow = catchThrowableOfType(
                    () -> session.query("SELECT abs(-9223372036854775808)"), DqliteServerException.class);
            assertThat(overflow.code()).isEqualTo(DqliteCodes.ERROR);
            assertThat(overflow.serverMessage()).isEqualTo("integer overflow");
            DqliteServerException late = catchThrowableOfType(() -> session.query(
                    "SELECT CASE WHEN x = 3 THEN abs(-9223372036854775808) ELSE x END"
                            + " FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3)"),
                    DqliteServerException.class);
            assertThat(late.serverMessage()).isEqualTo("integer overflow");
            assertThat(session.isOpen()).isTrue();
            assertThat(session.query("SELECT count(*) FROM r").rows().get(0)).containsExactly(0L);
        }
    }

    @Test
    void badInputIsRefusedBeforeSendingAndTheSessionGoesOn() {
        try (DqliteSession session = client.connect("input")) {
            StringBuilder sql = new StringBuilder("SELECT ?");
            for (int k = 1; k < 255; k++) {
                sql.append(" + ?");
            }
            Object[] params = new Object[255];
            java.util.Arrays.fill(params, 2L);
            assertThat(session.query(sql.toString(), params).rows().get(0)).containsExactly(510L);
            assertThatThrownBy(() -> session.query(sql + " + ?", new Object[256]))
                    .isInstanceOf(DqliteInvalidRequestException.class).hasMessageContaining("at most 255");
            assertThatThrownBy(() -> session.exec("SELECT ?", "nul\0inside"))
                    .isInstanceOf(DqliteInvalidRequestException.class).hasMessageContaining("NUL");
            assertThat(session.query("SELECT 'still here'").rows().get(0)).containsExactly("still here");
        }
    }

    @Test
    void aFollowerRefusesReadsAndWritesAsNotLeaderBeforeRunningThem() {
        String leader = client.leader().address();
        String follower = aFollowerOf(leader);
        try (Connection connection = TestCluster.rawConnection(follower)) {
            assertThat(connection.leader().address()).isEqualTo(leader);
            int db = connection.open("follower");
            DqliteNotLeaderException write = catchThrowableOfType(
                    () -> connection.execSql(db, "CREATE TABLE f(x)", null), DqliteNotLeaderException.class);
            assertThat(write.code()).isEqualTo(10250);
            assertThat(write.mayHaveRun()).isFalse();
            assertThat(write.node()).isEqualTo(follower);
            assertThat(catchThrowableOfType(() -> connection.querySql(db, "SELECT 1", null),
                    DqliteNotLeaderException.class).mayHaveRun()).isFalse();
            assertThat(catchThrowableOfType(() -> connection.add(9, "127.0.0.1:1"),
                    DqliteNotLeaderException.class).mayHaveRun()).isFalse();
        }
        try (DqliteSession session = client.connect("follower")) {
            assertThat(session.query("SELECT count(*) FROM sqlite_master WHERE name = 'f'").rows().get(0))
                    .containsExactly(0L);
        }
    }

    @Test
    void aClientThatKnowsOnlyAFollowerFindsTheLeaderAndLearnsEveryNode() {
        DqliteNode leader = client.leader();
        DqliteCluster throughFollower = DqliteCluster.builder().nodes(aFollowerOf(leader.address())).build();
        try (DqliteSession session = throughFollower.connect("discovery")) {
            assertThat(session.node()).isEqualTo(leader.address());
            session.exec("CREATE TABLE d(x)");
        }
        assertThat(throughFollower.knownNodes()).containsExactlyInAnyOrder(cluster.addresses());
        assertThat(throughFollower.knownNodes().get(0)).isEqualTo(leader.address());
        assertThat(throughFollower.leader()).isEqualTo(leader);
    }
}
