package dev.lanes.internal.cluster;

import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.internal.file.Backup;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.util.LogNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code backup(target)} of a cluster database, which has no local file to copy: an ordinary
 * SQLite file ({@link BackupFile}) written from one read snapshot of the leader, published as a
 * local backup is ({@link Backup#write}: a temporary file beside the target, synced, checked with
 * {@code PRAGMA integrity_check}, then given the target's name; a failure leaves nothing there).
 *
 * <p>Everything is read in one read-only transaction on a read session ({@link
 * ReadSessionTransaction}), so the copy is one committed state. What is copied, in this order:
 * the encoding; the tables, replayed from {@code sqlite_master} as {@link SchemaCopy} replays
 * them; every row of every table that stores rows (not a virtual table's own, but its shadow
 * tables'), with its rowid; the indexes, views and triggers; SQLite's own tables ({@code
 * sqlite_sequence}, and the statistics of {@code ANALYZE}, which the copy makes and then
 * overwrites with the cluster's rows); {@code user_version} and {@code application_id}.
 *
 * <p>Values are copied exactly: each column is read as an expression, which has no declared type,
 * so the session sends the value as SQLite stored it (dqlite would otherwise turn a value of a
 * {@code DATETIME} or {@code BOOLEAN} column into another type), and text is read as its bytes
 * ({@code CAST(x AS BLOB)}, which keeps a NUL) and written back as text ({@code CAST(? AS
 * TEXT)}), in the same encoding. Rows are read in pages of {@link #PAGE_ROWS}, by rowid (by
 * position for a table without one, within the one snapshot; a table whose columns take every
 * name of the rowid, {@code rowid}, {@code _rowid_} and {@code oid}, keeps its rows but not their
 * rowids); a page larger than {@code maxResultBytes} fails the backup.
 *
 * <p>The reads run on the caller's thread (a session is a network client), the file's SQLite on
 * the pool's platform threads. Stateless but for final references to thread-safe objects.
 */
final class ClusterBackup {
    private static final Logger LOG = LoggerFactory.getLogger(LogNames.FILES);
    static final int PAGE_ROWS = 256;
    private static final Set<String> SCHEMA_TABLES = Set.of("sqlite_schema", "sqlite_master",
            "sqlite_temp_schema", "sqlite_temp_master");
    private static final List<String> ROWID_NAMES = List.of("rowid", "_rowid_", "oid");

    /** A table as {@code pragma_table_list} describes it. */
    private record Table(String name, String type, boolean withoutRowid) {
        boolean storesRows() {
            return type.equals("table") || type.equals("shadow");
        }
    }

    private final String name;
    private final ReadSessions reads;
    private final SchemaCopy schema;
    private final WorkerPool pool;

    ClusterBackup(String name, ReadSessions reads, SchemaCopy schema, WorkerPool pool) {
        this.name = name;
        this.reads = reads;
        this.schema = schema;
        this.pool = pool;
    }

    /** Writes the copy at {@code target}; see {@link Backup#write} for what it refuses. */
    void run(Path target) {
        Backup.write(name, target, pool, this::copyTo);
    }

    private void copyTo(Path temp) throws Exception {
        try (ReadTransaction in = reads.transaction(ReadOptions.DEFAULTS, schema)) {
            String encoding = (String) first(in, "PRAGMA encoding");
            List<SchemaCopy.Entry> replay = SchemaCopy.replayOrder(SchemaCopy.entries(
                    rows(in, SchemaCopy.SCHEMA)));
            Map<String, Table> tables = tables(in);
            List<SchemaCopy.Entry> created = new ArrayList<>();
            List<SchemaCopy.Entry> rest = new ArrayList<>();
            for (SchemaCopy.Entry e : replay) {
                (e.type().equals("table") ? created : rest).add(e);
            }
            try (BackupFile out = BackupFile.create(pool, temp, encoding)) {
                out.replay(created);
                for (SchemaCopy.Entry e : created) {
                    Table t = tables.get(e.name());
                    if (t != null && t.storesRows()) {
                        copyRows(in, out, t);
                    }
                }
                out.replay(rest); // triggers only now: the copied rows fire none
                copySqliteTables(in, out, tables);
                out.execute("PRAGMA user_version = " + first(in, "PRAGMA user_version"));
                out.execute("PRAGMA application_id = " + first(in, "PRAGMA application_id"));
                out.commit();
            }
        }
    }

    /** The tables of {@code main}, by name. */
    private static Map<String, Table> tables(ReadTransaction in) {
        Map<String, Table> tables = new LinkedHashMap<>();
        for (Row r : rows(in, "SELECT name, type, wr FROM pragma_table_list "
                + "WHERE schema = 'main'")) {
            tables.put(r.getString(0), new Table(r.getString(0), r.getString(1),
                    ((Number) r.get(2)).longValue() != 0));
        }
        return tables;
    }

    /**
     * SQLite's own tables that hold rows: those the copy has too (it makes {@code
     * sqlite_sequence} with an {@code AUTOINCREMENT} table, and the statistics tables with
     * {@code ANALYZE}) get the cluster's rows; one it cannot make is left out, with a warning.
     */
    private void copySqliteTables(ReadTransaction in, BackupFile out, Map<String, Table> tables)
            throws Exception {
        List<Table> own = new ArrayList<>();
        boolean analyzed = false;
        for (Table t : tables.values()) {
            if (t.name().startsWith("sqlite_") && !SCHEMA_TABLES.contains(t.name())) {
                own.add(t);
                analyzed |= t.name().startsWith("sqlite_stat");
            }
        }
        if (analyzed) {
            out.execute("ANALYZE");
        }
        for (Table t : own) {
            if (out.hasTable(t.name())) {
                copyRows(in, out, t);
            } else {
                LOG.warn("{}: the backup leaves out {}, which this SQLite does not make", name,
                        t.name());
            }
        }
    }

    /** Replaces the rows of {@code t} in the copy with the snapshot's, page by page. */
    private static void copyRows(ReadTransaction in, BackupFile out, Table t) throws Exception {
        List<String> columns = new ArrayList<>();
        for (Row r : rows(in, "SELECT name FROM pragma_table_xinfo(?, 'main') WHERE hidden = 0 "
                + "ORDER BY cid", t.name())) {
            columns.add(r.getString(0));
        }
        String rowid = t.withoutRowid() ? null : rowidName(columns);
        RowCopy copy = new RowCopy(t.name(), rowid, columns);
        out.execute("DELETE FROM main." + quote(t.name())); // what its creation put there
        List<Row> page = rows(in, copy.first());
        int read = 0;
        while (!page.isEmpty()) {
            out.insert(copy.insert(), copy.values(page));
            read += page.size();
            if (page.size() < PAGE_ROWS) {
                break;
            }
            page = rowid != null ? rows(in, copy.after(), page.get(page.size() - 1).get(0))
                    : rows(in, copy.after(), read);
        }
    }

    /** A name that means the rowid in a table with {@code columns}; null when each is a column. */
    private static String rowidName(List<String> columns) {
        for (String candidate : ROWID_NAMES) {
            boolean taken = false;
            for (String c : columns) {
                taken |= c.toLowerCase(Locale.ROOT).equals(candidate);
            }
            if (!taken) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * The statements that copy one table: the pages it is read in and the insert of a row. A
     * selected column is a pair, its type and its value (text as its bytes); the insert takes the
     * pair and writes text back as text.
     */
    private record RowCopy(String table, String rowid, List<String> columns) {
        String first() {
            return select() + (rowid == null ? "" : " ORDER BY " + rowid) + " LIMIT " + PAGE_ROWS;
        }

        /** The page after the last rowid (or the number of rows) read so far. */
        String after() {
            return rowid == null ? select() + " LIMIT " + PAGE_ROWS + " OFFSET ?"
                    : select() + " WHERE " + rowid + " > ? ORDER BY " + rowid + " LIMIT "
                            + PAGE_ROWS;
        }

        private String select() {
            StringBuilder b = new StringBuilder("SELECT ");
            if (rowid != null) {
                b.append(rowid).append(", ");
            }
            for (int i = 0; i < columns.size(); i++) {
                String c = quote(columns.get(i));
                b.append(i == 0 ? "" : ", ").append("typeof(").append(c).append("), CASE typeof(")
                        .append(c).append(") WHEN 'text' THEN CAST(").append(c)
                        .append(" AS BLOB) ELSE ").append(c).append(" END");
            }
            return b.append(" FROM main.").append(quote(table)).toString();
        }

        String insert() {
            StringBuilder names = new StringBuilder(rowid == null ? "" : rowid);
            StringBuilder values = new StringBuilder(rowid == null ? "" : "?1");
            int p = rowid == null ? 1 : 2;
            for (String c : columns) {
                String sep = names.length() == 0 ? "" : ", ";
                names.append(sep).append(quote(c));
                values.append(sep).append("CASE WHEN ?").append(p).append(" THEN CAST(?")
                        .append(p + 1).append(" AS TEXT) ELSE ?").append(p + 1).append(" END");
                p += 2;
            }
            return "INSERT INTO main." + quote(table) + "(" + names + ") VALUES (" + values + ")";
        }

        /** A page's rows as the insert's parameters. */
        List<Object[]> values(List<Row> page) {
            int first = rowid == null ? 0 : 1;
            List<Object[]> values = new ArrayList<>(page.size());
            for (Row r : page) {
                Object[] v = new Object[first + 2 * columns.size()];
                if (rowid != null) {
                    v[0] = r.get(0);
                }
                for (int i = first; i < v.length; i += 2) {
                    v[i] = "text".equals(r.get(i)) ? 1 : 0;
                    v[i + 1] = r.get(i + 1);
                }
                values.add(v);
            }
            return values;
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static List<Row> rows(ReadTransaction in, String sql, Object... args) {
        return in.query(sql, args, ReadOptions.DEFAULTS).rows();
    }

    private static Object first(ReadTransaction in, String sql) {
        return rows(in, sql).get(0).get(0);
    }
}
