package dev.lanes.dqlite.internal.wire;

import dev.lanes.dqlite.DqliteResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Decoders of the response bodies (schema 0). Fields a later schema revision appends are
 * ignored, as the protocol allows; a body too short for its fields is malformed.
 */
public final class Responses {
    private Responses() {}

    /** A FAILURE response: SQLite's or dqlite's numeric code and the server's message. */
    public record Failure(long code, String message) {}

    /** A node as SERVER and SERVERS responses describe it; {@code role} is -1 when not sent. */
    public record NodeInfo(long id, String address, int role) {}

    /** A STMT response: the prepared statement's handle and its parameter count. */
    public record StmtInfo(int db, int id, long params) {}

    public static Failure failure(ByteBuffer body) {
        BodyReader in = new BodyReader(body);
        return new Failure(in.u64(), in.text());
    }

    /**
     * The FAILURE response to a QUERY or QUERY_SQL. libdqlite 1.11 writes the failure of a
     * statement that fails while it steps after the column header (and any rows) it had already
     * put in the same message, so the body is {@code [column count, names, rows...] code
     * message}. A body that is a plain failure is read as one; otherwise the prefix is skipped.
     */
    public static Failure queryFailure(ByteBuffer body) {
        int start = body.position();
        Failure plain = tryPlainFailure(body, start);
        if (plain != null) {
            return plain;
        }
        body.position(start);
        BodyReader in = new BodyReader(body);
        List<String> columns = new ArrayList<>();
        try {
            long count = in.u64();
            if (count <= 0 || count > in.remaining()) {
                throw new MalformedResponseException("failure body with " + count + " columns");
            }
            for (long i = 0; i < count; i++) {
                columns.add(in.text());
            }
            List<Object> row = new ArrayList<>();
            while (in.remaining() > 0) {
                Failure tail = tryPlainFailure(body, in.position());
                if (tail != null) {
                    return tail;
                }
                row.clear();
                Rows.decodeRow(in, columns.size(), row);
            }
        } catch (MalformedResponseException e) {
            throw new MalformedResponseException("FAILURE response to a query could not be read: "
                    + e.getMessage());
        }
        throw new MalformedResponseException("FAILURE response to a query has no failure in it");
    }

    /** A failure filling the body from {@code at} to its end exactly, or null. */
    private static Failure tryPlainFailure(ByteBuffer body, int at) {
        ByteBuffer view = body.duplicate();
        view.position(at);
        try {
            BodyReader in = new BodyReader(view);
            long code = in.u64();
            String message = in.text();
            if (in.remaining() == 0 && code >= 0 && code < (1L << 20)) {
                body.position(view.position());
                return new Failure(code, message);
            }
        } catch (MalformedResponseException e) {
            // not a plain failure from here
        }
        return null;
    }

    public static NodeInfo server(ByteBuffer body) {
        BodyReader in = new BodyReader(body);
        return new NodeInfo(in.u64(), in.text(), -1);
    }

    /** A WELCOME response: the server's heartbeat timeout in milliseconds. */
    public static long welcome(ByteBuffer body) {
        return new BodyReader(body).u64();
    }

    /** A SERVERS response to a CLUSTER request of the given format (0: no roles, 1: roles). */
    public static List<NodeInfo> servers(ByteBuffer body, long format) {
        BodyReader in = new BodyReader(body);
        long count = in.u64();
        if (count < 0 || count > in.remaining() / 16) {
            throw new MalformedResponseException("SERVERS response lists " + count + " nodes in "
                    + in.remaining() + " bytes");
        }
        List<NodeInfo> nodes = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            long id = in.u64();
            String address = in.text();
            int role = format >= Protocol.CLUSTER_FORMAT_ROLES ? (int) in.u64() : -1;
            nodes.add(new NodeInfo(id, address, role));
        }
        return nodes;
    }

    /** A DB response: the id of the database the connection opened. */
    public static int db(ByteBuffer body) {
        BodyReader in = new BodyReader(body);
        int id = in.u32();
        in.u32(); // padding
        return id;
    }

    public static StmtInfo stmt(ByteBuffer body) {
        BodyReader in = new BodyReader(body);
        return new StmtInfo(in.u32(), in.u32(), in.u64());
    }

    public static DqliteResult result(ByteBuffer body) {
        BodyReader in = new BodyReader(body);
        return new DqliteResult(in.u64(), in.u64());
    }

    /** An EMPTY response: an acknowledgement with one unused word. */
    public static void empty(ByteBuffer body) {
        new BodyReader(body).u64();
    }
}
