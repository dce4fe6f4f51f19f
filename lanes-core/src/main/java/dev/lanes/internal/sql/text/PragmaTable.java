package dev.lanes.internal.sql.text;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What each pragma SQLite knows may do in Lanes, in one table: plain data, so that more than one
 * enforcer can be driven by it. The lexer's policy ({@link StatementPolicy}) reads it for the
 * friendly refusal before SQLite sees a text, {@code DatabaseOptions.pragma(...)} reads it for the
 * connection setup, and a native guard (an SQLite authorizer, which SQLite consults for every
 * pragma as it prepares a statement, whatever its spelling) can be driven by the same rows: a
 * pragma's name, whether it has an argument, and the row's {@link Use}.
 *
 * <p>How a row is read:
 * <ul>
 *   <li>Reading a pragma (its bare form, {@code PRAGMA name}) runs wherever the statement may run,
 *       for every use but {@link Use#ACTION} on a reader (an action changes the file) and an
 *       unknown name (refused everywhere: SQLite ignores a pragma it does not know, so a newer
 *       SQLite's new pragma is refused until this table places it).
 *   <li>Setting it ({@code PRAGMA name = v}, {@code PRAGMA name(v)}, also behind {@code EXPLAIN},
 *       since SQLite applies many while it prepares them) is what the use decides: {@link
 *       Use#SQL} runs on the writer, {@link Use#SETUP} only through {@code DatabaseOptions}'
 *       connection setup, {@link Use#OWNED} and {@link Use#PROCESS} nowhere. A reader refuses
 *       every setting.
 *   <li>{@link Entry#setup()} says whether {@code DatabaseOptions.pragma(name, …)} may run it on
 *       every connection; {@link Entry#reason()} says why not, or what to use instead.
 * </ul>
 *
 * <p>Why a per-connection setting is {@link Use#SETUP} and not {@link Use#SQL}: the writer
 * connection (and each reader) serves every later request of its database, so a value one request
 * set in SQL would silently change the requests after it, and would be silently lost when an idle
 * release or an eviction reopens the connection. The connection setup applies it to every
 * connection, every time one opens. What may be set in SQL is what belongs to the file ({@code
 * user_version}, {@code application_id}, {@code auto_vacuum}) or ends with the transaction
 * ({@code defer_foreign_keys}).
 *
 * <p>Immutable and thread-safe.
 */
public final class PragmaTable {
    /** What a pragma may do in Lanes. */
    public enum Use {
        /** It reports; an argument, if any, only selects what to report. */
        READ,
        /** It does work on the file when run ({@code optimize}): never on a reader. */
        ACTION,
        /** A property of the file, or of the transaction: a write may set it in SQL. */
        SQL,
        /** A setting of the connection: set through {@code DatabaseOptions} only. */
        SETUP,
        /** Lanes sets it and relies on it: refused in SQL and in the connection setup. */
        OWNED,
        /** It changes the whole process, every database of every runtime: refused. */
        PROCESS
    }

    /**
     * One pragma.
     *
     * @param name its name, in lower case
     * @param use what it may do
     * @param setup whether {@code DatabaseOptions.pragma(name, …)} may run it on every connection
     * @param selects whether an argument ({@code PRAGMA name(x)}) only selects what it reports
     * @param reports whether its bare form returns rows (a statement that returns rows is refused
     *     where its rows are not read)
     * @param reason why Lanes decides so, or what to use instead; for messages
     */
    public record Entry(String name, Use use, boolean setup, boolean selects, boolean reports,
            String reason) {}

    private static final Map<String, Entry> ENTRIES = entries();

    private PragmaTable() {}

    /** The entry of the pragma {@code name} (any ASCII case); null when the table has none. */
    public static Entry of(String name) {
        return ENTRIES.get(lower(name));
    }

    /** Every entry. */
    public static Collection<Entry> all() {
        return Collections.unmodifiableCollection(ENTRIES.values());
    }

    private static Map<String, Entry> entries() {
        Map<String, Entry> m = new LinkedHashMap<>();
        String setting = "a setting of the connection";
        String inFile = "stored in the database file";
        String report = "it reports";
        read(m, report, "collation_list", "compile_options", "data_version", "database_list",
                "freelist_count", "function_list", "module_list", "page_count", "pragma_list");
        selecting(m, "foreign_key_check", "foreign_key_list", "index_info", "index_list",
                "index_xinfo", "integrity_check", "quick_check", "table_info", "table_list",
                "table_xinfo");
        m.put("shrink_memory", new Entry("shrink_memory", Use.READ, true, false, false,
                "it frees the connection's cache memory, and nothing else"));
        action(m, "optimize", true, true, "it analyzes tables where that helps");
        action(m, "incremental_vacuum", true, false, "it frees pages of an auto_vacuum file");
        action(m, "wal_checkpoint", false, true, "use db.checkpoint(), or "
                + "DatabaseOptions.builder().checkpointMode(...)");
        sql(m, "application_id", inFile);
        sql(m, "user_version", inFile);
        sql(m, "auto_vacuum", inFile + "; it takes effect at the next VACUUM (db.maintenance)");
        sql(m, "defer_foreign_keys", "it lasts until the transaction ends");
        setup(m, setting, "analysis_limit", "automatic_index", "cache_size", "cache_spill",
                "cell_size_check", "checkpoint_fullfsync", "foreign_keys", "fullfsync",
                "ignore_check_constraints", "journal_size_limit", "legacy_alter_table",
                "mmap_size", "read_uncommitted", "recursive_triggers",
                "reverse_unordered_selects", "secure_delete", "temp_store",
                "full_column_names", "short_column_names", "empty_result_callbacks",
                "default_cache_size");
        m.put("case_sensitive_like", new Entry("case_sensitive_like", Use.SETUP, true, false,
                false, setting + ": it changes what LIKE means for every later statement"));
        setup(m, "it takes effect only when the file is created, which the connection setup "
                + "does", "encoding", "page_size");
        owned(m);
        return Collections.unmodifiableMap(m);
    }

    /** The pragmas Lanes owns on every connection, and those that would change the process. */
    private static void owned(Map<String, Entry> m) {
        owned(m, "journal_mode", "Lanes runs every database in WAL mode, which its readers and "
                + "group commit need; it is not configurable");
        owned(m, "synchronous", "use DatabaseOptions.builder().synchronous(...)");
        owned(m, "busy_timeout", "use DatabaseOptions.builder().busyTimeout(...)");
        owned(m, "locking_mode", "Lanes needs NORMAL locking: EXCLUSIVE would lock the readers "
                + "out");
        owned(m, "query_only", "Lanes sets it on readers itself, and writes go through the "
                + "writer lane");
        m.put("wal_autocheckpoint", new Entry("wal_autocheckpoint", Use.OWNED, true, false, true,
                "Lanes' checkpointer or the external tool owns checkpoints: choose the owner "
                        + "with DatabaseOptions.builder().checkpointMode(...) (under AUTO, "
                        + "DatabaseOptions.pragma sets it)"));
        owned(m, "max_page_count", "a cap makes every later write fail SQLITE_FULL while the "
                + "database reports RUNNING; DatabaseOptions.diskReserveBytes guards the disk");
        owned(m, "writable_schema", "it lets SQL rewrite the schema table, which can make the "
                + "database unreadable");
        owned(m, "schema_version", "SQLite counts schema changes in it; a wrong value can "
                + "corrupt the database");
        owned(m, "trusted_schema", "it decides what the schema's functions and virtual tables "
                + "may do, which Lanes keeps as it opened the connection");
        owned(m, "threads", "sorts would start helper threads outside the runtime's bounded "
                + "pool (maxThreads)");
        owned(m, "count_changes", "it makes every INSERT, UPDATE and DELETE return a row, which "
                + "the writer does not read");
        owned(m, "lock_proxy_file", "it moves the file's lock, which the lease relies on");
        process(m, "soft_heap_limit", "use Lanes.builder().sqliteSoftHeapLimit(...)");
        process(m, "hard_heap_limit", "it is SQLite's memory limit for the whole process");
        process(m, "temp_store_directory", "it is an unsynchronised C global of SQLite");
        process(m, "data_store_directory", "it is an unsynchronised C global of SQLite");
    }

    private static void read(Map<String, Entry> m, String reason, String... names) {
        for (String n : names) {
            m.put(n, new Entry(n, Use.READ, true, false, true, reason));
        }
    }

    private static void selecting(Map<String, Entry> m, String... names) {
        for (String n : names) {
            m.put(n, new Entry(n, Use.READ, true, true, true, "it reports what its argument "
                    + "selects"));
        }
    }

    private static void action(Map<String, Entry> m, String name, boolean setup,
            boolean reports, String reason) {
        m.put(name, new Entry(name, Use.ACTION, setup, false, reports, reason));
    }

    private static void sql(Map<String, Entry> m, String name, String reason) {
        m.put(name, new Entry(name, Use.SQL, true, false, true, reason));
    }

    private static void setup(Map<String, Entry> m, String reason, String... names) {
        for (String n : names) {
            m.put(n, new Entry(n, Use.SETUP, true, false, true, reason));
        }
    }

    private static void owned(Map<String, Entry> m, String name, String reason) {
        m.put(name, new Entry(name, Use.OWNED, false, false, true, reason));
    }

    private static void process(Map<String, Entry> m, String name, String reason) {
        m.put(name, new Entry(name, Use.PROCESS, false, false, true, "it is process-wide: "
                + reason));
    }

    /** {@code s} in ASCII lower case, as SQLite folds pragma names. */
    static String lower(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char[] out = s.toCharArray();
                for (int j = i; j < out.length; j++) {
                    if (out[j] >= 'A' && out[j] <= 'Z') {
                        out[j] = (char) (out[j] + 32);
                    }
                }
                return new String(out);
            }
        }
        return s;
    }
}
