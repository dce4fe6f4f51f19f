package dev.lanes.fleet.testing;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The chaos run's writes and what became of each: every write has a unique id and goes to one
 * tenant through any node; its outcome is what the node answered ({@code ok}, or the outcome it
 * named), {@code NOT_STARTED} when no node took the connection, and {@code UNKNOWN} when the
 * answer was lost after the request was sent.
 *
 * <p>Thread-safety: the ledger is a concurrent map; ids come from one atomic counter.
 */
final class ChaosLedger {
    enum Outcome { ACKED, ROLLED_BACK, NOT_STARTED, UNKNOWN }

    /**
     * One write: its tenant, outcome, the node that acknowledged it, and when (nanoTime); the
     * node it was sent to and, when not acknowledged, what the answer said.
     */
    record Write(long id, String tenant, Outcome outcome, String node, long sentNanos,
            long endNanos, String via, String detail) {}

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1))
            .executor(java.util.concurrent.Executors.newFixedThreadPool(8, r -> {
                Thread t = new Thread(r, "chaos-http");
                t.setDaemon(true);
                return t;
            })).build();
    private final ConcurrentHashMap<Long, Write> writes = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final Duration timeout;

    ChaosLedger(Duration timeout) {
        this.timeout = timeout;
    }

    /** Writes a fresh id into {@code tenant} through a node picked from {@code nodes}. */
    Write write(String tenant, Supplier<List<String>> nodes) {
        long id = ids.incrementAndGet();
        List<String> addresses = nodes.get();
        String node = addresses.get(ThreadLocalRandom.current().nextInt(addresses.size()));
        long sent = System.nanoTime();
        Outcome outcome;
        String by = null;
        String detail = null;
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                            URI.create(node + "/write?tenant=" + tenant + "&id=" + id))
                    .timeout(timeout).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            String body = r.body();
            detail = r.statusCode() == 200 && body.startsWith("ok ") ? null
                    : r.statusCode() + " " + body;
            if (detail == null) {
                outcome = Outcome.ACKED;
                by = body.substring(3).trim();
            } else if (body.startsWith("NOT_STARTED")) {
                outcome = Outcome.NOT_STARTED;
            } else if (body.startsWith("ROLLED_BACK")) {
                outcome = Outcome.ROLLED_BACK;
            } else {
                outcome = Outcome.UNKNOWN;
            }
        } catch (ConnectException e) {
            outcome = Outcome.NOT_STARTED; // no node took it
            detail = e.toString();
        } catch (HttpTimeoutException e) {
            outcome = Outcome.UNKNOWN;
            detail = e.toString();
        } catch (java.io.IOException e) {
            outcome = e.getCause() instanceof ConnectException ? Outcome.NOT_STARTED
                    : Outcome.UNKNOWN;
            detail = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = Outcome.UNKNOWN;
            detail = e.toString();
        }
        Write w = new Write(id, tenant, outcome, by, sent, System.nanoTime(), node, detail);
        writes.put(id, w);
        return w;
    }

    /** Every write so far. */
    java.util.Collection<Write> all() {
        return writes.values();
    }

    /**
     * Writes every write, in id order, to {@code file} as tab-separated lines: id, tenant,
     * outcome, sent and ended (ms from {@code origin}), node sent to, node that acknowledged,
     * what a failure's answer said.
     */
    void dump(java.nio.file.Path file, long origin) throws java.io.IOException {
        List<String> lines = new java.util.ArrayList<>();
        lines.add("id\ttenant\toutcome\tsentMs\tendMs\tvia\tackedBy\tdetail");
        writes.values().stream().sorted(java.util.Comparator.comparingLong(Write::id))
                .forEach(w -> lines.add(w.id() + "\t" + w.tenant() + "\t" + w.outcome() + "\t"
                        + (w.sentNanos() - origin) / 1_000_000 + "\t"
                        + (w.endNanos() - origin) / 1_000_000 + "\t" + w.via() + "\t"
                        + w.node() + "\t" + (w.detail() == null ? ""
                                : w.detail().replace('\n', ' ').replace('\t', ' '))));
        java.nio.file.Files.write(file, lines, java.nio.charset.StandardCharsets.UTF_8);
    }

    Write get(long id) {
        return writes.get(id);
    }

    /** A GET to {@code node}; null when it did not answer 200. */
    String get(String node, String pathAndQuery) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(node + pathAndQuery))
                    .timeout(Duration.ofSeconds(30)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (java.io.IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
