package dev.lanes.dqlite.internal.wire;

import dev.lanes.dqlite.DqliteRole;
import java.nio.ByteBuffer;

/**
 * Encoders of the requests (schema 0), each into the given encoder's buffer: the returned buffer
 * is the whole message, valid until the encoder's next use.
 */
public final class Requests {
    private Requests() {}

    /** LEADER: one unused word. */
    public static ByteBuffer leader(MessageEncoder e) {
        return e.begin().u64(0).finish(RequestType.LEADER);
    }

    /** CLIENT: the client's id. */
    public static ByteBuffer client(MessageEncoder e, long clientId) {
        return e.begin().u64(clientId).finish(RequestType.CLIENT);
    }

    /** OPEN: the database name, flags (unused, 0) and a VFS name (unused, empty). */
    public static ByteBuffer open(MessageEncoder e, String database) {
        return e.begin().text(database, "database name").u64(0).text("", "vfs").finish(RequestType.OPEN);
    }

    /** PREPARE: the database id as a u64, then the SQL text. */
    public static ByteBuffer prepare(MessageEncoder e, int db, String sql) {
        return e.begin().u64(db).text(sql, "SQL text").finish(RequestType.PREPARE);
    }

    /** EXEC: database and statement ids as two u32, then the parameter tuple. */
    public static ByteBuffer exec(MessageEncoder e, int db, int stmt, Object[] params) {
        return e.begin().u32Pair(db, stmt).params(params).finish(RequestType.EXEC);
    }

    /** QUERY: as EXEC. */
    public static ByteBuffer query(MessageEncoder e, int db, int stmt, Object[] params) {
        return e.begin().u32Pair(db, stmt).params(params).finish(RequestType.QUERY);
    }

    /** FINALIZE: database and statement ids as two u32. */
    public static ByteBuffer finalizeStatement(MessageEncoder e, int db, int stmt) {
        return e.begin().u32Pair(db, stmt).finish(RequestType.FINALIZE);
    }

    /** EXEC_SQL: the database id as a u64, the SQL text, then the parameter tuple. */
    public static ByteBuffer execSql(MessageEncoder e, int db, String sql, Object[] params) {
        return e.begin().u64(db).text(sql, "SQL text").params(params).finish(RequestType.EXEC_SQL);
    }

    /** QUERY_SQL: as EXEC_SQL. */
    public static ByteBuffer querySql(MessageEncoder e, int db, String sql, Object[] params) {
        return e.begin().u64(db).text(sql, "SQL text").params(params).finish(RequestType.QUERY_SQL);
    }

    /** ADD: the new node's id and address. */
    public static ByteBuffer add(MessageEncoder e, long id, String address) {
        return e.begin().u64(id).text(address, "node address").finish(RequestType.ADD);
    }

    /** ASSIGN: the node's id and the role's code (a server that predates roles reads voter). */
    public static ByteBuffer assign(MessageEncoder e, long id, DqliteRole role) {
        return e.begin().u64(id).u64(role.code()).finish(RequestType.ASSIGN);
    }

    /** REMOVE: the node's id. */
    public static ByteBuffer remove(MessageEncoder e, long id) {
        return e.begin().u64(id).finish(RequestType.REMOVE);
    }

    /** CLUSTER: the listing format; 1 adds each node's role. */
    public static ByteBuffer cluster(MessageEncoder e) {
        return e.begin().u64(Protocol.CLUSTER_FORMAT_ROLES).finish(RequestType.CLUSTER);
    }
}
