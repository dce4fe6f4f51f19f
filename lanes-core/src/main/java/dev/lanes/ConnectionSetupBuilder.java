package dev.lanes;

import dev.lanes.ConnectionSetup.AggregateDefinition;
import dev.lanes.ConnectionSetup.CollationDefinition;
import dev.lanes.ConnectionSetup.FunctionDefinition;
import dev.lanes.ConnectionSetup.PragmaSetting;
import dev.lanes.internal.sql.text.PragmaTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.sqlite.Function;

/**
 * The connection-setup half of {@link DatabaseOptions.Builder}, which extends it: what every
 * connection of the database gets besides Lanes' own set-up (see {@link ConnectionSetup} for
 * which connections, the order, the failures and the pragmas Lanes refuses). Each setter checks
 * its value at once and returns the builder; the one check that depends on another option
 * ({@code wal_autocheckpoint} against the checkpoint mode) runs in {@link
 * DatabaseOptions.Builder#build()}.
 *
 * <pre>{@code
 * DatabaseOptions options = DatabaseOptions.builder()
 *         .pragma("cache_size", -20000)
 *         .pragma("temp_store", "MEMORY")
 *         .function("slug", 1, Function.FLAG_DETERMINISTIC, Slug::new)
 *         .collation("nocase_de", germanCollator::compare)
 *         .onConnect(c -> { if (!c.isReadOnly()) { ... } })
 *         .build();
 * }</pre>
 *
 * <p>Confined to the thread that uses the builder, as the builder is.
 *
 * @param <B> the builder type the setters return
 */
public abstract class ConnectionSetupBuilder<B extends ConnectionSetupBuilder<B>> {
    private final List<PragmaSetting> pragmas = new ArrayList<>();
    private final List<FunctionDefinition> functions = new ArrayList<>();
    private final List<AggregateDefinition> aggregates = new ArrayList<>();
    private final List<CollationDefinition> collations = new ArrayList<>();
    private final List<Path> extensions = new ArrayList<>();
    private SqlConsumer<Connection> onConnect;

    ConnectionSetupBuilder() {}

    /** This builder, for the setters to return. */
    abstract B self();

    /**
     * Runs {@code PRAGMA name = value} on every connection, in the order given. {@code name}
     * must be an SQLite identifier; {@code value} an integer, a boolean (as 1 or 0), a string
     * (quoted as an SQL literal) or null (for a pragma run without one, such as {@code
     * optimize}). A pragma Lanes sets itself, or one that is process-wide, is refused with the
     * option to use instead, if there is one; a pragma
     * SQLite does not know, or a value it does not take, fails the database's open naming it.
     *
     * @throws IllegalArgumentException for a bad name or value, or a pragma Lanes owns
     */
    public B pragma(String name, Object value) {
        String key = ConnectionSetup.identifier("pragma", name).toLowerCase(Locale.ROOT);
        PragmaTable.Entry entry = PragmaTable.of(key);
        if (entry != null && !entry.setup()) {
            throw new IllegalArgumentException("pragma " + name + " is refused: "
                    + entry.reason());
        }
        pragmas.add(new PragmaSetting(name, ConnectionSetup.pragmaValue(name, value)));
        return self();
    }

    /**
     * {@link #function(String, int, int, Function)} without flags: not deterministic, so not
     * usable in the schema (an index, a {@code CHECK} constraint, a generated column, a view or a
     * trigger), only in SQL that calls it directly.
     */
    public B function(String name, int nArgs, Function fn) {
        return function(name, nArgs, 0, fn);
    }

    /**
     * Registers one scalar function instance on every connection. Calls from several connections
     * take turns on it (it has one call state); give a {@link #function(String, int, int,
     * Supplier) Supplier} for calls that run in parallel. A throw from it fails the statement
     * with an error naming the function; the database stays healthy.
     *
     * @param nArgs the number of arguments, 0 to 127, or -1 for any
     * @param flags 0 or {@link Function#FLAG_DETERMINISTIC}, which a function must have (and
     *     honour: same arguments, same result, no side effects) to be used in the schema: an
     *     index, a {@code CHECK} constraint, a generated column, a view or a trigger. Lanes keeps
     *     SQLite's {@code trusted_schema} off, so it registers such a function as {@code
     *     SQLITE_INNOCUOUS} too; without the flag a function runs only when SQL calls it
     *     directly
     */
    public B function(String name, int nArgs, int flags, Function fn) {
        addFunction(name, nArgs, flags, null, Objects.requireNonNull(fn, "fn"));
        return self();
    }

    /** {@link #function(String, int, int, Supplier)} without flags (not usable in the schema). */
    public B function(String name, int nArgs, Supplier<? extends Function> factory) {
        return function(name, nArgs, 0, factory);
    }

    /**
     * {@link #function(String, int, int, Function)} with one instance per connection from
     * {@code factory}, so that calls on different connections run in parallel.
     */
    public B function(String name, int nArgs, int flags, Supplier<? extends Function> factory) {
        addFunction(name, nArgs, flags, Objects.requireNonNull(factory, "factory"), null);
        return self();
    }

    /**
     * Registers an aggregate (or window) function on every connection, one instance from
     * {@code factory} each (the driver clones it per group).
     */
    public B aggregate(String name, int nArgs, Supplier<? extends Function.Aggregate> factory) {
        Objects.requireNonNull(factory, "factory");
        unique(ConnectionSetup.identifier("aggregate", name), arity(name, nArgs));
        aggregates.add(new AggregateDefinition(name, nArgs, factory));
        return self();
    }

    /**
     * Registers a collating sequence for {@code COLLATE name} on every connection. {@code
     * order} runs on several connections at once, so it must be thread-safe; one that throws
     * interrupts the statement using it.
     */
    public B collation(String name, Comparator<String> order) {
        Objects.requireNonNull(order, "order");
        ConnectionSetup.identifier("collation", name);
        for (CollationDefinition c : collations) {
            if (c.name().equalsIgnoreCase(name)) {
                throw new IllegalArgumentException("collation " + name + " is given twice");
            }
        }
        collations.add(new CollationDefinition(name, order));
        return self();
    }

    /**
     * Loads the SQLite extension {@code library} on every connection, in the order given.
     * Extension loading is switched on for that call alone and off again after it, so SQL's own
     * {@code load_extension()} stays refused. Lanes keeps SQLite's {@code trusted_schema} off,
     * so a function the extension registers runs from the schema (an index, a generated column,
     * a view, ...) only when the extension registers it {@code SQLITE_INNOCUOUS}.
     */
    public B extension(Path library) {
        extensions.add(Objects.requireNonNull(library, "library").toAbsolutePath().normalize());
        return self();
    }

    /**
     * Runs {@code setup} on every new connection, after Lanes' own set-up and everything else
     * given here. {@link Connection#isReadOnly()} is true on readers. It may not start a
     * transaction. If it throws, that connection's open fails with the cause: on the writer the
     * database becomes {@link DatabaseState#DEAD}; on a reader that read fails ({@link
     * ReadFailedException}) and the next read opens a new connection.
     */
    public B onConnect(SqlConsumer<Connection> setup) {
        this.onConnect = Objects.requireNonNull(setup, "onConnect");
        return self();
    }

    /** Takes over everything {@code s} holds (for {@link DatabaseOptions#toBuilder()}). */
    void copySetup(ConnectionSetup s) {
        pragmas.addAll(s.pragmas());
        functions.addAll(s.functions());
        aggregates.addAll(s.aggregates());
        collations.addAll(s.collations());
        extensions.addAll(s.extensions());
        onConnect = s.onConnect().orElse(null);
    }

    /** The setup, refusing {@code wal_autocheckpoint} unless SQLite owns checkpoints. */
    ConnectionSetup buildSetup(CheckpointMode mode) {
        if (mode != CheckpointMode.AUTO) {
            for (PragmaSetting p : pragmas) {
                if (p.name().equalsIgnoreCase("wal_autocheckpoint")) {
                    throw new IllegalArgumentException("pragma wal_autocheckpoint is refused "
                            + "with checkpointMode " + mode + ": Lanes keeps it at 0 so that "
                            + (mode == CheckpointMode.DEDICATED ? "its checkpointer"
                                    : "the external tool")
                            + " alone checkpoints; choose the owner with checkpointMode(...)");
                }
            }
        }
        return new ConnectionSetup(pragmas, functions, aggregates, collations, extensions,
                onConnect);
    }

    private void addFunction(String name, int nArgs, int flags,
            Supplier<? extends Function> factory, Function instance) {
        if ((flags & ~Function.FLAG_DETERMINISTIC) != 0) {
            throw new IllegalArgumentException("function " + name + ": flags may be 0 or "
                    + "Function.FLAG_DETERMINISTIC, was 0x" + Integer.toHexString(flags));
        }
        unique(ConnectionSetup.identifier("function", name), arity(name, nArgs));
        functions.add(new FunctionDefinition(name, nArgs, flags, factory, instance));
    }

    /** One function or aggregate per name and argument count, as SQLite keeps one. */
    private void unique(String name, int nArgs) {
        for (FunctionDefinition f : functions) {
            if (f.name().equalsIgnoreCase(name) && f.nArgs() == nArgs) {
                throw twice(name, nArgs);
            }
        }
        for (AggregateDefinition a : aggregates) {
            if (a.name().equalsIgnoreCase(name) && a.nArgs() == nArgs) {
                throw twice(name, nArgs);
            }
        }
    }

    private static IllegalArgumentException twice(String name, int nArgs) {
        return new IllegalArgumentException("a function " + name + " taking " + nArgs
                + " argument(s) is given twice");
    }

    private static int arity(String name, int nArgs) {
        if (nArgs < -1 || nArgs > 127) {
            throw new IllegalArgumentException("function " + name + ": nArgs must be -1 (any "
                    + "number) or 0 to 127, was " + nArgs);
        }
        return nArgs;
    }
}
