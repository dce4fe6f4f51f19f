package dev.lanes.dqlite.internal.client;

import static dev.lanes.dqlite.internal.client.FakeNode.failure;
import static dev.lanes.dqlite.internal.client.FakeNode.reply;
import static dev.lanes.dqlite.internal.client.FakeNode.result;
import static dev.lanes.dqlite.internal.client.FakeNode.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.dqlite.DqliteConnectionException;
import dev.lanes.dqlite.DqliteConstraintException;
import dev.lanes.dqlite.DqliteException;
import dev.lanes.dqlite.DqliteInvalidRequestException;
import dev.lanes.dqlite.DqliteProtocolException;
import dev.lanes.dqlite.DqliteResult;
import dev.lanes.dqlite.DqliteRows;
import dev.lanes.dqlite.DqliteServerException;
import dev.lanes.dqlite.DqliteTimeoutException;
import dev.lanes.dqlite.internal.wire.Hex;
import dev.lanes.dqlite.internal.wire.RequestType;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transport's rules, against a scripted node: one request at a time, a result set read to its
 * end, a FAILURE leaves the connection usable, and a timeout, a drop or a malformed answer closes
 * it for good with an outcome that says whether the request may have run.
 */
@Timeout(30)
class ConnectionTest {
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final ClientConfig config = new ClientConfig(Duration.ofSeconds(2), Duration.ofMillis(300),
            Duration.ofSeconds(2), Duration.ofMillis(5), Duration.ofMillis(20), 77, 1 << 20,
            (address, type) -> sent.add(type.name()));
    private FakeNode node;

    @AfterEach
    void closeNode() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    private Connection connect(FakeNode.Script script) throws Exception {
        node = new FakeNode(script);
        Connection connection = Connection.open(node.address(), config);
        connection.setRequestTimeout(config.requestTimeout());
        return connection;
    }

    @Test
    void handshakeSendsProtocolVersionOne() throws Exception {
        try (Connection connection = connect(FakeNode.leader(1, List.of(), (n, r) -> new FakeNode.Drop()))) {
            assertThat(connection.client(77)).isEqualTo(15_000);
            assertThat(node.handshakes()).hasSize(1);
            assertThat(Hex.of(node.handshakes().get(0))).isEqualTo("0100000000000000");
            assertThat(node.requests().get(0).type()).isEqualTo(RequestType.CLIENT.code());
            assertThat(Hex.of(node.requests().get(0).body())).isEqualTo("4d00000000000000");
        }
    }

    @Test
    void aFailureAnswerIsTypedAndLeavesTheConnectionUsable() throws Exception {
        try (Connection connection = connect((n, r) -> r.type() == RequestType.EXEC_SQL.code()
                ? reply(failure(1555, "UNIQUE constraint failed: t.id"))
                : reply(result(3, 1)))) {
            DqliteConstraintException e = catchThrowableOfType(
                    () -> connection.execSql(0, "INSERT INTO t VALUES (1)", null),
                    DqliteConstraintException.class);
            assertThat(e.code()).isEqualTo(1555);
            assertThat(e.mayHaveRun()).isFalse();
            assertThat(e.serverMessage()).isEqualTo("UNIQUE constraint failed: t.id");
            assertThat(e.getMessage()).contains(node.address()).contains("code 1555").contains("did not run");
            assertThat(connection.isOpen()).isTrue();
            assertThat(connection.exec(0, 1, null)).isEqualTo(new DqliteResult(3, 1));
        }
    }

    @Test
    void aWriteThatTimesOutMayHaveRunAndTheConnectionIsNeverReused() throws Exception {
        try (Connection connection = connect((n, r) -> new FakeNode.Silence())) {
            DqliteTimeoutException e = catchThrowableOfType(
                    () -> connection.execSql(0, "INSERT INTO t VALUES (1)", null), DqliteTimeoutException.class);
            assertThat(e.mayHaveRun()).isTrue();
            assertThat(e.getMessage()).contains("no answer within 300 ms").contains("may have run");
            assertThat(connection.isOpen()).isFalse();

            DqliteConnectionException next = catchThrowableOfType(
                    () -> connection.execSql(0, "INSERT INTO t VALUES (2)", null), DqliteConnectionException.class);
            assertThat(next.mayHaveRun()).isFalse();
            assertThat(next.getMessage()).contains("closed (a request timed out)").contains("not sent");
            assertThat(node.requests()).hasSize(1);
            assertThat(sent).containsExactly("EXEC_SQL");
        }
    }

    @Test
    void aRequestThatChangesNothingNeverMayHaveRun() throws Exception {
        try (Connection connection = connect((n, r) -> new FakeNode.Silence())) {
            DqliteTimeoutException e = catchThrowableOfType(() -> connection.prepare(0, "SELECT 1"),
                    DqliteTimeoutException.class);
            assertThat(e.mayHaveRun()).isFalse();
            assertThat(connection.isOpen()).isFalse();
        }
    }

    @Test
    void aDroppedConnectionAfterAWriteWasSentMayHaveRun() throws Exception {
        try (Connection connection = connect((n, r) -> new FakeNode.Drop())) {
            DqliteConnectionException e = catchThrowableOfType(() -> connection.exec(0, 1, new Object[] {1L}),
                    DqliteConnectionException.class);
            assertThat(e).isNotInstanceOf(DqliteTimeoutException.class);
            assertThat(e.mayHaveRun()).isTrue();
            assertThat(e.getMessage()).contains("closed the connection");
            assertThat(connection.isOpen()).isFalse();
        }
    }

    @Test
    void aRefusedConnectIsNotRun() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        DqliteConnectionException e = catchThrowableOfType(
                () -> Connection.open("127.0.0.1:" + port, config), DqliteConnectionException.class);
        assertThat(e.mayHaveRun()).isFalse();
        assertThat(e.node()).isEqualTo("127.0.0.1:" + port);
        assertThat(e.getMessage()).contains("cannot connect");
    }

    @Test
    void anUnexpectedOrMalformedAnswerClosesTheConnection() throws Exception {
        try (Connection connection = connect((n, r) -> reply(rows(true, 1)))) {
            DqliteProtocolException e = catchThrowableOfType(() -> connection.execSql(0, "UPDATE t SET v = 1", null),
                    DqliteProtocolException.class);
            assertThat(e.mayHaveRun()).isTrue();
            assertThat(e.getMessage()).contains("expected a RESULT response to EXEC_SQL, got ROWS");
            assertThat(connection.isOpen()).isFalse();
        }
        node.close();
        // a header announcing a body over the limit is refused before anything is allocated
        try (Connection connection = connect((n, r) -> reply(Hex.bytes("ffffff00 06 00 0000")))) {
            DqliteProtocolException e = catchThrowableOfType(() -> connection.exec(0, 1, null),
                    DqliteProtocolException.class);
            assertThat(e.getMessage()).contains("over the limit of 1048576");
            assertThat(connection.isOpen()).isFalse();
        }
    }

    @Test
    void aResultSetIsReadAcrossItsBatches() throws Exception {
        try (Connection connection = connect((n, r) -> reply(rows(false, 1, 2), rows(false, 3), rows(true, 4)))) {
            DqliteRows result = connection.querySql(0, "SELECT n FROM t", null);
            assertThat(result.columns()).containsExactly("n");
            assertThat(result.rows()).extracting(row -> row.get(0)).containsExactly(1L, 2L, 3L, 4L);
        }
    }

    @Test
    void aFailureAfterSomeBatchesEndsTheResultSetAndKeepsTheConnection() throws Exception {
        try (Connection connection = connect((n, r) -> r.type() == RequestType.QUERY_SQL.code()
                ? reply(rows(false, 1), failure(1, "integer overflow"))
                : reply(result(0, 0)))) {
            DqliteServerException e = catchThrowableOfType(() -> connection.querySql(0, "SELECT sum(n) FROM t", null),
                    DqliteServerException.class);
            assertThat(e.code()).isEqualTo(1);
            assertThat(e.serverMessage()).isEqualTo("integer overflow");
            assertThat(connection.isOpen()).isTrue();
            assertThat(connection.execSql(0, "SELECT 1", null)).isEqualTo(new DqliteResult(0, 0));
        }
    }

    @Test
    void requestsNeverInterleaveWhileAResultSetStreams() throws Exception {
        CountDownLatch finishFirst = new CountDownLatch(1);
        Connection connection = connect((n, r) -> {
            if (n.requests().size() == 1) {
                finishFirst.await();
            }
            return reply(rows(true, n.requests().size()));
        });
        try (connection) {
            CompletableFuture<DqliteRows> first = CompletableFuture.supplyAsync(
                    () -> connection.querySql(0, "SELECT 1", null));
            assertThat(node.awaitRequests(1, 10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<DqliteRows> second = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    second.complete(connection.querySql(0, "SELECT 2", null));
                } catch (RuntimeException e) {
                    second.completeExceptionally(e);
                }
            });
            thread.start();
            awaitParked(thread);
            // the second caller waits for the connection; nothing of its request reached the node
            assertThat(node.unreadBytes(0)).isZero();
            assertThat(sent).containsExactly("QUERY_SQL");
            finishFirst.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS).rows().get(0)).containsExactly(1L);
            assertThat(second.get(10, TimeUnit.SECONDS).rows().get(0)).containsExactly(2L);
            assertThat(node.requests()).hasSize(2);
        }
    }

    @Test
    void closeFromAnotherThreadEndsARequestThatWaits() throws Exception {
        Connection connection = connect((n, r) -> new FakeNode.Silence());
        connection.setRequestTimeout(Duration.ofSeconds(20));
        CompletableFuture<DqliteResult> call = CompletableFuture.supplyAsync(
                () -> connection.execSql(0, "DELETE FROM t", null));
        assertThat(node.awaitRequests(1, 10, TimeUnit.SECONDS)).isTrue();
        connection.close();
        Throwable failure = catchThrowableOfType(() -> call.get(10, TimeUnit.SECONDS),
                java.util.concurrent.ExecutionException.class).getCause();
        assertThat(failure).isInstanceOf(DqliteConnectionException.class);
        assertThat(((DqliteException) failure).mayHaveRun()).isTrue();
    }

    @Test
    void anInterruptedWaitClosesTheConnectionAndKeepsTheInterrupt() throws Exception {
        Connection connection = connect((n, r) -> new FakeNode.Silence());
        connection.setRequestTimeout(Duration.ofSeconds(20));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                connection.exec(0, 1, null);
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(Thread.currentThread().isInterrupted() ? t : new AssertionError("interrupt lost", t));
            }
        });
        caller.start();
        assertThat(node.awaitRequests(1, 10, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        Throwable failure = outcome.get(10, TimeUnit.SECONDS);
        assertThat(failure).isInstanceOf(DqliteConnectionException.class);
        assertThat(((DqliteException) failure).mayHaveRun()).isTrue();
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void inputRefusedBeforeSendingLeavesTheConnectionIntact() throws Exception {
        try (Connection connection = connect((n, r) -> reply(result(1, 1)))) {
            assertThatThrownBy(() -> connection.execSql(0, "INSERT INTO t VALUES (?)", new Object[] {new Object()}))
                    .isInstanceOf(DqliteInvalidRequestException.class);
            assertThat(connection.isOpen()).isTrue();
            assertThat(sent).isEmpty();
            assertThat(connection.execSql(0, "INSERT INTO t VALUES (?)", new Object[] {1L}))
                    .isEqualTo(new DqliteResult(1, 1));
        }
    }

    /** Waits, bounded, until the thread parks (here: on the connection's request lock). */
    private static void awaitParked(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("thread never waited: " + thread.getState());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
