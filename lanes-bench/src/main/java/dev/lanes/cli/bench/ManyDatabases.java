package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.SqlFunction;
import dev.lanes.cli.SqliteFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Creates the many databases of the tenants and soak scenarios in one runtime: opens each, and
 * creates its schema as an asynchronous write, a window of them in flight at once. The files are
 * {@code t-000000.db}, {@code t-000001.db}… in one directory. Both scenarios use one schema
 * ({@link #SCHEMA}): a key-value table of {@value #KV_ROWS} rows that point reads find, with a
 * counter column {@code n} for read-then-write transactions, and an {@code events} table that
 * inserts append to. {@link #copies} makes the same files faster, as copies of one template.
 *
 * <p>Concurrency: called from one thread. The template's copy threads each write files of their
 * own chunk and share nothing but the template, which nobody writes while they run; the caller
 * waits for every chunk before it opens a database, and stops the threads before it returns.
 */
final class ManyDatabases {
    /** Rows of {@code kv}, ids 1 to this. */
    static final int KV_ROWS = 100;
    /** Creations in flight at once. */
    private static final int CREATE_WINDOW = 256;
    /** Threads that copy the template. */
    static final int COPY_THREADS = 8;

    /** Creates {@code kv} with its rows (each {@code n} 0) and an empty {@code events}. */
    static final SqlFunction<Integer> SCHEMA = conn -> {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE kv(id INTEGER PRIMARY KEY, v TEXT, n INTEGER NOT NULL DEFAULT 0)");
            s.execute("CREATE TABLE events(id INTEGER PRIMARY KEY, payload TEXT)");
        }
        try (PreparedStatement insert =
                conn.prepareStatement("INSERT INTO kv(id, v) VALUES (?, ?)")) {
            for (int id = 1; id <= KV_ROWS; id++) {
                insert.setInt(1, id);
                insert.setString(2, "value-" + id);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        return KV_ROWS;
    };

    private ManyDatabases() {}

    /** The file of database {@code index} in {@code dir}. */
    static Path file(Path dir, int index) {
        return dir.resolve(String.format(Locale.ROOT, "t-%06d.db", index));
    }

    /**
     * Opens {@code count} databases in {@code dir} with {@code options.apply(index)}, creates
     * {@link #SCHEMA} in each, and returns them in order once every schema committed; {@code
     * sink} hears how far it got, each status line starting with {@code what}.
     */
    static List<Database> create(ScenarioBench.Sink sink, String what, Lanes lanes, Path dir,
            int count, IntFunction<DatabaseOptions> options) {
        sink.status(String.format(Locale.ROOT, "%s: creating %,d databases", what, count));
        return open(sink, what, lanes, dir, count, options, count, SCHEMA);
    }

    /**
     * Opens {@code count} databases in {@code dir} with {@code options.apply(index)} and gives the
     * first {@code written} of them the write {@code body}; returns them in order once every such
     * write committed.
     */
    private static List<Database> open(ScenarioBench.Sink sink, String what, Lanes lanes,
            Path dir, int count, IntFunction<DatabaseOptions> options, int written,
            SqlFunction<?> body) {
        List<Database> databases = new ArrayList<>(count);
        // A window of writes in flight keeps the pool busy without queueing thousands of writes
        // at once, whose waits would only show up as slow-write warnings.
        ArrayDeque<CompletableFuture<?>> inFlight = new ArrayDeque<>();
        int step = Math.max(1, count / 10);
        for (int i = 0; i < count; i++) {
            if (inFlight.size() == CREATE_WINDOW) {
                inFlight.removeFirst().join();
            }
            if (i > 0 && i % step == 0) {
                sink.status(String.format(Locale.ROOT, "%s: opening database %,d of %,d", what,
                        i + 1, count));
            }
            Database db = lanes.open(file(dir, i), options.apply(i));
            databases.add(db);
            if (i < written) {
                inFlight.add(db.writeAsync(body));
            }
        }
        inFlight.forEach(CompletableFuture::join);
        return databases;
    }

    /**
     * What {@link #create} makes, made fast: one template database is created in a runtime of its
     * own with {@code options} and {@link #SCHEMA} (the same open, identity install and schema
     * write as each of {@link #create}'s databases gets) and closed, which checkpoints it and
     * removes its {@code -wal} and {@code -shm}; its file is copied {@code count} times into
     * {@code dir}, and each copy is opened in {@code lanes} with {@code options}; the first {@code
     * connected} are given an empty write, which opens their writer connections as the schema's
     * write did (the others connect on first use). The template is deleted afterwards; {@code
     * work} is where it was made.
     *
     * <p>What differs from {@link #create}: the files are byte copies, so every database holds the
     * template's {@code _lanes_identity} UUID rather than one of its own (each runtime checks a
     * database only against the UUID and file key it pinned for that database, and each copy has
     * its own file key). Creating 10,000 databases one by one took 125 s here (each open, identity
     * install and schema write a transaction of its own); copying a file takes a tenth of a
     * millisecond, and a database opened without its connections costs a quarter of one.
     *
     * @throws IllegalStateException when the closed template still has a {@code -wal} or {@code
     *     -shm} beside it, whose rows a copy of the file alone would lose
     */
    static List<Database> copies(ScenarioBench.Sink sink, String what, Lanes lanes, Path work,
            Path dir, int count, int connected, DatabaseOptions options) throws IOException {
        sink.status(String.format(Locale.ROOT, "%s: creating %,d databases, copies of a template",
                what, count));
        Path template = template(work, options);
        copy(sink, what, template, dir, count);
        Files.delete(template);
        return open(sink, what, lanes, dir, count, i -> options, connected, conn -> null);
    }

    /**
     * Copies {@code template} to {@code count} files in {@code dir} on {@value #COPY_THREADS}
     * threads of its own, in a hundred chunks: creating a file waits on the file system's journal
     * more than on a processor, so several in flight go faster than one.
     */
    private static void copy(ScenarioBench.Sink sink, String what, Path template, Path dir,
            int count) throws IOException {
        int chunk = Math.max(1, (count + 99) / 100);
        AtomicInteger named = new AtomicInteger();
        ExecutorService copiers = Executors.newFixedThreadPool(COPY_THREADS, r -> {
            Thread t = new Thread(r, "bench-copy-" + named.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> chunks = new ArrayList<>();
            for (int from = 0; from < count; from += chunk) {
                int first = from;
                int end = Math.min(count, from + chunk);
                chunks.add(copiers.submit(() -> {
                    for (int i = first; i < end; i++) {
                        Files.copy(template, file(dir, i));
                    }
                    return null;
                }));
            }
            for (int c = 0; c < chunks.size(); c++) {
                chunks.get(c).get();
                int copied = Math.min(count, (c + 1) * chunk);
                if ((c + 1) % 10 == 0 && copied < count) {
                    sink.status(String.format(Locale.ROOT, "%s: copied %,d of %,d databases", what,
                            copied, count));
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException) {
                throw (IOException) e.getCause();
            }
            throw new IllegalStateException(what + ": copying the template failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(what + ": interrupted while copying the template", e);
        } finally {
            copiers.shutdownNow();
        }
    }

    /**
     * Puts the closed databases {@code 0..count-1} of {@code dir} back in the state {@link
     * #copies} left them in, as far as their files show: no {@code -wal} and no {@code -shm}
     * beside them. Lanes keeps those files when it evicts a database whose readers are open (the
     * next open then creates none), and a run that comes after it on the same files would
     * otherwise find them in place where its own first open of a database has to create them.
     * Only an empty {@code -wal} goes, with its {@code -shm}: one that holds frames holds
     * committed rows the database file lacks, and stays, with its {@code -shm}.
     *
     * @return how many databases had their empty {@code -wal} removed
     */
    static int removeEmptyWals(Path dir, int count) throws IOException {
        int removed = 0;
        for (int i = 0; i < count; i++) {
            Path db = file(dir, i);
            Path wal = SqliteFiles.beside(db, SqliteFiles.WAL);
            if (Files.exists(wal) && Files.size(wal) == 0) {
                Files.delete(wal);
                Files.deleteIfExists(SqliteFiles.beside(db, SqliteFiles.SHM));
                removed++;
            }
        }
        return removed;
    }

    /**
     * Creates {@code template.db} in {@code work} (made if missing) as {@link #create} creates a
     * database, in a runtime of its own that is closed before this returns.
     */
    static Path template(Path work, DatabaseOptions options) throws IOException {
        Files.createDirectories(work);
        Path template = work.resolve("template.db");
        try (Lanes lanes = Lanes.builder().name("template").build()) {
            lanes.open(template, options).write(SCHEMA);
        }
        for (String suffix : new String[] {SqliteFiles.WAL, SqliteFiles.SHM, SqliteFiles.JOURNAL}) {
            Path beside = SqliteFiles.beside(template, suffix);
            if (Files.exists(beside)) {
                throw new IllegalStateException(beside + " is left beside the closed template:"
                        + " a copy of " + template + " alone would not hold all its rows");
            }
        }
        return template;
    }
}
