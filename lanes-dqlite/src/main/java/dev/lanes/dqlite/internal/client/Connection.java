package dev.lanes.dqlite.internal.client;

import dev.lanes.dqlite.DqliteConnectionException;
import dev.lanes.dqlite.DqliteException;
import dev.lanes.dqlite.DqliteProtocolException;
import dev.lanes.dqlite.DqliteResult;
import dev.lanes.dqlite.DqliteRole;
import dev.lanes.dqlite.DqliteRows;
import dev.lanes.dqlite.DqliteTimeoutException;
import dev.lanes.dqlite.internal.wire.MalformedResponseException;
import dev.lanes.dqlite.internal.wire.MessageEncoder;
import dev.lanes.dqlite.internal.wire.Protocol;
import dev.lanes.dqlite.internal.wire.RequestType;
import dev.lanes.dqlite.internal.wire.Requests;
import dev.lanes.dqlite.internal.wire.Responses;
import dev.lanes.dqlite.internal.wire.Rows;
import dev.lanes.spi.SqlStatements;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to one dqlite node: the handshake, then one request at a time.
 *
 * <p>Concurrency: {@code lock} is held from encoding a request until its whole response (every
 * batch of a result set) has been read, so requests never interleave on the socket (the server
 * asserts on a request sent while a result set is still streaming). {@code encoder} and every
 * read of {@code wire} happen under {@code lock}. {@code closedReason} is volatile: null while the
 * connection is usable, set once (first writer wins, under {@code lock} or from {@link #close()}
 * on any thread) and never cleared. {@link #close()} does not take {@code lock}, so it can end a
 * request that is waiting on a silent server.
 *
 * <p>Outcomes: a FAILURE response leaves the connection usable and is raised as the exception
 * {@link Failures} maps its code to. Anything else that goes wrong during a request (a timeout,
 * a dropped socket, an interrupt, a malformed or unexpected response) closes the connection for
 * good, since the next answer on the socket could belong to this request; the request {@link
 * DqliteException#mayHaveRun() may have run} when it can change the cluster and at least one of
 * its bytes was written. Nothing is ever sent twice.
 *
 * <p>Timeouts: the connect timeout bounds the TCP connect and the handshake; the request timeout
 * bounds the wait for each response message (for a result set: each batch).
 */
public final class Connection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Connection.class);

    private final String address;
    private final WireChannel wire;
    /** Set by the owner between requests; requests read it under lock. */
    private volatile long requestTimeoutNanos;
    private final long maxBodyBytes;
    private final WireEvents events;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private final MessageEncoder encoder;
    private volatile String closedReason;

    private Connection(String address, WireChannel wire, ClientConfig config) {
        this.address = address;
        this.wire = wire;
        this.requestTimeoutNanos = config.connectTimeout().toNanos();
        this.maxBodyBytes = config.maxMessageBytes();
        this.events = config.events();
        this.encoder = new MessageEncoder(config.maxMessageBytes());
    }

    /**
     * Connects to a node and sends the protocol version. Until {@link #setRequestTimeout} says
     * otherwise, requests wait for their answers as long as the connect timeout: the requests of
     * leader discovery must not hang for a whole request timeout on a node that is frozen.
     *
     * @throws DqliteConnectionException (never may-have-run) when the node cannot be reached
     *     within the connect timeout
     */
    public static Connection open(String address, ClientConfig config) {
        long deadline = System.nanoTime() + config.connectTimeout().toNanos();
        InetSocketAddress socketAddress;
        try {
            socketAddress = Addresses.resolve(address);
        } catch (IllegalArgumentException e) {
            throw new DqliteConnectionException(false, address, e.getMessage(), e);
        }
        if (socketAddress.isUnresolved()) {
            throw new DqliteConnectionException(false, address,
                    address + ": cannot resolve the host name", null);
        }
        WireChannel wire;
        try {
            wire = WireChannel.connect(socketAddress, deadline);
        } catch (WireChannel.WireTimeoutException e) {
            throw new DqliteTimeoutException(false, address,
                    address + ": no connection within " + config.connectTimeout().toMillis() + " ms");
        } catch (IOException e) {
            throw new DqliteConnectionException(false, address,
                    address + ": cannot connect: " + e.getMessage(), e);
        }
        try {
            ByteBuffer handshake = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            handshake.putLong(Protocol.VERSION).flip();
            wire.write(handshake, deadline, () -> {});
        } catch (IOException e) {
            wire.close();
            if (e instanceof WireChannel.WireTimeoutException) {
                throw new DqliteTimeoutException(false, address, address + ": handshake timed out");
            }
            throw new DqliteConnectionException(false, address,
                    address + ": handshake failed: " + e.getMessage(), e);
        }
        return new Connection(address, wire, config);
    }

    /** How long each response message may take from now on. */
    public void setRequestTimeout(java.time.Duration timeout) {
        requestTimeoutNanos = timeout.toNanos();
    }

    /** The {@code host:port} this connection was opened to. */
    public String address() {
        return address;
    }

    /** Whether the connection can still take requests. */
    public boolean isOpen() {
        return closedReason == null;
    }

    /** LEADER: the leader this node knows of; id 0 and an empty address when it knows none. */
    public Responses.NodeInfo leader() {
        return call(RequestType.LEADER, true, Requests::leader,
                x -> Responses.server(x.expect(Protocol.RESPONSE_SERVER)));
    }

    /** CLIENT: registers the client; returns the server's heartbeat timeout in milliseconds. */
    public long client(long clientId) {
        return call(RequestType.CLIENT, true, e -> Requests.client(e, clientId),
                x -> Responses.welcome(x.expect(Protocol.RESPONSE_WELCOME)));
    }

    /** OPEN: opens (creating if needed) the named database; returns its id on this connection. */
    public int open(String database) {
        return call(RequestType.OPEN, true, e -> Requests.open(e, database),
                x -> Responses.db(x.expect(Protocol.RESPONSE_DB)));
    }

    /** PREPARE: prepares the first statement of {@code sql}. */
    public Responses.StmtInfo prepare(int db, String sql) {
        return call(RequestType.PREPARE, true, e -> Requests.prepare(e, db, sql),
                x -> Responses.stmt(x.expect(Protocol.RESPONSE_STMT)));
    }

    /** EXEC: runs a prepared statement. */
    public DqliteResult exec(int db, int stmt, Object[] params) {
        return call(RequestType.EXEC, true, e -> Requests.exec(e, db, stmt, params),
                x -> Responses.result(x.expect(Protocol.RESPONSE_RESULT)));
    }

    /** QUERY: runs a prepared statement and reads every batch of its rows. */
    public DqliteRows query(int db, int stmt, Object[] params) {
        return call(RequestType.QUERY, true, e -> Requests.query(e, db, stmt, params), Exchange::rows);
    }

    /** FINALIZE: releases a prepared statement. */
    public void finalizeStatement(int db, int stmt) {
        call(RequestType.FINALIZE, true, e -> Requests.finalizeStatement(e, db, stmt), x -> {
            Responses.empty(x.expect(Protocol.RESPONSE_EMPTY));
            return null;
        });
    }

    /** EXEC_SQL: runs every statement of {@code sql}; the parameters bind to the first. */
    public DqliteResult execSql(int db, String sql, Object[] params) {
        return call(RequestType.EXEC_SQL, SqlStatements.count(sql) <= 1,
                e -> Requests.execSql(e, db, sql, params),
                x -> Responses.result(x.expect(Protocol.RESPONSE_RESULT)));
    }

    /** QUERY_SQL: runs the first statement of {@code sql} and reads every batch of its rows. */
    public DqliteRows querySql(int db, String sql, Object[] params) {
        return call(RequestType.QUERY_SQL, true,
                e -> Requests.querySql(e, db, sql, params), Exchange::rows);
    }

    /** ADD: adds a node to the configuration as a spare. */
    public void add(long id, String nodeAddress) {
        acknowledged(RequestType.ADD, e -> Requests.add(e, id, nodeAddress));
    }

    /** ASSIGN: gives a member a role. */
    public void assign(long id, DqliteRole role) {
        acknowledged(RequestType.ASSIGN, e -> Requests.assign(e, id, role));
    }

    /** REMOVE: removes a member from the configuration. */
    public void remove(long id) {
        acknowledged(RequestType.REMOVE, e -> Requests.remove(e, id));
    }

    /** CLUSTER: the members of the node's current configuration, with their roles. */
    public List<Responses.NodeInfo> cluster() {
        return call(RequestType.CLUSTER, true, Requests::cluster,
                x -> Responses.servers(x.expect(Protocol.RESPONSE_SERVERS),
                        Protocol.CLUSTER_FORMAT_ROLES));
    }

    private void acknowledged(RequestType type, RequestBody body) {
        call(type, true, body, x -> {
            Responses.empty(x.expect(Protocol.RESPONSE_EMPTY));
            return null;
        });
    }

    /**
     * Closes the connection; a request in progress on another thread fails at once. Idempotent.
     */
    @Override
    public void close() {
        markClosed("closed by the client");
        wire.close();
    }

    /** Closes the connection, recording why, for the message of every later call. */
    void close(String reason) {
        markClosed(reason);
        wire.close();
    }

    private void markClosed(String reason) {
        if (closedReason == null) {
            closedReason = reason;
        }
    }

    private DqliteConnectionException closedError() {
        return new DqliteConnectionException(false, address,
                address + ": the connection is closed (" + closedReason + "); the request was not sent",
                null);
    }

    private <T> T call(RequestType type, boolean singleStatement, RequestBody body,
            ResponseReader<T> reader) {
        if (closedReason != null) {
            throw closedError();
        }
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DqliteConnectionException(false, address,
                    address + ": interrupted while waiting for the connection; " + type + " was not sent",
                    e);
        }
        try {
            if (closedReason != null) {
                throw closedError();
            }
            ByteBuffer message = body.encode(encoder);
            Exchange exchange = new Exchange(type, singleStatement);
            try {
                wire.write(message, System.nanoTime() + requestTimeoutNanos, exchange::markSent);
                events.requestSent(address, type);
                return reader.read(exchange);
            } catch (WireChannel.WireTimeoutException e) {
                String text = address + ": " + type + " got no answer within "
                        + TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos) + " ms; connection closed; "
                        + exchange.outcomeText();
                close("a request timed out");
                throw new DqliteTimeoutException(exchange.mayHaveRun(), address, text);
            } catch (IOException e) {
                String text = address + ": " + type + " failed: " + describe(e) + "; connection closed; "
                        + exchange.outcomeText();
                close("the connection failed: " + describe(e));
                throw new DqliteConnectionException(exchange.mayHaveRun(), address, text, e);
            } catch (DqliteException e) {
                throw e; // a FAILURE response: the connection stays usable
            } catch (RuntimeException e) {
                // MalformedResponseException, or a decoder that met what it did not expect
                String text = address + ": " + type + " got a malformed response: " + e.getMessage()
                        + "; connection closed; " + exchange.outcomeText();
                close("a response was malformed");
                throw new DqliteProtocolException(exchange.mayHaveRun(), address, text);
            } catch (Error e) {
                // e.g. no memory for a large response: where the stream stands is unknown
                close("an error while reading: " + e);
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** Encodes the request (one of {@link Requests}) into the connection's encoder. */
    @FunctionalInterface
    private interface RequestBody {
        ByteBuffer encode(MessageEncoder encoder);
    }

    /** Reads a request's response messages through the exchange. */
    @FunctionalInterface
    private interface ResponseReader<T> {
        T read(Exchange exchange) throws IOException;
    }

    /** The state of the request in progress; lives under the lock, on one thread. */
    private final class Exchange {
        private final RequestType type;
        private final boolean singleStatement;
        private boolean sent;

        Exchange(RequestType type, boolean singleStatement) {
            this.type = type;
            this.singleStatement = singleStatement;
        }

        void markSent() {
            sent = true;
        }

        boolean mayHaveRun() {
            return sent && type.mayTakeEffect();
        }

        String outcomeText() {
            if (!type.mayTakeEffect()) {
                return "the request changes nothing";
            }
            return sent ? "it may have run: its outcome is unknown" : "it was not sent";
        }

        /**
         * The body of the next response, which must be of {@code expected} type; a FAILURE is
         * raised as its typed exception, and anything else is malformed.
         */
        ByteBuffer expect(int expected) throws IOException {
            long deadline = System.nanoTime() + requestTimeoutNanos;
            ByteBuffer header = wire.read(Protocol.HEADER_BYTES, deadline);
            long words = header.getInt(0) & 0xffff_ffffL;
            int responseType = header.get(4) & 0xff;
            long bytes = words * Protocol.WORD;
            if (bytes > maxBodyBytes) {
                throw new MalformedResponseException(Protocol.responseName(responseType) + " response of "
                        + bytes + " bytes, over the limit of " + maxBodyBytes + " (maxMessageBytes)");
            }
            ByteBuffer body = wire.read((int) bytes, deadline);
            events.responseReceived(address, responseType);
            if (responseType == expected) {
                return body;
            }
            if (responseType == Protocol.RESPONSE_FAILURE) {
                Responses.Failure failure = type == RequestType.QUERY || type == RequestType.QUERY_SQL
                        ? Responses.queryFailure(body)
                        : Responses.failure(body);
                if (log.isDebugEnabled()) {
                    log.debug("{}: {} failed with code {}: {}", address, type, failure.code(),
                            failure.message());
                }
                throw Failures.exception(type, failure.code(), failure.message(), address,
                        singleStatement);
            }
            throw new MalformedResponseException("expected a " + Protocol.responseName(expected)
                    + " response to " + type + ", got " + Protocol.responseName(responseType));
        }

        DqliteRows rows() throws IOException {
            List<String> columns = new ArrayList<>();
            List<List<Object>> rows = new ArrayList<>();
            while (!Rows.decodeBatch(expect(Protocol.RESPONSE_ROWS), columns, rows)) {
                // the server sends the next batch unasked; a result set is always read to its end
            }
            return new DqliteRows(columns, rows);
        }
    }
}
