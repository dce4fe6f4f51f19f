package dev.lanes.spring;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.Lanes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SQLite database per tenant, {@code <directory>/<tenant>.db}, all run by the application's
 * {@link Lanes} runtime with the same options ({@code lanes.tenants.*}). {@link #get(String)}
 * opens a tenant's database, creating it on first use, and runs the tenant migrations ({@code
 * lanes.tenants.migrations}) once, on its writer, before anyone gets it.
 *
 * <pre>{@code
 * @GetMapping("/tenants/{id}/notes")
 * List<Row> notes(@PathVariable String id) {
 *     return tenants.get(id).query("SELECT id, text FROM note ORDER BY id");
 * }
 * }</pre>
 *
 * <p><b>Tenant ids</b> are file names, so they are checked before anything touches the file
 * system: 1 to {@value #MAX_ID_LENGTH} characters of {@code a-z}, {@code 0-9}, {@code -} and
 * {@code _}, starting with a letter or a digit. That leaves no room for a path separator, {@code
 * ..}, a hidden file or two ids that only a case-insensitive file system would confuse. A bad id
 * fails with {@link IllegalArgumentException} and nothing is created.
 *
 * <p><b>Lifetime.</b> A tenant stays open once opened (the runtime's {@code
 * lanes.max-open-connections} budget closes idle connections, not databases); the context's close
 * closes them with the runtime, each draining its accepted writes. A tenant database someone
 * closed is opened again by the next {@code get}.
 */
public final class TenantDatabases implements AutoCloseable {
    /*
     * Concurrency: `open` maps a tenant id to the future of its Database. The first get of an id
     * installs a fresh future with putIfAbsent and completes it itself, after lanes.open and the
     * migrations; every concurrent get of that id finds the future and waits on it, so the
     * migrations run once. A failed open removes its own future (remove(id, future)) before
     * failing it, so a later get tries again; so does a get that finds a closed database. No lock
     * is held while a database opens or migrates. `closed` is written once, by close(); a get
     * that sees it refuses, and one racing it fails in the runtime (ClosedException).
     */
    private static final Logger log = LoggerFactory.getLogger(TenantDatabases.class);

    /** The longest tenant id. */
    public static final int MAX_ID_LENGTH = 64;
    /** The file-name suffix of a tenant database. */
    public static final String SUFFIX = ".db";

    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0," + (MAX_ID_LENGTH - 1)
            + "}");

    private final Lanes lanes;
    private final Path directory;
    private final DatabaseOptions options;
    private final TenantMigrator migrator;
    private final ConcurrentHashMap<String, CompletableFuture<Database>> open =
            new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * Tenants in {@code directory} (created if missing), opened with {@code options} and then
     * migrated by {@code migrator} ({@code null} for none).
     */
    TenantDatabases(Lanes lanes, Path directory, DatabaseOptions options, TenantMigrator migrator) {
        this.lanes = Objects.requireNonNull(lanes, "lanes");
        this.options = Objects.requireNonNull(options, "options");
        this.migrator = migrator;
        try {
            this.directory = Files.createDirectories(directory).toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("lanes.tenants.directory=" + directory
                    + ": cannot create or read the directory: " + e.getMessage(), e);
        }
    }

    /**
     * The tenant's database: the open one, or opened now (the file created if missing) with the
     * tenant migrations run on its writer before it is returned. Concurrent first calls for one
     * tenant open and migrate it once; the others wait for it.
     *
     * @throws IllegalArgumentException when {@code tenant} is not a valid id (see the class
     *     comment); nothing is created
     * @throws TenantMigrationException when a migration failed; the database is closed again and
     *     the next call tries again
     * @throws IllegalStateException after {@link #close()}
     * @throws dev.lanes.LanesException when the database cannot open (locked by another process,
     *     say)
     */
    public Database get(String tenant) {
        checkId(tenant);
        while (true) {
            if (closed) {
                throw new IllegalStateException("tenant databases in " + directory
                        + " are closed (the application is shutting down); cannot open '"
                        + tenant + "'");
            }
            CompletableFuture<Database> future = open.get(tenant);
            if (future == null) {
                CompletableFuture<Database> mine = new CompletableFuture<>();
                future = open.putIfAbsent(tenant, mine);
                if (future == null) {
                    return openNow(tenant, mine);
                }
            }
            Database db = await(future);
            if (db != null && isUsable(db)) {
                return db;
            }
            // closed underneath, or its first open failed: make room and open it again
            open.remove(tenant, future);
        }
    }

    /**
     * The tenant's database if it is open now; never opens or creates one.
     *
     * @throws IllegalArgumentException when {@code tenant} is not a valid id
     */
    public Optional<Database> find(String tenant) {
        checkId(tenant);
        CompletableFuture<Database> future = open.get(tenant);
        if (future == null || !future.isDone() || future.isCompletedExceptionally()) {
            return Optional.empty();
        }
        return Optional.of(future.join());
    }

    /**
     * Whether the tenant's database file exists (opened or not).
     *
     * @throws IllegalArgumentException when {@code tenant} is not a valid id
     */
    public boolean exists(String tenant) {
        return Files.isRegularFile(pathOf(tenant));
    }

    /**
     * The tenants whose database file is in the directory, opened or not, in id order. Files
     * whose names are not valid tenant ids are left out.
     */
    public List<String> list() {
        List<String> tenants = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String id = name.substring(0, name.length() - SUFFIX.length());
                if (isValidId(id) && Files.isRegularFile(file)) {
                    tenants.add(id);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the tenant databases in " + directory
                    + ": " + e.getMessage(), e);
        }
        Collections.sort(tenants);
        return tenants;
    }

    /**
     * Opens, and so migrates, every tenant of {@link #list()} that is not open yet, one after
     * another, telling {@code progress} after each (on the calling thread). A tenant that fails
     * is reported and skipped; the others go on. For operators: a deployment that must not
     * migrate tenants lazily, at their first request, runs this once at start-up or from a job.
     *
     * @return what happened, tenant by tenant (failures by tenant, with their messages)
     */
    public MigrationReport migrateAll(Consumer<TenantMigration> progress) {
        Objects.requireNonNull(progress, "progress");
        List<String> tenants = list();
        Map<String, String> failures = new LinkedHashMap<>();
        int done = 0;
        for (String tenant : tenants) {
            RuntimeException failure = null;
            try {
                get(tenant);
            } catch (RuntimeException e) {
                failure = e;
                failures.put(tenant, String.valueOf(e.getMessage()));
            }
            done++;
            progress.accept(new TenantMigration(tenant, done, tenants.size(),
                    Optional.ofNullable(failure)));
        }
        return new MigrationReport(tenants.size(), tenants.size() - failures.size(), failures);
    }

    /** Tenants open now. */
    public int openCount() {
        return open.size();
    }

    /**
     * Calls {@code action} for every tenant open now, without copying the set; tenants that open
     * or close meanwhile may or may not be seen.
     */
    public void forEachOpen(BiConsumer<String, Database> action) {
        open.forEach((tenant, future) -> {
            if (future.isDone() && !future.isCompletedExceptionally()) {
                action.accept(tenant, future.join());
            }
        });
    }

    /** The directory of the tenant databases (its real path). */
    public Path directory() {
        return directory;
    }

    /** The options every tenant database opens with. */
    public DatabaseOptions options() {
        return options;
    }

    /**
     * The file of the tenant's database, inside {@link #directory()}.
     *
     * @throws IllegalArgumentException when {@code tenant} is not a valid id
     */
    public Path pathOf(String tenant) {
        checkId(tenant);
        Path file = directory.resolve(tenant + SUFFIX);
        // the id's alphabet already rules it out; kept so that a change to it cannot escape
        if (!directory.equals(file.normalize().getParent())) {
            throw new IllegalArgumentException("tenant id '" + tenant + "' leads outside "
                    + directory);
        }
        return file;
    }

    /** Whether {@code tenant} is a valid tenant id (see the class comment). */
    public static boolean isValidId(String tenant) {
        return tenant != null && ID.matcher(tenant).matches();
    }

    /**
     * Checks a tenant id.
     *
     * @throws IllegalArgumentException saying what a valid id is, when it is not one
     */
    public static void checkId(String tenant) {
        if (!isValidId(tenant)) {
            throw new IllegalArgumentException("tenant id " + quote(tenant) + " is not valid: a "
                    + "tenant id is 1 to " + MAX_ID_LENGTH + " characters of a-z, 0-9, '-' and "
                    + "'_', starting with a letter or a digit");
        }
    }

    /**
     * Refuses further {@link #get} calls. The databases themselves close with the runtime, which
     * drains them all at once.
     */
    @Override
    public void close() {
        closed = true;
    }

    private Database openNow(String tenant, CompletableFuture<Database> mine) {
        Database db = null;
        try {
            db = lanes.open(pathOf(tenant), options);
            if (migrator != null) {
                migrator.migrate(tenant, db);
            }
            mine.complete(db);
            return db;
        } catch (RuntimeException | Error e) {
            // gone from the map before the waiters learn of it, so their retry opens anew
            open.remove(tenant, mine);
            if (db != null) {
                closeQuietly(tenant, db);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    private static Database await(CompletableFuture<Database> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    private static boolean isUsable(Database db) {
        DatabaseState state = db.state();
        return state != DatabaseState.CLOSED && state != DatabaseState.CLOSING;
    }

    private static void closeQuietly(String tenant, Database db) {
        try {
            db.close();
        } catch (RuntimeException e) {
            log.warn("tenant '{}': closing its database after a failed migration failed too",
                    tenant, e);
        }
    }

    private static String quote(String tenant) {
        if (tenant == null) {
            return "null";
        }
        String shown = tenant.length() > 80 ? tenant.substring(0, 80) + "…" : tenant;
        return "'" + shown + "'";
    }

    /**
     * Progress of {@link #migrateAll}.
     *
     * @param tenant the tenant just done
     * @param done tenants done so far, this one included
     * @param total tenants to do
     * @param failure why this tenant failed, when it did
     */
    public record TenantMigration(String tenant, int done, int total,
            Optional<RuntimeException> failure) {}

    /**
     * The outcome of {@link #migrateAll}.
     *
     * @param total tenants found
     * @param succeeded tenants open and migrated
     * @param failures the tenants that failed, with their messages, in id order
     */
    public record MigrationReport(int total, int succeeded, Map<String, String> failures) {
        public MigrationReport {
            failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
        }
    }
}
