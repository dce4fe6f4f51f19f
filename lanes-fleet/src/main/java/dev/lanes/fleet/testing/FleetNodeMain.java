package dev.lanes.fleet.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.Synchronous;
import dev.lanes.WriteOutcome;
import dev.lanes.fleet.Durability;
import dev.lanes.fleet.Fleet;
import dev.lanes.fleet.FleetStatus;
import dev.lanes.fleet.NotOwnerException;
import dev.lanes.fleet.ObjectStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;

/**
 * A fleet node as a process of its own, for the tests and the bench: a {@link Fleet} with a small
 * HTTP interface on 127.0.0.1. A request for a tenant another node owns is forwarded there (at
 * most {@value #HOPS} hops), so a client may send any request to any node.
 *
 * <ul>
 *   <li>{@code POST /write?tenant=T&id=N}: inserts id {@code N} into the tenant's table {@code
 *       w}; its {@code token} column is stamped, in the same commit, with the fencing token the
 *       commit was made under (a trigger on the fence's table). Answers {@code 200 ok <node>},
 *       or {@code 409 <OUTCOME> <message>} with the request's outcome ({@code NOT_STARTED},
 *       {@code ROLLED_BACK}, {@code UNKNOWN}).
 *   <li>{@code GET /rows?tenant=T}: {@code seq id token} lines, in commit order.
 *   <li>{@code POST /move?tenant=T&to=NODE}: a planned move; {@code GET /status}; {@code GET
 *       /tenants}.
 * </ul>
 *
 * <p>Arguments: {@code id dataDir port etcdEndpoints(comma) s3Endpoint bucket key secret
 * litestream durability ttlSeconds intervalMillis litestreamProcesses}. Prints {@code READY} on stdout once it
 * serves; {@code close} on stdin leaves the fleet (hands its tenants over) and exits.
 */
public final class FleetNodeMain {
    static final int HOPS = 3;
    /** How long a request waits for a tenant being acquired, and for a write's replication. */
    static final Duration WAIT = Duration.ofSeconds(30);
    /** How long a forwarded request may take: past the owner's two longest waits. */
    static final Duration FORWARD_TIMEOUT = WAIT.multipliedBy(2).plusSeconds(10);
    static final String SCHEMA = String.join(";\n",
            dev.lanes.fleet.internal.TenantFence.CREATE,
            "CREATE TABLE IF NOT EXISTS w (seq INTEGER PRIMARY KEY AUTOINCREMENT,"
                    + " id INTEGER NOT NULL UNIQUE, token INTEGER)",
            "CREATE INDEX IF NOT EXISTS w_unstamped ON w (seq) WHERE token IS NULL",
            "CREATE TRIGGER IF NOT EXISTS w_stamp_insert AFTER INSERT ON lanes_fleet_fence"
                    + " BEGIN UPDATE w SET token = NEW.token WHERE token IS NULL; END",
            "CREATE TRIGGER IF NOT EXISTS w_stamp_update AFTER UPDATE ON lanes_fleet_fence"
                    + " BEGIN UPDATE w SET token = NEW.token WHERE token IS NULL; END") + ";";

    private final Fleet fleet;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Set<Database> prepared = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    private FleetNodeMain(Fleet fleet) {
        this.fleet = fleet;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 13) {
            System.err.println("usage: FleetNodeMain id dataDir port etcd s3Endpoint bucket key"
                    + " secret litestream durability ttlSeconds intervalMillis litestreams");
            System.exit(2);
        }
        int port = Integer.parseInt(args[2]);
        Fleet fleet = Fleet.builder().nodeId(args[0]).address("http://127.0.0.1:" + port)
                .dataDirectory(Path.of(args[1])).etcd(List.of(args[3].split(",")))
                .objectStore(ObjectStore.builder().endpoint(args[4]).bucket(args[5])
                        .accessKeyId(args[6]).secretAccessKey(args[7]).build())
                .litestream(Path.of(args[8])).durability(Durability.valueOf(args[9]))
                .leaseTtl(Duration.ofSeconds(Long.parseLong(args[10])))
                .replicationInterval(Duration.ofMillis(Long.parseLong(args[11])))
                .litestreamProcesses(Integer.parseInt(args[12]))
                // the tests and the bench share a loaded machine: a restore, or the upload a
                // REPLICATED write waits for, can take well over the defaults' 10 s there
                .acquireTimeout(WAIT).replicatedTimeout(WAIT)
                .databaseOptions(DatabaseOptions.builder().synchronous(Synchronous.NORMAL).build())
                .build();
        FleetNodeMain node = new FleetNodeMain(fleet);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.createContext("/", node::handle);
        server.start();
        System.out.println("READY");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
                StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.trim().equals("close")) {
                break;
            }
        }
        fleet.close();
        server.stop(0);
        System.out.println("CLOSED");
        System.out.flush();
        System.exit(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        Map<String, String> q = query(ex.getRequestURI());
        String path = ex.getRequestURI().getPath();
        int hops = Integer.parseInt(q.getOrDefault("hops", "0"));
        try {
            switch (path) {
                case "/write" -> respond(ex, 200, write(q.get("tenant"), Long.parseLong(q.get("id"))));
                case "/rows" -> respond(ex, 200, rows(q.get("tenant")));
                case "/move" -> respond(ex, 200, Boolean.toString(
                        fleet.move(q.get("tenant"), q.get("to"))));
                case "/status" -> respond(ex, 200, status());
                case "/tenants" -> respond(ex, 200, String.join("\n", fleet.tenants()));
                default -> respond(ex, 404, "no such path");
            }
        } catch (NotOwnerException e) {
            if (e.owner().isEmpty() || hops >= HOPS || e.owner().get().address().isEmpty()) {
                respond(ex, 409, "NOT_STARTED " + e.getMessage());
            } else {
                forward(ex, e.owner().get().address(), path, q, hops + 1);
            }
        } catch (LanesException e) {
            respond(ex, 409, e.outcome() + " " + e.getClass().getSimpleName() + ": "
                    + e.getMessage());
        } catch (RuntimeException e) {
            respond(ex, 500, "UNKNOWN " + e);
        }
    }

    private String write(String tenant, long id) {
        for (int attempt = 0; ; attempt++) {
            Database db = fleet.database(tenant);
            try {
                if (prepared.add(db)) {
                    db.executeScript(SCHEMA);
                }
                db.execute("INSERT INTO w (id) VALUES (?)", id);
                return "ok " + fleet.node().id();
            } catch (LanesException e) {
                // a move closed the handle between the lookup and the write: nothing ran
                if (e.outcome() != WriteOutcome.NOT_STARTED || attempt >= 2
                        || !(e instanceof dev.lanes.ClosingException
                                || e instanceof dev.lanes.ClosedException)) {
                    throw e;
                }
            }
        }
    }

    private String rows(String tenant) {
        StringBuilder out = new StringBuilder();
        Database db = fleet.database(tenant);
        List<Row> table = db.query("SELECT name FROM sqlite_master WHERE name = 'w'");
        if (table.isEmpty()) {
            return "";
        }
        for (Row r : db.query("SELECT seq, id, token FROM w ORDER BY seq")) {
            out.append(r.getLong("seq")).append(' ').append(r.getLong("id")).append(' ')
                    .append(r.getLong("token")).append('\n');
        }
        return out.toString();
    }

    private String status() {
        FleetStatus s = fleet.status();
        return "node " + s.node().id() + "\nlease " + s.lease() + "\nleaseRemainingMillis "
                + s.leaseRemaining().toMillis() + "\ntenants " + s.tenants() + "\nmembers "
                + s.members() + "\nlagBytes " + s.replicationLagBytes() + "\nownershipChanges "
                + s.ownershipChanges() + "\nrestores " + s.restores() + "\nfencingRefusals "
                + s.fencingRefusals() + "\n";
    }

    private void forward(HttpExchange ex, String address, String path, Map<String, String> q,
            int hops) throws IOException {
        StringBuilder uri = new StringBuilder(address).append(path).append("?hops=").append(hops);
        q.forEach((k, v) -> {
            if (!k.equals("hops")) {
                uri.append('&').append(k).append('=').append(v);
            }
        });
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(uri.toString()))
                .timeout(FORWARD_TIMEOUT);
        req = ex.getRequestMethod().equals("POST")
                ? req.POST(HttpRequest.BodyPublishers.noBody()) : req.GET();
        try {
            HttpResponse<String> r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
            respond(ex, r.statusCode(), r.body());
        } catch (java.net.ConnectException e) {
            respond(ex, 409, "NOT_STARTED the owner at " + address + " refused the connection");
        } catch (IOException e) {
            respond(ex, 409, "UNKNOWN forwarding to " + address + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            respond(ex, 409, "UNKNOWN interrupted while forwarding");
        }
    }

    private static void respond(HttpExchange ex, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
        ex.close();
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> q = new HashMap<>();
        String raw = uri.getRawQuery();
        if (raw == null) {
            return q;
        }
        for (String part : raw.split("&")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                q.put(part.substring(0, eq), java.net.URLDecoder.decode(part.substring(eq + 1),
                        StandardCharsets.UTF_8));
            }
        }
        return q;
    }
}
