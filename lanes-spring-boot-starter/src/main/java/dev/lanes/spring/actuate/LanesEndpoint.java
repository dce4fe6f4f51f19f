package dev.lanes.spring.actuate;

import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseState;
import dev.lanes.WriteObservation;
import dev.lanes.spring.LanesDatabases;
import dev.lanes.spring.TenantDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code lanes} actuator endpoint.
 *
 * <ul>
 *   <li>{@code GET /actuator/lanes}: the runtime's diagnostics ({@link
 *       dev.lanes.RuntimeDiagnostics}), how many databases and tenants are open, and the
 *       {@value #TOP} busiest open databases three ways: by writes queued now ({@code
 *       byQueueDepth}), by WAL size ({@code byWalBytes}) and by the queue wait of their latest
 *       write ({@code byRecentWait}). Each entry names the database ({@code primary}, a named
 *       database, or a tenant id with {@code kind} {@code tenant}).
 *   <li>{@code GET /actuator/lanes/{name}}: one database's {@link DatabaseDiagnostics}, {@code
 *       name} being {@code primary} or a named database; {@code GET
 *       /actuator/lanes/tenants/{id}} an open tenant's. 404 for a database that is not open.
 * </ul>
 *
 * <p>Durations are ISO-8601 text ({@code PT0.0012S}), sizes bytes. The overview reads every open
 * database's diagnostics once (one {@code stat} of its WAL each): at 100,000 open tenants, a
 * fraction of a second; it is meant for people, not for a scraper (meters are for that).
 */
@Endpoint(id = "lanes")
public final class LanesEndpoint {
    /** Databases in each ranking of the overview. */
    public static final int TOP = 20;

    private final LanesDatabases databases;

    /** The endpoint over the application's databases. */
    public LanesEndpoint(LanesDatabases databases) {
        this.databases = Objects.requireNonNull(databases, "databases");
    }

    /** The runtime and the busiest databases. */
    @ReadOperation
    public Map<String, Object> lanes() {
        Rankings rankings = new Rankings();
        databases.primary().ifPresent(db -> rankings.add(LanesDatabases.PRIMARY, "primary", db));
        databases.named().forEach((name, db) -> rankings.add(name, "named", db));
        int tenantsOpen = databases.tenants().map(tenants -> {
            tenants.forEachOpen((id, db) -> rankings.add(id, "tenant", db));
            return tenants.openCount();
        }).orElse(0);

        Map<String, Object> body = new LinkedHashMap<>();
        body.put("runtime", JsonMaps.record(databases.runtime().diagnostics()));
        body.put("databases", databases.named().size() + (databases.primary().isPresent() ? 1 : 0));
        body.put("tenantsOpen", tenantsOpen);
        databases.tenants().ifPresent(t -> body.put("tenantsDirectory", t.directory().toString()));
        body.put("byQueueDepth", rankings.byQueueDepth.sorted());
        body.put("byWalBytes", rankings.byWalBytes.sorted());
        body.put("byRecentWait", rankings.byRecentWait.sorted());
        return body;
    }

    /**
     * One database's diagnostics: {@code primary}, a named database, or {@code tenants/<id>} for
     * an open tenant; {@code null} (404) when there is no such open database.
     */
    @ReadOperation
    public Map<String, Object> database(
            @Selector(match = Selector.Match.ALL_REMAINING) String[] name) {
        Optional<Database> db = Optional.empty();
        String kind = "named";
        if (name.length == 1) {
            db = databases.find(name[0]);
            kind = LanesDatabases.PRIMARY.equals(name[0]) ? "primary" : "named";
        } else if (name.length == 2 && name[0].equals("tenants")
                && TenantDatabases.isValidId(name[1]) && databases.tenants().isPresent()) {
            db = databases.tenants().get().find(name[1]);
            kind = "tenant";
        }
        if (db.isEmpty()) {
            return null;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", String.join("/", name));
        body.put("kind", kind);
        body.putAll(JsonMaps.record(db.get().diagnostics()));
        // Database.state() says DEAD after an identity mismatch, where the lane's own does not
        body.put("state", db.get().state().name());
        return body;
    }

    /** The three bounded rankings of the overview; used by one thread. */
    private static final class Rankings {
        final Top byQueueDepth = new Top(Comparator.comparingLong(e -> e.queued));
        final Top byWalBytes = new Top(Comparator.comparingLong(e -> e.walBytes));
        final Top byRecentWait = new Top(Comparator.comparingLong(e -> e.waitNanos));

        void add(String name, String kind, Database db) {
            Entry e = new Entry(name, kind, db.state(), db.diagnostics());
            byQueueDepth.offer(e);
            byWalBytes.offer(e);
            byRecentWait.offer(e);
        }
    }

    private static final class Entry {
        final String name;
        final String kind;
        final DatabaseState state;
        final DatabaseDiagnostics d;
        final long queued;
        final long walBytes;
        final long waitNanos;

        Entry(String name, String kind, DatabaseState state, DatabaseDiagnostics d) {
            this.name = name;
            this.kind = kind;
            this.state = state;
            this.d = d;
            this.queued = d.writer().queued();
            this.walBytes = d.checkpoints().walBytes();
            this.waitNanos = d.writer().lastWrite().map(WriteObservation::queueWait)
                    .orElse(Duration.ZERO).toNanos();
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("kind", kind);
            m.put("state", state.name());
            m.put("writerPoisoned", d.writer().poisoned());
            m.put("queuedWrites", d.writer().queued());
            m.put("walBytes", walBytes);
            Optional<WriteObservation> last = d.writer().lastWrite();
            m.put("lastQueueWait", JsonMaps.of(last.map(WriteObservation::queueWait)));
            m.put("lastWriteAt", JsonMaps.of(last.map(WriteObservation::observedAt)));
            m.put("committedWrites", d.writer().counters().committed());
            m.put("openReaders", d.readers().openConnections());
            return m;
        }
    }

    /** The {@value #TOP} largest entries by one figure: a min-heap of that size. */
    private static final class Top {
        private final Comparator<Entry> order;
        private final PriorityQueue<Entry> heap;

        Top(Comparator<Entry> order) {
            this.order = order;
            this.heap = new PriorityQueue<>(TOP + 1, order);
        }

        void offer(Entry e) {
            heap.offer(e);
            if (heap.size() > TOP) {
                heap.poll();
            }
        }

        List<Map<String, Object>> sorted() {
            List<Entry> entries = new ArrayList<>(heap);
            entries.sort(order.reversed());
            List<Map<String, Object>> out = new ArrayList<>(entries.size());
            for (Entry e : entries) {
                out.add(e.toMap());
            }
            return out;
        }
    }
}
