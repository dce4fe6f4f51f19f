package dev.lanes.dqlite.internal.wire;

/**
 * The numbers of the dqlite wire protocol, version 1, as libdqlite 1.11 speaks it (schema 0 of
 * every message).
 *
 * <p>Framing: after connecting, the client sends one little-endian u64, the protocol version.
 * Then every message, in either direction, is an 8-byte header (body length in 8-byte words as a
 * u32, the message type, the schema revision, two reserved bytes) followed by the body. Every
 * body field is little endian and every field ends on an 8-byte boundary.
 */
public final class Protocol {
    private Protocol() {}

    /** The protocol version the client announces in the handshake. */
    public static final long VERSION = 1;

    /** Bytes in a word; message bodies are a whole number of words. */
    public static final int WORD = 8;

    /** Bytes in a message header. */
    public static final int HEADER_BYTES = 8;

    /** The end marker of the last batch of a result set. */
    public static final long ROWS_DONE = 0xffff_ffff_ffff_ffffL;

    /** The end marker of a batch that more batches follow. */
    public static final long ROWS_PART = 0xeeee_eeee_eeee_eeeeL;

    /** At most this many parameters fit a tuple at schema 0 (the count is one byte). */
    public static final int MAX_PARAMS = 255;

    /** CLUSTER request format that lists id, address and role. */
    public static final long CLUSTER_FORMAT_ROLES = 1;

    // Response types.
    public static final int RESPONSE_FAILURE = 0;
    public static final int RESPONSE_SERVER = 1;
    public static final int RESPONSE_WELCOME = 2;
    public static final int RESPONSE_SERVERS = 3;
    public static final int RESPONSE_DB = 4;
    public static final int RESPONSE_STMT = 5;
    public static final int RESPONSE_RESULT = 6;
    public static final int RESPONSE_ROWS = 7;
    public static final int RESPONSE_EMPTY = 8;

    // Value type codes of tuples (SQLite's fundamental types, then dqlite's own).
    public static final int TYPE_INTEGER = 1;
    public static final int TYPE_FLOAT = 2;
    public static final int TYPE_TEXT = 3;
    public static final int TYPE_BLOB = 4;
    public static final int TYPE_NULL = 5;
    public static final int TYPE_UNIXTIME = 9;
    public static final int TYPE_ISO8601 = 10;
    public static final int TYPE_BOOLEAN = 11;

    /** The name of a response type, for error messages. */
    public static String responseName(int type) {
        return switch (type) {
            case RESPONSE_FAILURE -> "FAILURE";
            case RESPONSE_SERVER -> "SERVER";
            case RESPONSE_WELCOME -> "WELCOME";
            case RESPONSE_SERVERS -> "SERVERS";
            case RESPONSE_DB -> "DB";
            case RESPONSE_STMT -> "STMT";
            case RESPONSE_RESULT -> "RESULT";
            case RESPONSE_ROWS -> "ROWS";
            case RESPONSE_EMPTY -> "EMPTY";
            default -> "type " + type;
        };
    }
}
