package dev.lanes;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import dev.lanes.internal.sql.text.PragmaTable;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.sqlite.Function;

/**
 * What every connection of a database gets besides Lanes' own settings: pragmas, functions,
 * aggregates, collations, loadable extensions and a set-up hook, given through the setters of
 * {@link ConnectionSetupBuilder} ({@code pragma}, {@code function}, {@code aggregate}, {@code
 * collation}, {@code extension}, {@code onConnect}), which {@code DatabaseOptions.builder()} has.
 * Immutable; read it back with {@link DatabaseOptions#connectionSetup()}.
 *
 * <p><b>Every connection.</b> The writer, each reader, the {@linkplain CheckpointMode#DEDICATED
 * checkpointer}'s connection and a {@linkplain Database#backup(Path) backup}'s, each time one
 * opens: at first use, and again after the connection budget ({@code
 * Lanes.builder().maxOpenConnections}) or an {@linkplain DatabaseOptions#idleRelease() idle
 * release} closed it. A query that works at first therefore still works an hour later. The copy a
 * backup checks with {@code PRAGMA integrity_check} is opened with the extensions, functions,
 * aggregates and collations (an index may need them) but neither the pragmas nor {@code
 * onConnect}: it is not a connection of the database.
 *
 * <p><b>Order.</b> After Lanes' own set-up (WAL, {@code synchronous}, the busy timeout, checkpoint
 * ownership, {@code query_only} on readers, the identity check): the extensions, in the order
 * given; the functions, aggregates and collations; the pragmas, in the order given; then {@code
 * onConnect}.
 *
 * <p><b>Failures.</b> Anything that fails fails that connection's open, with a message naming
 * it: an extension that does not load, a factory that throws, a pragma SQLite rejects (an unknown
 * name, or a value that reads back as something else), a throwing {@code onConnect}, or one that
 * leaves a transaction open. The writer's open failing makes the database {@link
 * DatabaseState#DEAD} with that cause; a reader's fails that read ({@link ReadFailedException},
 * {@link WriteOutcome#NOT_STARTED}) and the next read tries a new connection.
 *
 * <p><b>Pragmas Lanes owns</b> are refused, naming what to use instead:
 * <table>
 *   <caption>Refused pragmas</caption>
 *   <tr><th>pragma</th><th>use instead</th></tr>
 *   <tr><td>{@code journal_mode}</td><td>none: Lanes runs every database in WAL mode, which its
 *       readers and group commit need</td></tr>
 *   <tr><td>{@code synchronous}</td><td>{@link DatabaseOptions.Builder#synchronous}</td></tr>
 *   <tr><td>{@code busy_timeout}</td><td>{@link DatabaseOptions.Builder#busyTimeout}</td></tr>
 *   <tr><td>{@code locking_mode}</td><td>none: {@code EXCLUSIVE} would lock the readers
 *       out</td></tr>
 *   <tr><td>{@code query_only}</td><td>none: readers have it, and writes go through the
 *       lane</td></tr>
 *   <tr><td>{@code wal_autocheckpoint} (with {@code DEDICATED} or {@code EXTERNAL})</td>
 *       <td>{@link DatabaseOptions.Builder#checkpointMode}; with {@code AUTO} it tunes SQLite's
 *       own checkpoint and is allowed</td></tr>
 *   <tr><td>{@code wal_checkpoint}</td><td>{@link Database#checkpoint()} or {@link
 *       DatabaseOptions.Builder#checkpointMode}</td></tr>
 *   <tr><td>{@code soft_heap_limit}</td><td>{@code Lanes.builder().sqliteSoftHeapLimit(...)}:
 *       it is process-wide</td></tr>
 *   <tr><td>{@code hard_heap_limit}, {@code temp_store_directory}, {@code
 *       data_store_directory}</td><td>none: they are process-wide</td></tr>
 *   <tr><td>{@code max_page_count}, {@code writable_schema}, {@code schema_version}, {@code
 *       trusted_schema}, {@code threads}, {@code count_changes}, {@code lock_proxy_file}</td>
 *       <td>none: Lanes relies on them as SQLite sets them</td></tr>
 * </table>
 * The same pragmas, and every per-connection setting given here, are refused in SQL: a setting
 * made by one request would stay on a connection later requests share, and be lost when the
 * connection is reopened.
 *
 * <p><b>Threads.</b> Functions, aggregates and collations run inside SQLite, on whichever
 * platform thread steps the statement (the caller's, or a pool thread of the runtime), on several
 * connections at once: a comparator and anything a function shares must be thread-safe.
 *
 * <p>Two setups are equal when their settings are; functions, aggregates, collations and {@code
 * onConnect} compare by the identity of the factory, comparator or hook given.
 */
public final class ConnectionSetup {
    /** No pragmas, functions, collations, extensions or hook. */
    public static final ConnectionSetup NONE = new ConnectionSetup(List.of(), List.of(),
            List.of(), List.of(), List.of(), null);

    /**
     * {@code PRAGMA name = value}. {@code value} is a {@code Long} (integers and booleans, as 1
     * or 0), a {@code String} (quoted as an SQL string literal), or null for a pragma run
     * without one ({@code PRAGMA optimize}).
     */
    public record PragmaSetting(String name, Object value) {}

    /**
     * A scalar function: either one {@code instance} shared by every connection (the calls of all
     * connections then take turns on it), or a {@code factory} from which each connection gets
     * its own (the calls run in parallel); exactly one of the two is set.
     *
     * @param flags 0 or {@link Function#FLAG_DETERMINISTIC}; only a deterministic function may be
     *     used in the schema (an index, a {@code CHECK} constraint, a generated column, a view or
     *     a trigger), as Lanes then registers it {@code SQLITE_INNOCUOUS} too
     */
    public record FunctionDefinition(String name, int nArgs, int flags,
            Supplier<? extends Function> factory, Function instance) {}

    /** An aggregate (or window) function: each connection registers its own from {@code factory}. */
    public record AggregateDefinition(String name, int nArgs,
            Supplier<? extends Function.Aggregate> factory) {}

    /** A collating sequence for {@code COLLATE name} and indexes. */
    public record CollationDefinition(String name, Comparator<String> order) {}

    /** SQLite's rule for an unquoted identifier, which is all a name here may be. */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    private static final int MAX_NAME = 255;

    private final List<PragmaSetting> pragmas;
    private final List<FunctionDefinition> functions;
    private final List<AggregateDefinition> aggregates;
    private final List<CollationDefinition> collations;
    private final List<Path> extensions;
    private final SqlConsumer<Connection> onConnect;

    ConnectionSetup(List<PragmaSetting> pragmas, List<FunctionDefinition> functions,
            List<AggregateDefinition> aggregates, List<CollationDefinition> collations,
            List<Path> extensions, SqlConsumer<Connection> onConnect) {
        this.pragmas = List.copyOf(pragmas);
        this.functions = List.copyOf(functions);
        this.aggregates = List.copyOf(aggregates);
        this.collations = List.copyOf(collations);
        this.extensions = List.copyOf(extensions);
        this.onConnect = onConnect;
    }

    /** The pragmas, in the order they run. */
    public List<PragmaSetting> pragmas() {
        return pragmas;
    }

    /** The scalar functions, in the order given. */
    public List<FunctionDefinition> functions() {
        return functions;
    }

    /** The aggregate and window functions, in the order given. */
    public List<AggregateDefinition> aggregates() {
        return aggregates;
    }

    /** The collating sequences, in the order given. */
    public List<CollationDefinition> collations() {
        return collations;
    }

    /** The loadable extensions, absolute, in the order they load. */
    public List<Path> extensions() {
        return extensions;
    }

    /** The hook run last on every new connection; empty for none. */
    public Optional<SqlConsumer<Connection>> onConnect() {
        return Optional.ofNullable(onConnect);
    }

    /** Whether there is nothing to set up. */
    public boolean isEmpty() {
        return pragmas.isEmpty() && functions.isEmpty() && aggregates.isEmpty()
                && collations.isEmpty() && extensions.isEmpty() && onConnect == null;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ConnectionSetup)) {
            return false;
        }
        ConnectionSetup other = (ConnectionSetup) o;
        return pragmas.equals(other.pragmas) && functions.equals(other.functions)
                && aggregates.equals(other.aggregates) && collations.equals(other.collations)
                && extensions.equals(other.extensions) && Objects.equals(onConnect, other.onConnect);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pragmas, functions, aggregates, collations, extensions, onConnect);
    }

    @Override
    public String toString() {
        return "ConnectionSetup[pragmas=" + pragmas + ", functions=" + functions + ", aggregates="
                + aggregates + ", collations=" + collations + ", extensions=" + extensions
                + ", onConnect=" + onConnect + "]";
    }

    /** Checks {@code name} against SQLite's rule for an unquoted identifier. */
    static String identifier(String what, String name) {
        Objects.requireNonNull(name, what + " name");
        if (name.length() > MAX_NAME || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " name must be an SQLite identifier (a "
                    + "letter or underscore, then letters, digits, underscores or $, at most "
                    + MAX_NAME + " characters), was '" + name + "'");
        }
        return name;
    }

    /** The value as it is stored and rendered: Long, String or null; anything else refused. */
    static Object pragmaValue(String name, Object value) {
        if (value == null || value instanceof String) {
            if (value != null && ((String) value).indexOf('\0') >= 0) {
                throw new IllegalArgumentException("pragma " + name + ": the value holds a NUL "
                        + "character");
            }
            return value;
        }
        if (value instanceof Boolean) {
            return (Boolean) value ? 1L : 0L;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        try {
            if (value instanceof BigInteger) {
                return ((BigInteger) value).longValueExact();
            }
            if (value instanceof BigDecimal) {
                return ((BigDecimal) value).longValueExact();
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("pragma " + name + ": " + value + " is not a "
                    + "64-bit integer", e);
        }
        throw new IllegalArgumentException("pragma " + name + ": a value must be an integer, a "
                + "boolean or a string, was " + value.getClass().getName() + " " + value
                + (value instanceof Number ? " (SQLite would truncate a fraction silently)" : ""));
    }

    /**
     * The names of the pragmas refused here (lower case), the one that depends on the checkpoint
     * mode ({@code wal_autocheckpoint}) among them, for tests and documentation.
     */
    static Set<String> ownedPragmas() {
        Set<String> names = new HashSet<>();
        for (PragmaTable.Entry e : PragmaTable.all()) {
            if (!e.setup()) {
                names.add(e.name());
            }
        }
        names.add("wal_autocheckpoint");
        return names;
    }
}
